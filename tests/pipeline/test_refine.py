"""Iterative refinement (``sampling.refine_rounds=K``, InteractBench C.2) end to end.

- The reference model: a sample's later rounds replay the next known solutions, bad ones first,
  so refine@r follows from the labels alone: a task with ``w`` known-bad and ``a`` accepted
  solutions has refine@r = (a + min(w, r - 1)) / (w + a). The rounds are linked samples whose
  prompts continue the conversation with the judge's feedback; more rounds on a finished run
  (``resume``) generate only the new round.
- A local OpenAI-compatible server started here: the run is killed (SIGKILL) while round 2 is
  being generated; the next run regenerates nothing of round 1 and finishes round 2.
- The feedback turn itself: the verdict, the failing test, bounded tails.
"""

from __future__ import annotations

import io
import json
import os
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
TASKS = ("rotated-array-minimum", "subtraction-set-duel")
CASES = 10  # as tests/pipeline/test_launch.py: every declared verdict shows with 10 cases


@pytest.fixture(scope="module")
def tasks_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("tasks")
    for name in TASKS:
        shutil.copytree(REPO / "tasks" / name, root / name)
    return root


def labels(task_dir: Path) -> dict[str, str]:
    expected = json.loads((task_dir / "solutions" / "expected.json").read_text())
    return {f: e.get("expected_early_exit", e["expected"]) for f, e in expected.items()
            if f.endswith(".cpp") and e.get("variant", "interactive") == "interactive"}


def predicted_refine(tasks_dir: Path, rounds: int) -> list[float]:
    out = []
    for r in range(1, rounds + 1):
        per_task = []
        for name in TASKS:
            lab = labels(tasks_dir / name)
            a = sum(1 for v in lab.values() if v == "OK")
            w = len(lab) - a
            per_task.append((a + min(w, r - 1)) / (w + a))
        out.append(sum(per_task) / len(per_task))
    return out


def launch(tasks_dir: Path, run_dir: Path, *extra: str):
    from hydra import compose, initialize_config_dir

    from ibench.run.config import CONF_DIR
    from ibench.run.driver import run

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose("config", overrides=[f"bench.tasks_dir={tasks_dir}", f"bench.non_adaptive_cases={CASES}",
                                           "pipeline.progress=false", "wandb.mode=disabled", *extra])
    buf = io.StringIO()
    summary = run(cfg, run_dir, console=Console(file=buf, width=200))
    return summary, buf.getvalue()


