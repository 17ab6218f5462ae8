"""Using ibench day to day (issue 11): the preflight, run folders, one W&B run per folder,
interrupts, logs without a terminal, results as a library and the report commands.

Everything runs for real: the launch CLI in subprocesses (its own Ray), a local HTTP server
for the API checks, W&B offline, g++ judging the bundled tasks' known solutions.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import polars as pl
import pytest
from rich.console import Console

REPO = Path(__file__).resolve().parents[2]
TASK = "rotated-array-minimum"  # 12 known solutions: OK, WA, QLE, PE


def files_under(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


def cli(*args: str, env: dict | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    e = {**os.environ, "WANDB_MODE": "offline", "WANDB_SILENT": "true", **(env or {})}
    return subprocess.run([sys.executable, "-m", "ibench.launch", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=timeout, env={k: v for k, v in e.items() if v is not None})


def compose(*overrides: str):
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    from ibench.run.config import CONF_DIR

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return hydra_compose("config", overrides=list(overrides))


@pytest.fixture(scope="module")
def one_task(tmp_path_factory):
    root = tmp_path_factory.mktemp("tasks")
    shutil.copytree(REPO / "tasks" / TASK, root / TASK)
    return root


class _Server:
    """A local OpenAI-compatible endpoint answering every POST with ``status``."""

    def __init__(self, status: int):
        calls = self.calls = []

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                calls.append((self.path, json.loads(self.rfile.read(int(self.headers["Content-Length"])))))
                ok = {"choices": [{"message": {"content": "OK"}, "finish_reason": "length"}]}
                data = json.dumps(ok if status == 200 else {"error": {"message": "invalid api key"}}).encode()
                self.send_response(status)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()


# -- 1. preflight ---------------------------------------------------------------------------------
def test_preflight_names_every_problem_at_once_and_leaves_no_folder(tmp_path):
    out = tmp_path / "outputs"
    proc = cli(f"paths.output_dir={out}", "sampling.n=-1", "sampling.temperature=-0.5",
               "bench.difficulties=[Impossible]", "bench.categories=[Graph,Cooking]", "judge.grace_ms=-5",
               "metrics.ks=[0]", "wandb.mode=sometimes")
    assert proc.returncode == 2, proc.stderr[-3000:]
    for field in ("sampling.n: -1", "sampling.temperature: -0.5", "bench.difficulties: unknown 'Impossible'",
                  "bench.categories: unknown 'Cooking'", "judge.grace_ms: -5", "metrics.ks: [0]",
                  "wandb.mode: 'sometimes'"):
        assert field in proc.stderr, field
    assert "Traceback" not in proc.stderr + proc.stdout
    assert files_under(out) == [] and not (out / "runs").exists()  # Hydra's folder is gone again
    assert "Ray" not in proc.stdout and "wandb" not in proc.stdout.lower()


def test_api_model_preflight_key_and_one_request(tmp_path):
    out = tmp_path / "outputs"
    proc = cli(f"paths.output_dir={out}", "model=openai-api", env={"OPENAI_API_KEY": None})
    assert proc.returncode == 2 and "OPENAI_API_KEY" in proc.stderr and "is not set" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and files_under(out) == []

    with _Server(401) as server:
        proc = cli(f"paths.output_dir={out}", "model=openai-api", f"model.base_url={server.url}",
                   env={"OPENAI_API_KEY": "sk-wrong"})
        assert proc.returncode == 2, proc.stderr[-3000:]
        assert f"POST {server.url}/chat/completions answered HTTP 401" in proc.stderr
        assert "model.preflight=false" in proc.stderr and "Traceback" not in proc.stderr
        assert files_under(out) == []
        assert len(server.calls) == 1 and server.calls[0][1]["max_tokens"] == 1  # one small request

        from ibench.run.preflight import ConfigError, preflight

        os.environ["OPENAI_API_KEY"] = "sk-wrong"
        try:
            base = [f"bench.tasks_dir={REPO / 'tasks'}", "bench.ids=[guess-the-number]", "model=openai-api",
                    f"model.base_url={server.url}"]
            with pytest.raises(ConfigError, match="HTTP 401"):
                preflight(compose(*base))
            preflight(compose(*base, "model.preflight=false"))  # skips the request
            assert len(server.calls) == 2
        finally:
            del os.environ["OPENAI_API_KEY"]
    with _Server(200) as server:
        preflight(compose(*base[:2], "model=vllm-server", f"model.base_url={server.url}"))
        assert server.calls[0][1]["model"] == "Qwen/Qwen3-32B"


def test_vllm_model_needs_the_gpus_of_one_replica():
    from ibench.run.preflight import ConfigError, preflight

    with pytest.raises(ConfigError) as e:
        preflight(compose(f"bench.tasks_dir={REPO / 'tasks'}", "model=qwen3-32b", "cluster.num_gpus=1"))
    assert "tensor_parallel_size=2" in str(e.value) and "cluster.num_gpus has 1" in str(e.value)
    preflight(compose(f"bench.tasks_dir={REPO / 'tasks'}", "model=qwen3-32b", "cluster.num_gpus=2"))


def test_http_client_logging_is_off():
    cfg = compose()  # the launch's own logging config (Hydra job_logging)
    from hydra import compose as hc
    from hydra import initialize_config_dir

    from ibench.run.config import CONF_DIR

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        full = hc("config", return_hydra_config=True)
    assert full.hydra.job_logging.loggers.httpx.level == "WARNING"
    assert full.hydra.output_subdir is None and cfg.pipeline.log_every_s > 0


# -- 2. run folder names --------------------------------------------------------------------------
def test_run_folder_names_are_one_safe_component():
    from ibench.run.config import DEFAULT_LEAF, run_leaf, safe_name

    exclude = ["wandb.mode", "model.base_url"]
    leaf = run_leaf(["model.model=Qwen/Qwen3-32B", "bench.ids=[a,b]", "wandb.mode=offline",
                     "model.base_url=http://x:1/v1", "bench.language=c++ 17"], exclude)
    assert leaf == "bench.ids=a+b,bench.language=c++_17,model.model=Qwen_Qwen3-32B"
    assert "/" not in leaf and "[" not in leaf and " " not in leaf
    # order does not matter (the same command resumes); no overrides: a sibling, not the parent
    assert run_leaf(["b.x=1", "a.y=2"]) == run_leaf(["a.y=2", "b.x=1"])
    assert run_leaf([], exclude) == run_leaf(["wandb.mode=online"], exclude) == DEFAULT_LEAF
    long = run_leaf([f"bench.ids=[{','.join(f'task-number-{i}' for i in range(40))}]"])
    assert len(long) <= 120 and re.search(r"-[0-9a-f]{8}$", long)
    assert long != run_leaf([f"bench.ids=[{','.join(f'task-number-{i}' for i in range(41))}]"])
    assert safe_name("Qwen/Qwen3-32B") == "Qwen_Qwen3-32B" and safe_name("..") == "_" and safe_name("a=b") == "a-b"


def test_run_folders_resume_and_one_wandb_run(one_task, tmp_path):
    """Two CLI launches: the run lands in one safe folder (not nested, identity in summary.json);
    ``resume=PATH`` with another override writes only into PATH and continues its W&B run."""
    from ibench.results.wandb_sink import read_offline_run

    out = tmp_path / "outputs"
    args = [f"paths.output_dir={out}", f"bench.tasks_dir={one_task}", f"bench.ids=[{TASK}]", "bench.non_adaptive_cases=3",
            "cluster.num_cpus=2", "model.repeat_to_n=true", "sampling.n=3"]
    proc = cli(*args)
    assert proc.returncode == 0, proc.stderr[-3000:]
    from ibench.run.config import run_leaf

    base = out / "runs" / "reference" / "interactbench"
    # one folder level for all overrides (bench.tasks_dir's `/`s made safe; too long: a digest)
    leaf = run_leaf([a for a in args if not a.startswith(("paths.", "cluster."))])
    assert [p.name for p in base.iterdir()] == [leaf] and leaf.startswith(f"bench.ids={TASK},bench.non_adaptive")
    run_dir = base / leaf
    assert [p.name for p in run_dir.iterdir() if p.is_dir() and p.name not in (".hydra", "plots", "results", "wandb")] == []
    assert (run_dir / ".hydra" / "config.yaml").is_file() and (run_dir / "ibench.log").is_file()
    ident = json.loads((run_dir / "summary.json").read_text())["meta"]["identity"]
    assert ident["model"] == "reference" and ident["sampling"]["n"] == 3 and ident["label"] == "reference"
    assert f"bench.ids=[{TASK}]" in ident["overrides"]
    assert "cycled to sampling.n=3" in proc.stdout  # the reference model says what it replays

    proc = cli(*args, f"resume='{run_dir}'", "metrics.seed=7")  # quoted: the name holds = and ,
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert sorted(p.name for p in base.iterdir()) == [run_dir.name]  # nothing in the folder of the new overrides
    assert json.loads((run_dir / "summary.json").read_text())["meta"]["judged_now"] == 0
    rid = (run_dir / "wandb" / "ibench-run-id").read_text().strip()
    offline = sorted((run_dir / "wandb").glob("offline-run-*"))
    assert len(offline) == 2 and all(p.name.endswith(rid) for p in offline)
    ids = set()
    for p in offline:
        for _ in range(100):
            wb = read_offline_run(p)
            if wb["run"].get("id"):
                break
            time.sleep(0.1)
        ids.add(wb["run"]["id"])
    assert ids == {rid}

    # print_config prints and exits: no Ray, no W&B, no new folder
    proc = cli(*args, "print_config=true", "metrics.seed=8")
    assert proc.returncode == 0 and "repeat_to_n: true" in proc.stdout and "ibench model=" not in proc.stdout
    assert sorted(p.name for p in base.iterdir()) == [run_dir.name]
    assert len(list((run_dir / "wandb").glob("offline-run-*"))) == 2


# -- 4. and 5. interrupts, logs without a terminal ----------------------------------------------------
def _interrupt(args: list[str], run_dir: Path, sig: int, group: bool, after: int = 3) -> tuple[int, str, str]:
    from ibench.results.store import read_table

    def judged() -> int:
        return read_table(run_dir / "results", "verdicts").height if (run_dir / "results").is_dir() else 0

    before = judged()
    env = {**os.environ, "WANDB_MODE": "offline", "WANDB_SILENT": "true"}
    proc = subprocess.Popen([sys.executable, "-m", "ibench.launch", *args], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
    deadline = time.time() + 240
    while time.time() < deadline and proc.poll() is None:
        if judged() >= before + after:  # this launch has judged some itself
            break
        time.sleep(0.2)
    assert proc.poll() is None, proc.communicate()
    (os.killpg if group else os.kill)(proc.pid, sig)  # group: Ctrl-C in a terminal
    stdout, stderr = proc.communicate(timeout=120)
    return proc.returncode, stdout, stderr


def test_sigterm_and_ctrl_c_stop_cleanly_and_resume(one_task, tmp_path):
    from ibench.results import load
    from ibench.results.wandb_sink import read_offline_run

    run_dir = tmp_path / "run"
    args = [f"bench.tasks_dir={one_task}", "bench.non_adaptive_cases=6", f"hydra.run.dir={run_dir}",
            "cluster.num_cpus=1", "model.repeat_to_n=true", "sampling.n=40", "pipeline.log_every_s=0.5",
            "pipeline.max_inflight=1"]
    rc, stdout, stderr = _interrupt(args, run_dir, signal.SIGTERM, group=False)
    assert rc == 143, stderr[-3000:]
    lines = [line for line in stderr.splitlines() if line.startswith("interrupted")]
    assert len(lines) == 1 and "(SIGTERM)" in lines[0] and "run the same command again to resume" in lines[0]
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr
    judged = int(re.search(r"(\d+) of 40 sample", lines[0]).group(1))
    first = load(run_dir).verdicts
    assert judged >= 3 and first.height == judged  # everything judged is stored (compacted)
    assert (run_dir / "results" / "verdicts.parquet").is_file()
    # logs without a terminal: one progress line every log_every_s
    assert re.search(r"progress: generated \d+/40, judged \d+/40, running pass@1 [\d.—]+, elapsed \S+, ETA", stdout)
    wb = read_offline_run(sorted((run_dir / "wandb").glob("offline-run-*"))[-1])
    assert wb["summary"].get("ibench/status") == "interrupted" and wb["summary"].get("ibench/exit_code") == 143

    # the resumed run is signalled after its first judged sample: it has fewer left, and once in
    # CI (after +3) it ended with 0 and no interrupt line, most likely finishing as the signal came
    rc, _, stderr = _interrupt(args, run_dir, signal.SIGINT, group=True, after=1)
    assert rc == 130 and "interrupted (SIGINT)" in stderr, stderr[-3000:]
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr
    second = load(run_dir).verdicts
    kept = second.join(first.select("sample_id", "judged_at"), on="sample_id", suffix="_first")
    assert kept.height == first.height and (kept["judged_at"] == kept["judged_at_first"]).all()


# -- 6. and 7. results as a library, the report commands, the W&B per-sample table --------------------
@pytest.fixture(scope="module")
def two_tasks(tmp_path_factory):
    root = tmp_path_factory.mktemp("tasks2")
    for name in (TASK, "subtraction-set-duel"):
        shutil.copytree(REPO / "tasks" / name, root / name)
    return root


@pytest.fixture(scope="module")
def two_runs(ray_session, two_tasks, tmp_path_factory):
    """Two real runs of the reference model under folder names holding `[`, `=` and a
    `/`-derived part: all known solutions once, and the first three cycled (n = 6)."""
    from ibench.run.driver import run

    root = tmp_path_factory.mktemp("runs")
    dirs = [root / "sweep[1]" / "model.model=Qwen_Qwen3-32B,bench.ids=a", root / "sweep[2]" / "n=6"]
    printed = []
    for d, extra in zip(dirs, ([], ["model.repeat_to_n=true", "sampling.n=6"])):
        buf = io.StringIO()
        cfg = compose(f"bench.tasks_dir={two_tasks}", "bench.non_adaptive_cases=6", "pipeline.progress=false", *extra)
        run(cfg, d, console=Console(file=buf, width=200), overrides=extra)
        printed.append(buf.getvalue())
    return dirs, printed


def test_results_load_whatever_the_folder_is_called(two_runs):
    from ibench.results import load

    (first, _), printed = two_runs
    assert "[" in str(first) and "=" in first.name
    with pytest.raises(Exception):  # what the old docs said: polars globbing breaks on `[`
        pl.read_parquet(str(first / "results" / "verdicts.parquet"))
    r = load(first)
    n = sum(len([f for f in json.loads((REPO / "tasks" / t / "solutions" / "expected.json").read_text())
                 if f.endswith(".cpp")]) for t in (TASK, "subtraction-set-duel"))
    assert r.verdicts.height == r.summary["n_samples"] == n and r.cases.height >= r.verdicts.height
    table = r.sample_table()
    assert table.height == n and {"OK", "WA", "QLE", "PE"} <= set(table["verdict"])
    wa = table.filter(pl.col("verdict") == "WA").row(0, named=True)
    assert wa["failing_case"] and wa["solver_to_judge_tail"] and wa["code"].startswith(("#include", "//"))
    assert r.per_task is not None and r.per_task["task_id"].to_list() == sorted([TASK, "subtraction-set-duel"])
    assert "so sampling.n=10 does not apply" in printed[0]  # the reference banner (issue 22: no "is ignored")

    # the same per-sample table in the W&B run
    from ibench.results.wandb_sink import read_offline_run

    off = sorted((first / "wandb").glob("offline-run-*"))[-1]
    for _ in range(100):
        wb = read_offline_run(off)
        if any("samples/_type" in row for row in wb["history"]):
            break
        time.sleep(0.1)
    row = next(row for row in wb["history"] if "samples/_type" in row)
    assert row["samples/_type"] == "table-file" and row["samples/nrows"] == n
    assert row["samples/ncols"] == 9  # task, sample, verdict, message, failing case, both tails, compiler, code


def test_report_show_compare_sample(two_runs, tmp_path):
    from ibench.results.cli import main
    from ibench.results.runs import compare, sample, show
    from ibench.results import load

    (first, second), _ = two_runs
    buf = io.StringIO()
    s = show(first, Console(file=buf, width=200))
    assert s.overall.pass_at[1] == load(first).summary["overall"]["pass_at"]["1"]
    assert "pass@k by difficulty" in buf.getvalue() and "Failure composition" in buf.getvalue()

    buf = io.StringIO()
    files = compare([first, second], out=tmp_path / "cmp", resamples=200, console=Console(file=buf, width=250))
    rows = {(r["group"], r["name"]): r for r in pl.read_csv(files["csv"]).iter_rows(named=True)}
    a, b = (load(d).summary["overall"]["pass_at"]["1"] for d in (first, second))
    overall = rows[("overall", "all")]
    # issue 22: the label shows only the overrides that differ (a run without one: its recorded value or "default")
    label, base = "reference [model.repeat_to_n=true, sampling.n=6]", "reference [model.repeat_to_n=default, sampling.n=10]"
    assert overall[base] == pytest.approx(a) and overall[label] == pytest.approx(b)
    assert overall[f"{label} - {base}"] == pytest.approx(b - a)
    lo, hi = overall[f"{label} - {base} ci_low"], overall[f"{label} - {base} ci_high"]
    assert lo <= b - a <= hi
    assert ("task", TASK) in rows and any(g == "difficulty" for g, _ in rows) and any(g == "category" for g, _ in rows)
    printed = " ".join(buf.getvalue().split())
    assert files["png"].stat().st_size > 0 and "paired bootstrap CI over tasks" in printed
    assert f"differences to {base}" in printed and "sampling.n=6]" in printed

    v = load(first).sample_table().filter(pl.col("verdict") == "QLE").row(0, named=True)
    buf = io.StringIO()
    got = sample(first, TASK, v["sample_index"], Console(file=buf, width=200))
    text = buf.getvalue()
    assert got["verdict"] == "QLE" and got["code"] == v["code"] and got["cases"]
    assert "verdict: QLE" in text and "solver → judge" in text and "judge → solver" in text and "cases" in text
    assert main(["sample", str(first), "no-such-task"]) == 2
    assert main(["show", str(tmp_path)]) == 2
