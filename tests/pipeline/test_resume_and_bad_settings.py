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
    # (issue 34: a finished run's resume starts nothing — no Ray, no W&B run — and says so)
    summary_before = (run_dir / "summary.json").read_text()
    wandb_runs = sorted((run_dir / "wandb").glob("offline-run-*"))
    proc = cli(f"resume={run_dir}", f"paths.output_dir={out}", "cluster.num_cpus=2", "sampling.refine_rounds=1")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "is finished: 3 samples judged, 1 round(s); nothing to do" in proc.stdout, proc.stdout[-2000:]
    assert "ibench model=" not in proc.stdout and sorted((run_dir / "wandb").glob("offline-run-*")) == wandb_runs
    assert (run_dir / "summary.json").read_text() == summary_before
    meta = json.loads(summary_before)["meta"]
    assert meta["identity"]["sampling"]["n"] == 3
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
    from ibench.run.check import check_command

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
    from ibench.run.config import legacy_run_leaf, run_leaf

    leaf = run_leaf([f"bench.tasks_dir={one_task}", "bench.ids=[a,b,c,d,e]", "sampling.n=7"])
    # a path shows its last part (pytest numbers the folder by how many tests made one before)
    assert leaf.startswith(f"bench.ids=a+b+3more,bench.tasks_dir={one_task.name},sampling.n=7-") and len(leaf) <= 150
    many = run_leaf([f"sampling.x{i}=value-number-{i}" for i in range(20)])
    assert len(many) <= 150 and "-more-" in many and many.startswith("sampling.x0=value-number-0,")
    os.environ["IBENCH_SWEEP_KEYS"] = "sampling.n"
    try:
        # a sweep's job folder is named by its swept values (the rest is the sweep's record, sweep.json)
        assert run_leaf(["bench.ids=[x]", "sampling.n=2"]) == "sampling.n=2"
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
    from ibench.run.driver import banner_note

    backend = ReferenceBackend.__new__(ReferenceBackend)
    backend.repeat_to_n, backend.language = False, "cpp"
    backend.solutions = lambda t: [1, 2, 3]  # type: ignore[method-assign]
    note = banner_note(backend, [object()], SimpleNamespace(n=2))
    assert "as 3 sample(s), one per solution, so sampling.n=2 does not apply" in note and "ignored" not in note


# -- 8. studies and comparisons --------------------------------------------------------------------------
def _fake_run(root: Path, name: str, prompt: str, n: int, overrides: list[str], c: int = 2) -> Path:
    """A finished run's summary.json, as the launch writes it (two tasks, pass@1 only stored)."""
    from ibench.results.metrics import pass_at_k

    d = root / name
    d.mkdir(parents=True)
    tasks = [{"task_id": t, "difficulty": "Easy", "categories": ["Search"], "n": n, "c": c, "judge_errors": 0,
              "verdicts": {"OK": c, "WA": n - c}, "pass_at": {"1": pass_at_k(n, c, 1)}, "date": None}
             for t in ("task-a", "task-b")]
    summary = {"model": "reference", "ks": [1], "n_tasks": 2, "n_samples": 2 * n, "tasks": tasks, "refine": [],
               "overall": {"pass_at": {"1": pass_at_k(n, c, 1)}},
               "meta": {"identity": {"model": "reference", "label": "reference", "language": "cpp", "prompt": prompt,
                                     "variant": "interactive", "sampling": {"name": "interactbench", "n": n},
                                     "overrides": overrides}}}
    (d / "summary.json").write_text(json.dumps(summary))
    return d


def test_study_groups_runs_that_differ_in_n_and_computes_pass_at_k_from_the_samples(tmp_path):
    from rich.console import Console

    from ibench.results.study import StudyRun, mitigation_rows, study

    root = tmp_path / "sweeps" / "reference"
    for prompt in ("zero_shot", "few_shot"):
        for n in (5, 8):
            _fake_run(root, f"{prompt}-{n}", prompt, n, [f"prompt={prompt}", f"sampling.n={n}"])
    buf = __import__("io").StringIO()
    files = study([root], k=3, console=Console(file=buf, width=200))  # refused before: "two runs measure the same setting"
    text = buf.getvalue()
    assert "reference: runs differ in sampling.n; grouped apart by them" in text
    import csv

    rows = list(csv.DictReader(open(files["mitigation_csv"])))
    assert sorted(r["model"] for r in rows) == ["reference [n=5]", "reference [n=8]"]
    from ibench.results.metrics import pass_at_k

    five = next(r for r in rows if r["model"] == "reference [n=5]")
    assert float(five["pass@3"]) == pytest.approx(pass_at_k(5, 2, 3))  # never stored: computed from n and c
    # a refinement run that went 3 rounds: refine@5 is empty, and the row says why
    zero = StudyRun(root / "z", "m", "cpp", "zero_shot", {"t": {"n": 5, "c": 1, "pass_at": {"1": 0.2}}}, [1])
    ref = StudyRun(root / "r", "m", "cpp", "zero_shot", {"t": {"n": 5, "c": 1, "pass_at": {"1": 0.2}}}, [1],
                   refine_rows=[{"task_id": "t", "chain": 0, "round": r, "verdict": "WA"} for r in (1, 2, 3)])
    (row,) = mitigation_rows([zero, ref], k=5)
    assert row["refine@5"] is None and "went 3 round(s)" in row["note"] and "--k 3" in row["note"]


