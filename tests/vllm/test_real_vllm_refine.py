"""Iterative refinement (``sampling.refine_rounds=2``) through ``python -m ibench.launch
model=tiny-cpu`` on the real engine. The tiny model writes random text (no program), so every
round-1 sample fails and goes on to round 2: one request per sample, all of one task, each with
its own continued conversation (system, first prompt, the round-1 answer, the judge's feedback).
Each round-2 sample is linked to its round-1 sample, records that 4-message conversation as its
prompt, and the engine's prompt count is the chat template's over those 4 turns (longer than
round 1's); summary.json has the refine rows of both rounds at 0."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from vllm_lane import device

pytestmark = pytest.mark.vllm_real

TASK = "distinct-in-range"  # ~550 prompt tokens with the tiny model's tokenizer
MAX_LEN = 2048  # room for the round-2 conversation (the first prompt + an answer + feedback)
N = 2


def test_refinement_rounds_continue_each_samples_conversation(tiny_model, tmp_path):
    import polars as pl
    from transformers import AutoTokenizer

    from ibench.generate.extract import split_reasoning
    from ibench.generate.feedback import assistant_turn

    tok = AutoTokenizer.from_pretrained(str(tiny_model))

    def template_tokens(messages: list[dict]) -> int:
        ids = tok.apply_chat_template(messages, tokenize=True, add_generation_prompt=True, enable_thinking=True)
        return len(ids["input_ids"] if hasattr(ids, "keys") else ids)

    out = tmp_path / "outputs"
    cmd = [sys.executable, "-m", "ibench.launch", "model=tiny-cpu", f"bench.ids=[{TASK}]", "bench.non_adaptive_cases=2",
           f"sampling.n={N}", "sampling.max_tokens=32", "sampling.refine_rounds=2",
           f"model.engine_kwargs.max_model_len={MAX_LEN}", f"model.engine_kwargs.max_num_batched_tokens={MAX_LEN}",
           f"paths.output_dir={out}", "wandb=disabled", "cluster.num_cpus=2"]
    if device() == "cuda":
        cmd += ["model.gpus_per_bundle=1", "cluster.num_gpus=1", "model.engine_kwargs.enable_chunked_prefill=true"]
    env = {**os.environ, "IBENCH_TINY_MODEL": str(tiny_model), "WANDB_MODE": "disabled"}
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}"

    found = sorted(out.rglob("results/samples.parquet"))
    assert len(found) == 1, found
    results = found[0].parent
    samples = pl.read_parquet(results / "samples.parquet")
    verdicts = pl.read_parquet(results / "verdicts.parquet")
    assert samples["sample_id"].n_unique() == samples.height == 2 * N
    assert verdicts.height == 2 * N and set(verdicts["sample_id"]) == set(samples["sample_id"])
    assert list(samples["error"]) == [""] * (2 * N)
    verdict = {row["sample_id"]: row for row in verdicts.iter_rows(named=True)}

    first = {row["sample_index"]: row for row in samples.filter(pl.col("round") == 1).iter_rows(named=True)}
    second = {row["sample_index"]: row for row in samples.filter(pl.col("round") == 2).iter_rows(named=True)}
    assert sorted(first) == list(range(N))
    assert all(verdict[r["sample_id"]]["verdict"] != "OK" for r in first.values())  # random text: no program
    assert sorted(second) == sorted(first)  # every failed round-1 sample has its round 2
    for i, row in second.items():
        parent = first[i]
        assert row["parent_id"] == parent["sample_id"] and parent["parent_id"] == ""
        assert row["task_id"] == parent["task_id"] == TASK
        assert verdict[row["sample_id"]]["round"] == 2 and verdict[parent["sample_id"]]["round"] == 1
        base = json.loads(parent["prompt"])
        messages = json.loads(row["prompt"])
        assert [m["role"] for m in base] == ["system", "user"]
        assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
        assert messages[:2] == base  # the same first prompt, continued
        assert messages[2]["content"] == assistant_turn(split_reasoning(parent["response"])[1])  # its round-1 answer
        feedback = messages[3]["content"]  # the judge's feedback on it
        assert "was not accepted" in feedback and "Verdict: no program" in feedback
        # the engine saw the whole conversation: its prompt is the chat template over all 4 turns
        assert row["prompt_tokens"] > parent["prompt_tokens"] > 0
        assert (parent["prompt_tokens"], row["prompt_tokens"]) == (template_tokens(base), template_tokens(messages))
        assert row["completion_tokens"] == 32

    summary = json.loads((results.parent / "summary.json").read_text())
    assert [r["round"] for r in summary["refine"]] == [1, 2]
    assert [r["refine@k"] for r in summary["refine"]] == [0, 0]
    assert [r["n_unsolved"] for r in summary["refine"]] == [N, N]
