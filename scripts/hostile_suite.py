#!/usr/bin/env python3
"""The hostile suite as figures (prints a table; not a test): every probe of tests/judge/test_box.py
judged in root mode (this process) and in user-namespace mode (as an unprivileged user), and for
each mode how many attacks were tried and how many held. An attack is one `held`/`LEAK` line of a
probe, a compile-time read that must be CE, or an honest sample right after a persistent-state
attack that must be OK.

    python scripts/hostile_suite.py        # as root
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "judge")]

import test_box as tb  # noqa: E402
import test_crossing as tc  # noqa: E402
import test_deadlock as td  # noqa: E402
import test_forgery as tf  # noqa: E402
from box_driver import judge_all  # noqa: E402
from judge_fixtures import build_guess_task, make_public, public_dir  # noqa: E402

from ibench.judge import Judge, JudgeSettings  # noqa: E402
from ibench.judge.sandbox.host import runtime_dir  # noqa: E402
from ibench.judge.sandbox.run import _remove_tree  # noqa: E402
from ibench.judge.sandbox.unprivileged import NOBODY, unprivileged_command  # noqa: E402
from ibench.tasks.load import load_task  # noqa: E402

MUST = {"incbin_case.cpp": "CE", "incbin_git.cpp": "CE", "fork_bomb.cpp": "TLE", "honest_after_poison.cpp": "OK",
        "honest_after_state.cpp": "OK", "honest_after_fork_bomb.cpp": "OK", "honest.py": "OK",
        # the forgery attacks of tests/judge/test_forgery.py (issue 21) and the honest runs after them
        "orphans.cpp": "TLE", "tmpfs.cpp": "MLE", "flood.cpp": "IDLE", "pid_probe.cpp": "OK",
        "honest1.cpp": "OK", "honest2.cpp": "OK", "honest3.cpp": "OK", "honest_rlimit.cpp": "OK",
        # nothing crosses, nothing stalls into SE (issue 28: tests/judge/test_crossing.py, test_deadlock.py)
        "vfork_stall.cpp": "IDLE", "no_flush.py": "IDLE", "native.py": "OK", "honest4.cpp": "OK"}


def forgery_rows(mode: str, work: Path) -> dict[str, dict]:
    """The forgery attacks, judged in ``mode`` (root, userns or, as nobody, rlimit)."""
    base = public_dir("ibench-hostile-forgery-")
    try:
        guess = build_guess_task(base / "plain")
        slow = build_guess_task(base / "slow")
        (slow / "interactor" / "non_adaptive.cpp").write_text(tf.SLOW_INTERACTOR)
        make_public(base)
        if mode == "rlimit-root":
            cache = work / "rlimit-cache"
            j = Judge(JudgeSettings(isolation="rlimit", cache_dir=str(cache)))
            src = (tf.RLIMIT_REACH.replace("@CACHE@", str(j.cache_dir / "bin")).replace("@TAG@", str(os.getpid()))
                   .replace("@CASEFILES@", f"/dev/shm/ibench-{os.geteuid()}"))
            return tf.run_mode("root", guess, {"reach_rlimit.cpp": src, "honest_rlimit.cpp": tf.solver("/* r */")},
                               {"isolation": "rlimit", "cache_dir": str(cache)}, work)
        if mode == "rlimit":
            src = (tf.RLIMIT_REACH.replace("@CACHE@", "@HOME@/cache").replace("@TAG@", str(os.getpid()))
                   .replace("@CASEFILES@", f"/dev/shm/ibench-{NOBODY}"))
            return tf.run_mode("rlimit", guess, {"reach_rlimit.cpp": src, "honest_rlimit.cpp": tf.solver("/* n */")},
                               {"isolation": "rlimit"}, work)
        rows = tf.run_mode(mode, guess, {"orphans.cpp": tf.ORPHANS, "honest1.cpp": tf.solver("/* 1 */"),
                                         "memfd.cpp": tf.MEMFD, "buffers.cpp": tf.BUFFERS, "tmpfs.cpp": tf.TMPFS,
                                         "honest2.cpp": tf.solver("/* 2 */"), "pid_probe.cpp": tf.PID_PROBE}, {}, work)
        rows.update(tf.run_mode(mode, slow, {"flood.cpp": tf.FLOOD, "honest3.cpp": tf.solver("/* 3 */")}, tf.QUICK, work))
        rows.update(crossing_rows(mode, guess, work))
        pids = {ln for t in rows["pid_probe.cpp"]["stderr"] for ln in t.splitlines() if ln.startswith("pid ")}
        rows["pid_probe.cpp"]["stderr"].append(f"{'held' if len(pids) == 1 else 'LEAK'} pid-counter {len(pids)} pids")
        return rows
    finally:
        _remove_tree(base)


def crossing_rows(mode: str, guess: Path, work: Path) -> dict[str, dict]:
    """Channels from one sample to a later one (page cache, IPC ids), memory no limit counts, a
    Python sample running native code, a stalled and a deadlocked program, an honest one after."""
    rows = tf.run_mode(mode, guess, {
        "publish_a.cpp": tc.program(tc.PUBLISH, "publish(0xA5C3);"), "consume_a.cpp": tc.program(tc.CONSUME, "consume();"),
        "ipc_publish_40.cpp": tc.program(tc.IPC_PUBLISH, "publish_ipc(40);"),
        "ipc_consume.cpp": tc.program(tc.IPC_CONSUME, "consume_ipc();"), "uncounted.cpp": tc.program(tc.UNCOUNTED, "hoard();"),
        "native.py": tc.PY_NATIVE, "vfork_stall.cpp": td.VFORK_STALL, "no_flush.py": td.MISSING_FLUSH_PY,
        "honest4.cpp": tf.solver("/* 4 */")}, tf.QUICK, work)
    for name in ("consume_a.cpp", "ipc_consume.cpp"):  # what the reader got back: nothing
        got = tc.decoded(rows[name])
        nothing = bool(got) and all(x.startswith("decoded -1") or x == "ipc-id -1 queue 0" for x in got)
        rows[name]["stderr"].append(f"{'held' if nothing else 'LEAK'} read-back {got[:1]}")
    return rows


def tally(rows: dict[str, dict]) -> tuple[int, int, list[str]]:
    tried = held = 0
    failed = []
    for name, row in rows.items():
        for line in "\n".join(row["stderr"]).splitlines():
            if line.startswith(("held ", "LEAK ")):
                tried += 1
                held += line.startswith("held ")
                if line.startswith("LEAK "):
                    failed.append(f"{name}: {line}")
        if name in MUST:
            tried += 1
            ok = row["verdict"] == MUST[name]
            held += ok
            if not ok:
                failed.append(f"{name}: {row['verdict']} (expected {MUST[name]})")
    return tried, held, failed


def main() -> int:
    if os.geteuid() != 0:
        print("run as root: root mode in this process, user-namespace mode as an unprivileged user", file=sys.stderr)
        return 2
    base = public_dir("ibench-hostile-")
    repo = base / "checkout"
    root = build_guess_task(repo / "bench" / "tasks")
    for cmd in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "-c", "user.name=t", "-c", "user.email=t@t",
                                                              "commit", "-qm", "tasks"]):
        subprocess.run(cmd, cwd=repo, check=True, capture_output=True)
    make_public(base)
    task = load_task(root)
    import socket

    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind("\0" + tb.ABSTRACT_NAME)
    srv.listen(8)
    results = {}
    try:
        judge = Judge(JudgeSettings())
        sols = tb.write_solutions(task, repo, str(judge.cache_dir), str(runtime_dir()), base / "sols-root")
        results[judge.sandbox.label] = {r["solution"]: r for r in judge_all(task.root, list(sols.values()))}
        home = Path(tempfile.mkdtemp(prefix="ibench-hostile-nobody-"))
        os.chmod(home, 0o755)
        os.chown(home, NOBODY, NOBODY)
        sols = tb.write_solutions(task, repo, f"{home}/cache", f"/tmp/ibench-rt-{NOBODY}", home / "sols",
                                  case_files=f"/dev/shm/ibench-{NOBODY}")
        cmd = unprivileged_command([sys.executable, str(ROOT / "tests" / "judge" / "box_driver.py"), str(task.root),
                                    *map(str, sols.values())], home, needs=[ROOT, task.root])
        if isinstance(cmd, str):
            print(f"user-namespace mode not run: {cmd}")
        else:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=1800).stdout
            rows = [json.loads(line[len("BOX-RESULT "):]) for line in out.splitlines() if line.startswith("BOX-RESULT ")]
            if rows:
                results[rows[0]["sandbox"]] = {r["solution"]: r for r in rows}
        _remove_tree(home)
        work = Path(tempfile.mkdtemp(prefix="ibench-hostile-work-"))
        for mode in ("root", "userns"):
            label = next((k for k in results if k.startswith(mode + "+")), mode)
            results.setdefault(label, {}).update(forgery_rows(mode, work))
        results["rlimit as root (slot uid)"] = forgery_rows("rlimit-root", work)
        results["rlimit as nobody (Landlock)"] = forgery_rows("rlimit", work)
        _remove_tree(work)
    finally:
        srv.close()
        _remove_tree(base)
    print(f"{'sandbox':34s} {'attacks tried':>14s} {'held':>6s}")
    for label, rows in results.items():
        tried, held, failed = tally(rows)
        print(f"{label:34s} {tried:14d} {held:6d}")
        for f in failed:
            print(f"    NOT HELD: {f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
