#!/usr/bin/env python3
"""The hostile suite (scripts/hostile_suite.py: the box probes of tests/judge/test_box.py, the
forgery, crossing, stall and deadlock attacks) sent through the judge service instead of judged
in process, in each mode the suite runs: root, user namespace (the whole service, Ray included,
as an unprivileged user), rlimit as root (slot uid) and rlimit as nobody (Landlock). Prints how
many attacks were tried and how many held (not a test; run as root).

    python tests/serve/hostile_via_service.py [--modes root,userns,rlimit-root,rlimit]

Each group of probes is one request to a freshly started service (a local Ray, one replica, one
chunk), so the probes are judged in the suite's order on one judge, as in process (an honest
sample right after a persistent-state attack must land on the judge attacked). The suite's own
rows and tallies are reused: only the judging goes through HTTP."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "judge"), str(ROOT / "scripts")]

RESULT = "SERVICE-RESULT "
LANGUAGE = {".py": "python", ".java": "java", ".go": "go"}


def service_rows(task_dir: str, solutions: list[str], settings: dict) -> list[dict]:
    """``solutions`` judged in order through a local judge service under judge ``settings``:
    rows shaped as the suite's drivers print them (verdict, message, each case's stderr tail)."""
    import httpx
    import ray
    from ray import serve

    from ibench.judge import JudgeSettings
    from ibench.serve.__main__ import local_ray_env
    from ibench.serve.app import build_app
    from ibench.serve.settings import LimitSettings, ServeSettings

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cfg = ServeSettings(port=port, tasks_dir=task_dir, replicas="1", chunk=256, rejudge_se=0,
                        judge=JudgeSettings(**settings), limits=LimitSettings(max_source_bytes=1 << 20))
    local_ray_env(cfg)
    temp = os.path.join(os.environ["HOME"], "ray") if os.geteuid() != 0 else None  # nobody cannot use /tmp/ray
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _temp_dir=temp)
    try:
        serve.start(http_options={"host": "127.0.0.1", "port": port})
        serve.run(build_app(cfg), name="ibench-hostile", route_prefix="/")
        task_id = _task_id(task_dir)
        subs = [{"task": task_id, "source": Path(p).read_text(), "language": LANGUAGE.get(Path(p).suffix, "cpp"),
                 "id": Path(p).name} for p in solutions]
        r = httpx.post(f"http://127.0.0.1:{port}/v1/judge", json={"submissions": subs, "stderr": True}, timeout=3600)
        r.raise_for_status()
        return [{"solution": x["id"], "verdict": x["verdict"], "message": x["message"], "sandbox": "service",
                 "stderr": [c.get("stderr_tail") or "" for c in x["cases"]],
                 "cases": [{k: c[k] for k in ("verdict", "cpu_ms", "peak_kb", "message")} for c in x["cases"]]}
                for x in r.json()["results"]]
    finally:
        serve.shutdown()
        ray.shutdown()


def _task_id(task_dir: str) -> str:
    from ibench.tasks.load import load_task

    return load_task(Path(task_dir)).task_id


def run_mode(mode: str, task: Path, solutions: dict[str, str], settings: dict, tmp: Path) -> dict[str, dict]:
    """tests/judge/test_forgery.py's run_mode with the service as the judge: in this process
    (root) or, for the other modes, this script as an unprivileged user (Ray and all)."""
    from ibench.judge.sandbox.unprivileged import NOBODY, unprivileged_command

    out = Path(tempfile.mkdtemp(prefix="ibench-serve-sols-", dir=tmp))
    paths = []
    for name, src in solutions.items():
        (out / name).write_text(src)
        paths.append(str(out / name))
    if mode == "root":
        rows = service_rows(str(task), paths, settings)
    else:
        home = Path(tempfile.mkdtemp(prefix="ibench-nobody-"))
        os.chmod(home, 0o755)
        os.chown(home, NOBODY, NOBODY)
        for p in map(Path, paths):  # the unprivileged judge's cache is $HOME/cache
            (home / p.name).write_text(p.read_text().replace("@HOME@", str(home)))
        spec = {"task": str(task), "settings": settings, "solutions": [str(home / Path(p).name) for p in paths]}
        for p in home.iterdir():
            os.chmod(p, 0o644)
        rows = _as_nobody(spec, home, [ROOT, task], unprivileged_command)
    return {row["solution"]: row for row in rows}


def _as_nobody(spec: dict, home: Path, needs: list[Path], unprivileged_command) -> list[dict]:
    cmd = unprivileged_command([sys.executable, str(Path(__file__).resolve()), "--driver", json.dumps(spec)], home,
                               needs=needs)
    if isinstance(cmd, str):
        shutil.rmtree(home, ignore_errors=True)
        raise RuntimeError(f"cannot run as an unprivileged user here: {cmd}")
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    shutil.rmtree(home, ignore_errors=True)
    rows = [json.loads(line[len(RESULT):]) for line in r.stdout.splitlines() if line.startswith(RESULT)]
    if len(rows) != len(spec["solutions"]):
        raise RuntimeError(f"the unprivileged service failed (exit {r.returncode}):\n{r.stderr[-3000:]}")
    return rows


def main() -> int:
    if "--driver" in sys.argv:  # as the unprivileged user: start the service, judge, print the rows
        spec = json.loads(sys.argv[sys.argv.index("--driver") + 1])
        for row in service_rows(spec["task"], spec["solutions"], spec.get("settings", {})):
            print(RESULT + json.dumps(row), flush=True)
        return 0
    if os.geteuid() != 0:
        print("run as root: root mode in this process, the other modes as an unprivileged user", file=sys.stderr)
        return 2
    modes = sys.argv[sys.argv.index("--modes") + 1].split(",") if "--modes" in sys.argv else \
        ["root", "userns", "rlimit-root", "rlimit"]

    import hostile_suite as hs
    import test_box as tb
    import test_forgery as tf
    from judge_fixtures import build_guess_task, make_public, public_dir

    from ibench.judge import Judge, JudgeSettings
    from ibench.judge.sandbox.host import runtime_dir
    from ibench.judge.sandbox.run import _remove_tree
    from ibench.judge.sandbox.unprivileged import NOBODY, unprivileged_command
    from ibench.tasks.load import load_task

    tf.run_mode = run_mode  # the suite's forgery, crossing, stall and deadlock groups, judged by the service
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
    results: dict[str, dict] = {}
    work = Path(tempfile.mkdtemp(prefix="ibench-hostile-serve-work-"))
    labels = {"root": "root (" + Judge(JudgeSettings()).sandbox.label + ")", "userns": "user namespace (as nobody)",
              "rlimit-root": "rlimit as root (slot uid)", "rlimit": "rlimit as nobody (Landlock)"}
    try:
        for mode in modes:
            print(f"{mode}: judging through the service ...", flush=True)
            rows: dict[str, dict] = {}
            if mode == "root":  # the box probes, then the suite's groups
                judge = Judge(JudgeSettings())
                sols = tb.write_solutions(task, repo, str(judge.cache_dir), str(runtime_dir()), base / "sols-root")
                rows = {r["solution"]: r for r in service_rows(str(task.root), list(map(str, sols.values())), {})}
            elif mode == "userns":
                home = Path(tempfile.mkdtemp(prefix="ibench-hostile-nobody-"))
                os.chmod(home, 0o755)
                os.chown(home, NOBODY, NOBODY)
                sols = tb.write_solutions(task, repo, f"{home}/cache", f"/tmp/ibench-rt-{NOBODY}", home / "sols",
                                          case_files=f"/dev/shm/ibench-{NOBODY}")
                spec = {"task": str(task.root), "settings": {}, "solutions": list(map(str, sols.values()))}
                rows = {r["solution"]: r for r in _as_nobody(spec, home, [ROOT, task.root], unprivileged_command)}
            rows.update(hs.forgery_rows(mode, work))
            results[labels[mode]] = rows
            tried, held, _ = hs.tally(rows)
            print(f"{mode}: {tried} tried, {held} held", flush=True)
    finally:
        srv.close()
        _remove_tree(work)
        _remove_tree(base)
    print(f"\n{'through the service':40s} {'attacks tried':>14s} {'held':>6s}")
    for label, rows in results.items():
        tried, held, failed = hs.tally(rows)
        print(f"{label:40s} {tried:14d} {held:6d}")
        for f in failed:
            print(f"    NOT HELD: {f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
