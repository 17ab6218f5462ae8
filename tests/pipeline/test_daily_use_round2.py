"""Day to day, round two (issue 22): ``resume=PATH`` adopts the folder's settings, every bad
setting (Hydra's own errors included) exits 2 with ibench's message before Ray starts, a sweep
is checked whole, readable run folder names, less noise.

The launch CLI runs in subprocesses, as a user runs it; W&B offline; g++ judging one bundled
task's known solutions on two cases.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TASK = "guess-the-number"


def cli(*args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    env = {**os.environ, "WANDB_MODE": "offline", "WANDB_SILENT": "true"}
    env.pop("RAY_AUTH_MODE", None)
    return subprocess.run([sys.executable, "-m", "ibench.launch", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=timeout, env=env)


def files_under(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


@pytest.fixture(scope="module")
def one_task(tmp_path_factory):
    root = tmp_path_factory.mktemp("tasks")
    shutil.copytree(REPO / "tasks" / TASK, root / TASK)
    return root


# -- 1. resume=PATH adopts the folder's settings ------------------------------------------------------
def test_resume_adopts_the_folders_settings_and_refuses_identity_changes(one_task, tmp_path):
    out = tmp_path / "outputs"
    made = [f"paths.output_dir={out}", f"bench.tasks_dir={one_task}", f"bench.ids=[{TASK}]",
            "bench.non_adaptive_cases=2", "model.repeat_to_n=true", "sampling.n=3", "cluster.num_cpus=2"]
    proc = cli(*made)
    assert proc.returncode == 0, proc.stderr[-3000:]
    # 6. no Ray token notice; the pass@5 warning (n=3 < 5) once; the banner says what n does
    text = proc.stdout + proc.stderr
    assert "Token authentication" not in text
    assert text.count("pass@5 needs n >= 5") == 1, text[-3000:]
    assert "cycled to sampling.n=3" in proc.stdout
    (run_dir,) = [p for p in (out / "runs" / "reference" / "interactbench").iterdir()]
    assert (run_dir / "identity.json").is_file()

    # a bare resume (other defaults: all tasks, n=10 without repeat_to_n) continues the folder's run
    proc = cli(f"resume={run_dir}", f"paths.output_dir={out}", "cluster.num_cpus=2", "sampling.refine_rounds=1")
    assert proc.returncode == 0, proc.stderr[-3000:]
    meta = json.loads((run_dir / "summary.json").read_text())["meta"]
    assert meta["generated"] == 0 and meta["judged_now"] == 0 and meta["identity"]["sampling"]["n"] == 3
    assert meta["tasks_dir"] == str(one_task)
    assert "resume: the settings of" in proc.stderr
    assert sorted(p.name for p in (out / "runs" / "reference" / "interactbench").iterdir()) == [run_dir.name]

    # an override that changes what the run measures: exit 2, named, the allowed ones listed; nothing written
    before = sorted(str(p) for p in files_under(run_dir))
    proc = cli(f"resume={run_dir}", f"paths.output_dir={out}", "sampling.n=5", "prompt=few_shot",
               f"bench.ids=[{TASK}]")
    assert proc.returncode == 2, proc.stderr[-3000:]
    assert "sampling.n=5: the folder's run has sampling.n=3" in proc.stderr
    assert "prompt=few_shot: the folder's run has prompt=zero_shot" in proc.stderr
    assert "bench.ids" not in proc.stderr.split("A resume may change")[0].split("measures:")[1]  # same value: fine
    assert "sampling.refine_rounds" in proc.stderr and "pipeline.*" in proc.stderr
    assert "Traceback" not in proc.stderr and "Ray" not in proc.stdout
    assert sorted(str(p) for p in files_under(run_dir)) == before

    # print_config shows the adopted settings
    proc = cli(f"resume={run_dir}", "print_config=true")
    assert proc.returncode == 0, proc.stderr
    import yaml

    shown = yaml.safe_load(proc.stdout)
    assert shown["model"]["repeat_to_n"] is True and shown["sampling"]["n"] == 3, proc.stdout
    assert shown["bench"]["tasks_dir"] == str(one_task)


# -- 2. errors Hydra catches: exit 2, the field, what was expected, did you mean ------------------------
@pytest.mark.parametrize("override, expect", [
    ("sampling.temprature=0.5", ["sampling.temprature: no such setting; did you mean sampling.temperature?"]),
    ("sampling.n=ten", ["sampling.n: 'ten'; expected a whole number"]),
    ("model=qwen3-23b", ["model=qwen3-23b: no such model config; did you mean qwen3-32b", "conf/model/"]),
    ("bench.ids=[guess-the-numbr]", ["bench.ids: unknown task id 'guess-the-numbr'; did you mean guess-the-number?"]),
    ("modle=reference", ["modle: no such setting; did you mean model?"]),
    ("sampling.n=2,3", ["several values run a sweep", "add -m"]),
])
def test_hydra_caught_errors_exit_2_with_did_you_mean(override, expect, tmp_path):
    out = tmp_path / "outputs"
    proc = cli(f"paths.output_dir={out}", override)
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert proc.stderr.startswith("error: invalid settings:\n  ")
    for e in expect:
        assert e in proc.stderr, (e, proc.stderr)
    assert "Traceback" not in proc.stderr and "HYDRA_FULL_ERROR" not in proc.stderr and "+sampling" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) <= 3, proc.stderr
    assert files_under(out) == []


def test_several_bad_overrides_one_line_each(tmp_path):
    proc = cli(f"paths.output_dir={tmp_path / 'o'}", "sampling.n=ten", "bench.limit=x", "model.repeat_to_n=maybe")
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()[1:]
    assert [ln.split(":")[0].strip() for ln in lines] == ["sampling.n", "bench.limit", "model.repeat_to_n"], lines
    assert "a whole number or null" in proc.stderr and "true or false" in proc.stderr


# -- 3. a sweep is checked whole before its first job ---------------------------------------------------
def test_a_sweep_with_one_bad_job_runs_none(one_task, tmp_path):
    out = tmp_path / "outputs"
    proc = cli("-m", f"paths.output_dir={out}", f"bench.tasks_dir={one_task}", "model.repeat_to_n=true",
               "sampling.n=2,-1", "bench.non_adaptive_cases=2")
    assert proc.returncode == 2, proc.stderr[-3000:]
    assert "job 1 (sampling.n=-1" in proc.stderr and "sampling.n: -1; expected at least 1" in proc.stderr
    assert "Launching" not in proc.stdout + proc.stderr and files_under(out) == []
    proc = cli("-m", f"paths.output_dir={out}", "sampling.n=2,3", "wandb.mode=sometimes")
    assert proc.returncode == 2 and "every job: wandb.mode: 'sometimes'" in proc.stderr, proc.stderr


def test_the_sweep_check_composes_each_job():
    from ibench.launch import check_command

    jobs, configs, problems = check_command(["-m", "sampling.n=2,3", "prompt=zero_shot,few_shot",
                                             f"bench.ids=[{TASK}]"], request=False)
    assert len(jobs) == 4 and problems == [] and sorted(int(c.sampling.n) for c in configs) == [2, 2, 3, 3]


# -- 4. rejected in under 2 s, before Ray ---------------------------------------------------------------
def test_bad_settings_are_rejected_in_under_two_seconds(tmp_path):
    best = []
    for override in ("sampling.n=-1", "sampling.temprature=1", "model=qwen3-23b"):
        times = []
        for _ in range(2):
            t0 = time.perf_counter()
            proc = cli(f"paths.output_dir={tmp_path}", override)
            times.append(time.perf_counter() - t0)
            assert proc.returncode == 2 and "Ray" not in proc.stdout + proc.stderr
        best.append(min(times))
    # 2 s on an idle machine; where other work holds the CPUs (load above the core count) the
    # limit scales with the load, so the test measures this code, not the neighbours
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    assert max(best) < 2.0 * max(1.0, load), (best, load)


# -- 5. readable folder names; the old names still resume --------------------------------------------
def test_run_folder_names_are_readable_and_old_names_resume(one_task, tmp_path):
    from ibench.config import legacy_run_leaf, run_leaf

    leaf = run_leaf([f"bench.tasks_dir={one_task}", "bench.ids=[a,b,c,d,e]", "sampling.n=7"])
    assert leaf.startswith("bench.ids=a+b+3more,bench.tasks_dir=tasks0,sampling.n=7-") and len(leaf) <= 150
    many = run_leaf([f"sampling.x{i}=value-number-{i}" for i in range(20)])
    assert len(many) <= 150 and "-more-" in many and many.startswith("sampling.x0=value-number-0,")
    os.environ["IBENCH_SWEEP_KEYS"] = "sampling.n"
    try:
        assert run_leaf(["bench.ids=[x]", "sampling.n=2"]) == "sampling.n=2,bench.ids=x"
    finally:
        del os.environ["IBENCH_SWEEP_KEYS"]

    # a folder made under the old scheme is found again by the same command (nothing redone)
    out = tmp_path / "outputs"
    args = [f"paths.output_dir={out}", f"bench.tasks_dir={one_task}", f"bench.ids=[{TASK}]",
            "bench.non_adaptive_cases=2", "model.repeat_to_n=true", "sampling.n=2", "cluster.num_cpus=2"]
    proc = cli(*args)
    assert proc.returncode == 0, proc.stderr[-3000:]
    base = out / "runs" / "reference" / "interactbench"
    (new,) = list(base.iterdir())
    old = base / legacy_run_leaf([a for a in args if not a.startswith(("paths.", "cluster."))])
    assert old != new
    new.rename(old)
    proc = cli(*args)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert [p.name for p in base.iterdir()] == [old.name]
    assert json.loads((old / "summary.json").read_text())["meta"]["generated"] == 0


# -- 6. the reference model's n ------------------------------------------------------------------------
def test_reference_banner_says_what_n_does():
    from types import SimpleNamespace

    from ibench.generate.reference import ReferenceBackend
    from ibench.launch import banner_note

    backend = ReferenceBackend.__new__(ReferenceBackend)
    backend.repeat_to_n, backend.language = False, "cpp"
    backend.solutions = lambda t: [1, 2, 3]  # type: ignore[method-assign]
    note = banner_note(backend, [object()], SimpleNamespace(n=2))
    assert "as 3 sample(s), one per solution, so sampling.n=2 does not apply" in note and "ignored" not in note
