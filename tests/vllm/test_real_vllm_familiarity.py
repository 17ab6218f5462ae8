"""``python -m ibench.results familiarity RUN`` on the real engine (issue 31): a ``model=tiny-cpu``
run, then the familiarity command asks vLLM itself — in its own process, with the run's own saved
model config (the weights folder and ``engine_kwargs``) — for the ``prompt_logprobs`` of each
statement and known accepted solution, stores them beside the run and makes the report.

The tiny model is random: the numbers mean nothing, the path is real (the engine, its tokenizer,
``SamplingParams(prompt_logprobs=0)``, each prompt token's log-probability read by its id). What
is checked is what any model must give: a probability in (0, 1] per text, a mean log-probability
below 0, as many tokens as the engine's own tokenizer makes of the text (less the first, which has
no context), the same figures when asked again, and a report from the stored figures alone."""

from __future__ import annotations

import csv
import math
import os
import subprocess
import sys

import pytest

from vllm_lane import REPO, device

pytestmark = pytest.mark.vllm_real

TASK = "distinct-in-range"  # a statement and two accepted C++ solutions, each well inside the window
MAX_LEN = 2048


def _run(cmd, cwd, env, timeout=600):
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{' '.join(map(str, cmd))}\n{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}"
    return proc


@pytest.fixture(scope="module")
def tiny_run(tiny_model, tmp_path_factory):
    """A finished ``model=tiny-cpu`` run of one task (random text: every sample CE)."""
    tmp = tmp_path_factory.mktemp("familiarity")
    out = tmp / "outputs"
    cmd = [sys.executable, "-m", "ibench.launch", "model=tiny-cpu", f"bench.ids=[{TASK}]", "sampling.n=2",
           "sampling.max_tokens=8", f"model.engine_kwargs.max_model_len={MAX_LEN}",
           f"model.engine_kwargs.max_num_batched_tokens={MAX_LEN}", f"paths.output_dir={out}", "wandb=disabled",
           "cluster.num_cpus=2"]
    if device() == "cuda":
        cmd += ["model.gpus_per_bundle=1", "cluster.num_gpus=1", "model.engine_kwargs.enable_chunked_prefill=true"]
    env = {**os.environ, "IBENCH_TINY_MODEL": str(tiny_model), "WANDB_MODE": "disabled"}
    _run(cmd, tmp, env)
    (summary,) = sorted(out.rglob("summary.json"))
    return summary.parent, env


def test_familiarity_asks_the_real_engine_with_the_runs_own_model_config(tiny_run, tiny_model):
    run_dir, env = tiny_run
    _run([sys.executable, "-m", "ibench.results", "familiarity", str(run_dir)], run_dir, env)

    rows = list(csv.DictReader(open(run_dir / "familiarity.csv")))
    kinds = sorted(r["kind"] for r in rows)
    assert kinds == ["solution:ok_mo.cpp", "solution:ok_offline_bit.cpp", "statement"], kinds
    assert {r["task_id"] for r in rows} == {TASK}
    for r in rows:
        assert r["backend"] == f"vllm {tiny_model}", r["backend"]  # the run's own weights, from its config
        p, lp = float(r["mean_prob"]), float(r["mean_logprob"])
        assert 0.0 < p <= 1.0 and math.isfinite(lp) and lp < 0.0, r
        assert math.exp(lp) <= p + 1e-9  # Jensen: the mean of exp is at least exp of the mean

    # As many tokens as the engine's own tokenizer makes of each text, less the first.
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(tiny_model))
    solutions = REPO / "tasks" / TASK / "solutions"
    for r in rows:
        if r["kind"].startswith("solution:"):
            text = (solutions / r["kind"].split(":", 1)[1]).read_text()
            assert int(r["tokens"]) == len(tok(text)["input_ids"]) - 1, r

    report = run_dir / "familiarity_report"
    for name in ("familiarity_tasks.csv", "familiarity.png", "familiarity.pdf"):
        assert (report / name).is_file(), name
    (task_row,) = list(csv.DictReader(open(report / "familiarity_tasks.csv")))
    assert task_row["task_id"] == TASK and float(task_row["pass@1"]) == 0.0  # random text: no program

    # Asked again: the same figures (greedy, prompt log-probabilities only); --reuse asks nothing.
    first = {r["kind"]: (r["tokens"], float(r["mean_logprob"])) for r in rows}
    _run([sys.executable, "-m", "ibench.results", "familiarity", str(run_dir), "--out", str(run_dir / "again")],
         run_dir, env)
    again = {r["kind"]: (r["tokens"], float(r["mean_logprob"]))
             for r in csv.DictReader(open(run_dir / "familiarity.csv"))}
    assert again.keys() == first.keys()
    for k in first:
        assert again[k][0] == first[k][0] and again[k][1] == pytest.approx(first[k][1], abs=1e-4)
    _run([sys.executable, "-m", "ibench.results", "familiarity", str(run_dir), "--reuse", "--no-figures",
          "--out", str(run_dir / "reused")], run_dir, env)
    assert (run_dir / "reused" / "familiarity_tasks.csv").is_file()