def test_reference_refinement_follows_the_labels_and_extends_on_resume(ray_session, tasks_dir, tmp_path):
    run_dir = tmp_path / "run"
    summary, out = launch(tasks_dir, run_dir, "sampling.refine_rounds=3", "wandb.mode=offline")
    want = predicted_refine(tasks_dir, 3)
    assert [r["round"] for r in summary.refine] == [1, 2, 3]
    assert [r["refine@k"] for r in summary.refine] == pytest.approx(want)
    assert summary.overall.pass_at[1] == pytest.approx(want[0])  # pass@k counts first attempts only
    assert "Iterative refinement" in out and "refine@k" in out
    assert summary.flat()["refine@3"] == pytest.approx(want[2])

    s = pl.read_parquet(run_dir / "results" / "samples.parquet")
    v = pl.read_parquet(run_dir / "results" / "verdicts.parquet")
    n_first = sum(len(labels(tasks_dir / t)) for t in TASKS)
    assert s.filter(pl.col("round") == 1).height == n_first
    # every later round answers exactly the samples whose previous round failed
    for r in (2, 3):
        failed_before = v.filter((pl.col("round") == r - 1) & (pl.col("verdict") != "OK")).height
        assert s.filter(pl.col("round") == r).height == failed_before
    by_id = {row["sample_id"]: row for row in s.iter_rows(named=True)}
    verdict = {row["sample_id"]: row["verdict"] for row in v.iter_rows(named=True)}
    for row in s.filter(pl.col("round") == 3).iter_rows(named=True):
        parent = by_id[row["parent_id"]]
        grand = by_id[parent["parent_id"]]
        assert (parent["round"], grand["round"], grand["parent_id"]) == (2, 1, "")
        assert parent["sample_index"] == grand["sample_index"] == row["sample_index"] and parent["task_id"] == row["task_id"]
        assert verdict[parent["sample_id"]] != "OK" and verdict[grand["sample_id"]] != "OK"
        messages = json.loads(row["prompt"])
        # system, first prompt, then per earlier round: its answer and the feedback on it
        assert [m["role"] for m in messages] == ["system", "user", "assistant", "user", "assistant", "user"]
        assert messages[2]["content"] in grand["response"] and messages[4]["content"] in parent["response"]
        assert "was not accepted" in messages[3]["content"] and "Verdict:" in messages[5]["content"]
    assert (run_dir / "refine.csv").exists() and (run_dir / "plots" / "refine_rounds.png").exists()
    from ibench.results.wandb_sink import read_offline_run

    for _ in range(100):  # the run file is written by W&B's own process: it may lag the run's end
        offline = read_offline_run(sorted((run_dir / "wandb").glob("offline-run-*"))[-1])
        logged = {k: v for h in offline["history"] for k, v in h.items()}
        if "study/refine_rounds/nrows" in logged:
            break
        time.sleep(0.1)
    assert logged["study/refine_rounds/nrows"] == 3 and logged["plots/refine_rounds/_type"] == "image-file"

    # The study report: Table 11's shape from the run, and Table 10's row once a plain run of the
    # same samples exists (refine_rounds=1 on a copy: every first attempt reused, nothing generated).
    from ibench.results.cli import main

    plain = tmp_path / "plain"
    shutil.copytree(run_dir, plain)
    zero, _ = launch(tasks_dir, plain, "sampling.refine_rounds=1", "metrics.ks=[1,3]")
    assert zero.meta["generated"] == 0 and zero.refine == []
    assert main(["study", str(run_dir), str(plain), "--out", str(tmp_path / "study"), "--k", "3"]) == 0
    rounds = pl.read_csv(tmp_path / "study" / "refine_rounds.csv")
    assert rounds["refine@k"].to_list() == pytest.approx(want)
    mit = pl.read_csv(tmp_path / "study" / "mitigation.csv").row(0, named=True)
    assert mit["refine@3"] == pytest.approx(want[2]) and mit["pass@3"] == pytest.approx(zero.overall.pass_at[3])

    # One more round on the finished run: only round 4 is generated, nothing is judged twice.
    more, _ = launch(tasks_dir, run_dir, "sampling.refine_rounds=4")
    unsolved_after_3 = v.filter((pl.col("round") == 3) & (pl.col("verdict") != "OK")).height
    assert more.meta["generated"] == unsolved_after_3
    assert more.meta["judged_now"] == unsolved_after_3
    assert [r["refine@k"] for r in more.refine] == pytest.approx(predicted_refine(tasks_dir, 4))


# -- the OpenAI-compatible path, killed mid-round ----------------------------------------------------
class RefineServer:
    """Round 1 (a conversation without an earlier answer): a wrong program. Round 2: the right
    one. While ``hold`` is set, round-2 requests wait (the run is killed meanwhile)."""

    def __init__(self, wrong: str, right: str):
        self.requests: list[dict] = []
        self.hold = threading.Event()
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                rnd = 1 + sum(1 for m in body["messages"] if m["role"] == "assistant")
                with server.lock:
                    server.requests.append({"round": rnd, "messages": body["messages"]})
                while rnd > 1 and server.hold.is_set():
                    time.sleep(0.05)
                code = wrong if rnd == 1 else right
                payload = {"choices": [{"message": {"content": f"Here it is.\n```cpp\n{code}\n```"},
                                        "finish_reason": "stop"}],
                           "usage": {"prompt_tokens": 10, "completion_tokens": 20}}
                data = json.dumps(payload).encode()
                try:
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the client was killed

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def count(self, rnd: int) -> int:
        with self.lock:
            return sum(1 for r in self.requests if r["round"] == rnd)

    def close(self):
        self.hold.clear()
        self.httpd.shutdown()


