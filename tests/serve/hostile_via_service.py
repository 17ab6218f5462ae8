#!/usr/bin/env python3
"""The hostile suite's root-mode probes (tests/judge/test_box.py, as scripts/hostile_suite.py
runs them) sent through the judge service, next to the same probes judged in process: how many
attacks were tried and how many held, both ways (prints a table; not a test; run as root).

    python tests/serve/hostile_via_service.py

One replica and one chunk, so the probes are judged in the suite's order on one judge (an
honest sample right after a persistent-state attack must land on the judge attacked)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "judge"), str(ROOT / "scripts")]

import httpx  # noqa: E402
import test_box as tb  # noqa: E402
from box_driver import judge_all  # noqa: E402
from hostile_suite import tally  # noqa: E402
from judge_fixtures import build_guess_task, make_public, public_dir  # noqa: E402

from ibench.judge import Judge, JudgeSettings  # noqa: E402
from ibench.judge.sandbox.host import runtime_dir  # noqa: E402
from ibench.judge.sandbox.run import _remove_tree  # noqa: E402
from ibench.tasks.load import load_task  # noqa: E402


def through_service(task_root: Path, sols: list[Path]) -> dict[str, dict]:
    import ray
    from ray import serve

    from ibench.serve.app import build_app
    from ibench.serve.settings import LimitSettings, ServeSettings

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings = ServeSettings(port=port, tasks_dir=str(task_root), replicas="1", chunk=256, rejudge_se=0,
                             limits=LimitSettings(max_source_bytes=1 << 20))
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        serve.start(http_options={"host": "127.0.0.1", "port": port})
        serve.run(build_app(settings), name="ibench-hostile", route_prefix="/")
        task_id = load_task(task_root).task_id
        subs = [{"task": task_id, "source": p.read_text(), "language": "python" if p.suffix == ".py" else "cpp",
                 "id": p.name} for p in sols]
        r = httpx.post(f"http://127.0.0.1:{port}/v1/judge", json={"submissions": subs, "stderr": True}, timeout=1800)
        r.raise_for_status()
        return {x["id"]: {"verdict": x["verdict"], "stderr": [c.get("stderr_tail") or "" for c in x["cases"]]}
                for x in r.json()["results"]}
    finally:
        serve.shutdown()
        ray.shutdown()


def main() -> int:
    if os.geteuid() != 0:
        print("run as root", file=sys.stderr)
        return 2
    base = public_dir("ibench-hostile-serve-")
    repo = base / "checkout"
    root = build_guess_task(repo / "bench" / "tasks")
    for cmd in (["git", "init", "-q"], ["git", "add", "-A"],
                ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "tasks"]):
        subprocess.run(cmd, cwd=repo, check=True, capture_output=True)
    make_public(base)
    task = load_task(root)
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind("\0" + tb.ABSTRACT_NAME)
    srv.listen(8)
    try:
        judge = Judge(JudgeSettings())
        sols = list(tb.write_solutions(task, repo, str(judge.cache_dir), str(runtime_dir()), base / "sols").values())
        rows = {"in process": {r["solution"]: r for r in judge_all(task.root, sols)},
                "through the service": through_service(task.root, sols)}
    finally:
        srv.close()
        _remove_tree(base)
    print(f"{'root-mode probes (' + judge.sandbox.label + ')':44s} {'attacks tried':>14s} {'held':>6s}")
    for label, r in rows.items():
        tried, held, failed = tally(r)
        print(f"{label:44s} {tried:14d} {held:6d}")
        for f in failed:
            print(f"    NOT HELD: {f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