def test_compare_labels_by_what_differs_and_fits_80_columns(tmp_path):
    import io

    from rich.console import Console

    from ibench.results.cli import main
    from ibench.results.runs import compare

    url = "model.base_url=http://very-long-host.example.com:8000/v1%3Fx%3Dy"
    a = _fake_run(tmp_path, "a", "zero_shot", 5, [url, "sampling.n=5", "bench.ids=[task-a,task-b]"])
    b = _fake_run(tmp_path, "b", "zero_shot", 8, [url, "sampling.n=8", "bench.ids=[task-a,task-b]"], c=4)
    for d in (a, b):
        (d / "results").mkdir()
    buf = io.StringIO()
    files = compare([a, b], out=tmp_path / "cmp", resamples=50, console=Console(file=buf, width=80))
    text = buf.getvalue()
    assert "A = reference [sampling.n=5]" in text and "B = reference [sampling.n=8]" in text
    assert "example.com" not in text and "0…" not in text
    assert max(len(line) for line in text.splitlines() if not line.startswith(("A =", "B =", "wrote"))) <= 80
    assert files["png"].stat().st_size > 0
    buf = io.StringIO()
    from ibench.results.runs import show

    show(tmp_path, Console(file=buf, width=200))  # a folder of runs: one line per run, by identity
    assert "2 run(s) under" in buf.getvalue() and "reference [sampling.n=8]" in buf.getvalue()
    assert main(["show", str(tmp_path / "nothing-here")]) == 2


# -- 9. a new task goes to a folder of the user's ----------------------------------------------------------
def test_tasks_new_defaults_to_the_users_folder(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("IBENCH_USER_TASKS", None)
    def run(*a, **kw):
        return subprocess.run([sys.executable, "-m", "ibench.tasks", *a], cwd=tmp_path, text=True,
                              capture_output=True, env={**env, **kw})
    proc = run("new", "demo-task")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "my-tasks" / "demo-task" / "meta.json").is_file() and "created my-tasks/demo-task/" in proc.stdout
    proc = run("new", "other", IBENCH_USER_TASKS=str(tmp_path / "mine"))
    assert proc.returncode == 0 and (tmp_path / "mine" / "other" / "meta.json").is_file()
    proc = run("new", "asked", "--dir", "tasks")  # asked for by name: the folder given
    assert proc.returncode == 0 and (tmp_path / "tasks" / "asked" / "meta.json").is_file()
    assert not (REPO / "tasks" / "demo-task").exists()


def test_resume_of_a_folder_made_with_another_model_takes_its_model(tmp_path):
    """The issue's case: a folder made by `model=vllm-server model.model=fake-slow sampling.n=7`;
    a bare resume=PATH must not run the default reference model into it."""
    from hydra import compose, initialize_config_dir
    from omegaconf import OmegaConf

    from ibench.run.config import CONF_DIR

    run_dir = tmp_path / "runs" / "vllm-server" / "interactbench" / "model.model=fake-slow,sampling.n=7"
    (run_dir / ".hydra").mkdir(parents=True)
    made = ["model=vllm-server", "model.model=fake-slow", "sampling.n=7"]
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose("config", overrides=made, return_hydra_config=True)
    hydra_part = OmegaConf.to_container(cfg.hydra, resolve=False)
    job = {k: v for k, v in OmegaConf.to_container(cfg, resolve=False).items() if k != "hydra"}
    OmegaConf.save(OmegaConf.create(job), run_dir / ".hydra" / "config.yaml")
    OmegaConf.save(OmegaConf.create({"hydra": hydra_part}), run_dir / ".hydra" / "hydra.yaml")
    OmegaConf.save(OmegaConf.create(made), run_dir / ".hydra" / "overrides.yaml")

    proc = cli(f"resume={run_dir}", "print_config=true", "model.base_url=http://127.0.0.1:9/v1")
    assert proc.returncode == 0, proc.stderr
    import yaml

    shown = yaml.safe_load(proc.stdout)
    assert shown["model"]["model"] == "fake-slow" and shown["model"]["_target_"].endswith("OpenAIBackend")
    assert shown["sampling"]["n"] == 7 and shown["model"]["base_url"] == "http://127.0.0.1:9/v1"
    proc = cli(f"resume={run_dir}", "model=reference")
    assert proc.returncode == 2 and "model=reference: the folder's run has model=vllm-server" in proc.stderr
    proc = cli(f"resume={run_dir}", "model.model=other")
    assert proc.returncode == 2 and "model.model=other: the folder's run has model.model='fake-slow'" in proc.stderr
