"""``python -m ibench.results behaviors RUN judge_model=tiny-cpu`` on the real engine: a tiny-cpu
run's reasoning (random text) classified by the tiny model itself, whose answers are nonsense —
every answer counted as unparseable, the run completes, the report is written."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from vllm_lane import device

pytestmark = pytest.mark.vllm_real

TASK = "distinct-in-range"  # ~550 prompt tokens with the tiny model's tokenizer


def test_behaviors_with_the_tiny_model_as_judge(tiny_model, tmp_path):
    out = tmp_path / "outputs"
    env = {**os.environ, "IBENCH_TINY_MODEL": str(tiny_model), "WANDB_MODE": "disabled"}
    cuda = device() == "cuda"
    launch = [sys.executable, "-m", "ibench.launch", "model=tiny-cpu", f"bench.ids=[{TASK}]", "sampling.n=2",
              "sampling.max_tokens=48", "bench.non_adaptive_cases=1", f"paths.output_dir={out}", "wandb=disabled",
              "cluster.num_cpus=2"]
    if cuda:
        launch += ["model.gpus_per_bundle=1", "cluster.num_gpus=1", "model.engine_kwargs.enable_chunked_prefill=true"]
    proc = subprocess.run(launch, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}"
    (run,) = [p.parent for p in out.rglob("summary.json")]

    cmd = [sys.executable, "-m", "ibench.results", "behaviors", str(run), "judge_model=tiny-cpu",
           "cluster.num_cpus=2", "--wandb", "disabled"]
    if cuda:
        cmd += ["judge_model.gpus_per_bundle=1", "cluster.num_gpus=1",
                "judge_model.engine_kwargs.enable_chunked_prefill=true"]
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}"
    summary = json.loads((run / "behaviors" / "behaviors.json").read_text())
    c = summary["counts"]
    assert c["samples"] == 2 and c["segments"] >= 2 and c["classified"] == c["segments"] and c["failed"] == 0
    assert c["unparsed"] >= 1  # random text names no behavior (by chance it might, once)
    assert (run / "behaviors" / "shares.csv").is_file() and (run / "behaviors" / "behaviors.png").is_file()
    assert [p.parent for p in out.rglob("summary.json")] == [run]  # still one run folder below out
    assert "unparseable answer(s)" in proc.stdout
