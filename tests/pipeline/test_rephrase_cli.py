"""``python -m ibench.launch prompt.rephrase=true`` from the command line: the reference model's
refusal and a rephrasing model the preflight cannot reach (exit 2 before a folder exists), and a
rephrasing that fails when asked (one line, exit 2, the task named, nothing generated)."""

from __future__ import annotations

import os
import subprocess
import sys


def _launch(tmp_path, *args):
    env = {**os.environ, "IBENCH_REPHRASE_CACHE": str(tmp_path / "cache"), "WANDB_MODE": "disabled"}
    return subprocess.run([sys.executable, "-m", "ibench.launch", "bench.ids=[guess-the-number]", "wandb=disabled",
                           f"paths.output_dir={tmp_path / 'out'}", "cluster.num_cpus=2", *args],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)


def test_the_reference_model_alone_is_refused(tmp_path):
    proc = _launch(tmp_path, "prompt.rephrase=true")
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "prompt.rephrase: model=reference replays each task's known solutions and writes no text" in proc.stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").rglob("spec.json"))


def test_a_rephrasing_model_out_of_reach_is_refused_by_the_preflight(tmp_path):
    reach = "prompt.rephrase_with=['base_url=http://127.0.0.1:9/v1','model=m1','api_key_env=null','max_retries=0']"
    proc = _launch(tmp_path, "prompt.rephrase=true", "prompt.rephrase_model=openai-api", reach)
    assert proc.returncode == 2, proc.stderr[-3000:]
    assert "prompt.rephrase_model: model=openai-api: model.base_url: POST http://127.0.0.1:9/v1" in proc.stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").rglob("spec.json"))  # no folder
    proc = _launch(tmp_path, "prompt.rephrase=true", "prompt.rephrase_model=openai-api")
    assert proc.returncode == 2 and "model=openai-api: model.api_key_env: the environment variable" in proc.stderr


def test_a_rephrasing_that_fails_when_asked_stops_the_run_in_one_line(tmp_path):
    # the preflight told not to ask the endpoint: the rephrasing stage meets it out of reach
    reach = ("prompt.rephrase_with=['base_url=http://127.0.0.1:9/v1','model=m1','api_key_env=null','max_retries=0',"
             "'preflight=false']")
    proc = _launch(tmp_path, "prompt.rephrase=true", "prompt.rephrase_model=openai-api", reach)
    assert proc.returncode == 2, proc.stderr[-3000:]
    line = proc.stderr.strip().splitlines()[-1]
    assert line.startswith("error: 1 of 1 statement(s) could not be rephrased by gpt-4.1") and "guess-the-number:" in line
    assert "Traceback" not in proc.stderr
    assert not list((tmp_path / "out").rglob("samples.parquet"))  # nothing generated