def test_openai_refinement_resumes_after_a_kill_between_rounds(tasks_dir, tmp_path):
    task = tasks_dir / "rotated-array-minimum"
    wrong = (task / "solutions" / "wa_compare_first.cpp").read_text()
    right = (task / "solutions" / "ok_compare_last.cpp").read_text()
    server = RefineServer(wrong, right)
    server.hold.set()
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "ibench.launch", "model=vllm-server", f"model.base_url={server.url}",
           "model.preflight=false", "model.max_retries=1", "sampling.n=2", "sampling.refine_rounds=2",
           f"bench.tasks_dir={tasks_dir}", "bench.ids=[rotated-array-minimum]", "bench.non_adaptive_cases=3",
           f"paths.output_dir={out}", "cluster.num_cpus=2", "wandb.mode=disabled", "pipeline.progress=false"]
    env = {**os.environ, "WANDB_MODE": "offline"}
    try:
        proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                env=env, start_new_session=True)
        deadline = time.monotonic() + 240
        while server.count(2) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)  # round 1 is generated, judged and stored before round 2 is asked for
        assert server.count(2) == 2, proc.communicate(timeout=5)[0][-3000:] if proc.poll() is not None else "timeout"
        os.killpg(proc.pid, signal.SIGKILL)  # the driver and the Ray it started, mid-round
        proc.wait(timeout=30)
        runs = list((out / "runs").glob("*/*/*"))
        assert len(runs) == 1
        run_dir = runs[0]
        from ibench.results.store import read_table

        assert read_table(run_dir / "results", "samples")["round"].to_list() == [1, 1]
        assert sorted(read_table(run_dir / "results", "verdicts")["verdict"].to_list()) == ["WA", "WA"]

        server.hold.clear()
        again = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, env=env, timeout=300)
        assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
    finally:
        server.close()
    assert server.count(1) == 2  # round 1 was not generated again
    assert server.count(2) == 4  # the two killed round-2 requests, asked again
    s = read_table(run_dir / "results", "samples").sort("round", "sample_index")
    v = read_table(run_dir / "results", "verdicts")
    assert s["round"].to_list() == [1, 1, 2, 2]
    verdict = dict(zip(v["sample_id"].to_list(), v["verdict"].to_list()))
    assert [verdict[sid] for sid in s["sample_id"].to_list()] == ["WA", "WA", "OK", "OK"]
    summary = json.loads((run_dir / "summary.json").read_text())
    assert [r["refine@k"] for r in summary["refine"]] == [0.0, 1.0]
    assert summary["overall"]["pass_at"]["1"] == 0.0
    # round 2 continued the conversation: the first answer, then the judge's feedback on it
    msgs = [r["messages"] for r in server.requests if r["round"] == 2][-1]
    assert [m["role"] for m in msgs] == ["system", "user", "assistant", "user"]
    assert wrong.strip()[:200] in msgs[2]["content"]
    assert "Wrong Answer" in msgs[3]["content"] and "What the judge replied" in msgs[3]["content"]


# -- the feedback turn ---------------------------------------------------------------------------------
def test_feedback_is_bounded_and_names_what_failed(tasks_dir):
    from ibench.generate.feedback import FeedbackSettings
    from ibench.tasks.load import load_task

    task = load_task(tasks_dir / "rotated-array-minimum")
    fb = FeedbackSettings(tail_chars=50, message_chars=200, max_chars=2000, judge_message=True,
                          figures="exact")  # bounds: all parts on
    case = {"case": "004", "verdict": "QLE", "message": "x" * 5000, "cpu_ms": 12.0, "peak_kb": 2048,
            "queries": 31, "query_limit": 30, "solver_exit": "exit 0",
            "solver_to_judge_tail": "? 1\n" * 1000, "judge_to_solver_tail": "5\n" * 1000, "solver_stderr_tail": ""}
    result = {"verdict": "QLE", "cases": [{"case": "001", "verdict": "OK"}, case], "compile": {"ok": True}}
    text = fb.render(task, "cpp", "QLE", result, 1)
    assert len(text) <= 2000
    assert "Query Limit Exceeded" in text and "test #2 (2 test(s) were run)" in text
    assert "Queries: 31 (budget 30)." in text and "characters cut" in text
    assert "What your program wrote (last 50 characters)" in text and "stderr" not in text
    assert f"(limit {task.cpu_time_limit_ms} ms)" in text

    ce = fb.render(task, "cpp", "CE", {"verdict": "CE", "cases": [],
                                                "compile": {"ok": False, "message": "a.cpp:1: error: boom\n" * 400}}, 1)
    assert "Compilation Error" in ce and "a.cpp:1: error: boom" in ce and len(ce) <= 2000
    none = fb.render(task, "cpp", "CE", {"verdict": "CE", "cases": [],
                                                  "compile": {"ok": False, "message": "no code block"}}, 1)
    assert "no fenced code block" in none
    assert FeedbackSettings(template="no placeholder").problems()


def test_vllm_chunks_hold_as_many_samples_in_every_round(tasks_dir):
    """A refinement round sends one request per sample: the vLLM backend's chunks count samples,
    so such a round fills the engine's batch as a first round does."""
    from ibench.generate.base import GenerationRequest
    from ibench.generate.vllm_backend import sample_chunks
    from ibench.tasks.load import load_task

    task = load_task(tasks_dir / "rotated-array-minimum")
    first = [GenerationRequest(task, [], list(range(10)), 0) for _ in range(5)]
    later = [GenerationRequest(task, [], [i], 0, round=2) for i in range(45)]
    assert [sum(len(r.indices) for r in c) for c in sample_chunks(first, 20)] == [20, 20, 10]
    assert [len(c) for c in sample_chunks(later, 20)] == [20, 20, 5]
    assert [r for c in sample_chunks(later, 20) for r in c] == later  # order kept, nothing lost
