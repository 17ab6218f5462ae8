"""``python -m ibench.launch model=tiny-cpu`` end to end on the real engine: Hydra config, Ray
actor, generation streaming into the judge, the store. Every sample is recorded exactly once;
a task whose prompt is longer than the context window ends as failed samples with that reason
(judged "no code block (generation failed: prompt too long …)"), and the other task is
unaffected."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from vllm_lane import device

pytestmark = pytest.mark.vllm_real

SHORT, LONG = "distinct-in-range", "huffman-by-comparisons"  # ~550 and ~1700 prompt tokens
MAX_LEN = 1200
N = 3


def test_launch_tiny_cpu_records_every_sample_once(tiny_model, tmp_path):
    import polars as pl

    out = tmp_path / "outputs"
    cmd = [sys.executable, "-m", "ibench.launch", "model=tiny-cpu", f"bench.ids=[{SHORT},{LONG}]",
           f"sampling.n={N}", "sampling.max_tokens=32", f"model.engine_kwargs.max_model_len={MAX_LEN}",
           f"model.engine_kwargs.max_num_batched_tokens={MAX_LEN}", "model.tasks_per_call=2",
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
    assert samples.height == 2 * N and samples["sample_id"].n_unique() == 2 * N
    assert verdicts.height == 2 * N and set(verdicts["sample_id"]) == set(samples["sample_id"])
    assert sorted(zip(samples["task_id"], samples["sample_index"])) == sorted(
        (t, i) for t in (SHORT, LONG) for i in range(N))

    long = samples.filter(pl.col("task_id") == LONG)
    assert all("prompt too long" in e and f"is {MAX_LEN}" in e for e in long["error"])
    assert all(p > MAX_LEN for p in long["prompt_tokens"])
    short = samples.filter(pl.col("task_id") == SHORT)
    assert list(short["error"]) == [""] * N
    assert list(short["completion_tokens"]) == [32] * N and list(short["reasoning_tokens"]) == [32] * N
    assert list(short["seed"]) == sorted(short["seed"]) and len(set(short["seed"])) == N

    by_task: dict[str, list[str]] = {}
    for row in verdicts.iter_rows(named=True):
        by_task.setdefault(row["task_id"], []).append(row["verdict"])
    assert by_task == {SHORT: ["CE"] * N, LONG: ["CE"] * N}  # random text: no program
    long_messages = verdicts.filter(pl.col("task_id") == LONG)["message"]
    assert all("generation failed: prompt too long" in m for m in long_messages)
    summary = json.loads((results.parent / "summary.json").read_text())
    assert any(w.startswith(f"{N} sample(s) failed before generating: the prompt is longer") for w in summary["warnings"])
