"""One host, many judges: judges with different runtime dirs (two installs, a test run beside an
evaluation) never share a slot's uid or cgroups, and each gets its own verdicts.

Before slots were claimed host-wide, IBENCH_RUNTIME_DIR separated the locks but not the
cgroups (.../ibench/slotN) or the solver uid (61000+N): two root judges both took slot 0, and
one's TLE program came out IDLE or PE while the other's accepted program was killed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from judge_fixtures import build_guess_task, make_public, public_dir, solver

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="slot uids and cgroups are the host's only as root")

HOLD = """
import sys, time
from ibench.judge.sandbox.host import acquire_slot, detect_isolation
slot = acquire_slot(detect_isolation("auto"))
print(slot.index, slot.uid, slot.cg_pids or slot.cg_v2 or "-", flush=True)
sys.stdin.read()  # hold the slot until the test closes our stdin
"""

SPIN = "int main() { volatile unsigned long x = 0; for (;;) x++; }\n"


def test_judges_with_different_runtime_dirs_get_different_slots():
    dirs = [Path(tempfile.mkdtemp(prefix="ibench-rt-")) for _ in range(2)]
    procs = []
    try:
        for d in dirs:
            env = {**os.environ, "IBENCH_RUNTIME_DIR": str(d), "PYTHONPATH": str(ROOT)}
            procs.append(subprocess.Popen([sys.executable, "-c", HOLD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          text=True, env=env))
        seen = [p.stdout.readline().split() for p in procs]  # type: ignore[union-attr]
        assert all(len(s) == 3 for s in seen), seen
        assert seen[0][0] != seen[1][0] and seen[0][1] != seen[1][1], seen  # index, uid (and so cgroups)
    finally:
        for p in procs:
            p.communicate(timeout=30)
        for d in dirs:
            shutil.rmtree(d, ignore_errors=True)


def test_a_new_holder_clears_the_last_holders_cpu(tmp_path):
    """A lock file keeps what its last holder pinned to; a new holder that has not chosen yet (or
    never pins: validate's unpinned lane) must not be counted on that CPU, or pick_cpu sends
    the working judges to the other one (both of a 2-CPU node's on CPU 0, each at half speed)."""
    (tmp_path / "locks").mkdir()
    for i in range(16):  # whichever index the host lets this runtime dir take
        (tmp_path / "locks" / f"slot{i}.lock").write_bytes(b"cpu=1\n".ljust(16))
    env = {**os.environ, "IBENCH_RUNTIME_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, "-c", HOLD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    try:
        index = p.stdout.readline().split()[0]  # type: ignore[union-attr]
        record = (tmp_path / "locks" / f"slot{index}.lock").read_bytes()
        assert record.startswith(b"cpu=-1"), record
    finally:
        p.communicate(timeout=30)


def test_two_judges_side_by_side_keep_every_verdict(tmp_path):
    base = public_dir("ibench-many-")
    task = build_guess_task(base)
    make_public(base)
    sols = {"spin.cpp": SPIN, "ok1.cpp": solver("/* 1 */"), "ok2.cpp": solver("/* 2 */")}
    for name, src in sols.items():
        (tmp_path / name).write_text(src)
    spec = {"task": str(task), "settings": {"non_adaptive_cases": 2, "wall_factor": 1.0, "wall_extra_s": 0.5},
            "solutions": [str(tmp_path / n) for n in sols]}
    dirs = [Path(tempfile.mkdtemp(prefix="ibench-rt-")) for _ in range(2)]
    try:
        procs = [subprocess.Popen([sys.executable, str(HERE / "forgery_driver.py"), json.dumps(spec)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env={**os.environ, "IBENCH_RUNTIME_DIR": str(d), "PYTHONPATH": str(ROOT)})
                 for d in dirs]
        outs = [p.communicate(timeout=600) for p in procs]
    finally:
        for d in dirs:
            shutil.rmtree(d, ignore_errors=True)
        shutil.rmtree(base, ignore_errors=True)
    for out, err in outs:
        rows = {r["solution"]: r for r in (json.loads(line.split(" ", 1)[1]) for line in out.splitlines()
                                           if line.startswith("FORGERY-RESULT "))}
        assert set(rows) == set(sols), err[-2000:]
        got = {name: row["verdict"] for name, row in rows.items()}
        assert got == {"spin.cpp": "TLE", "ok1.cpp": "OK", "ok2.cpp": "OK"}, (got, rows)


def test_a_full_node_spreads_pinned_judges_over_its_cpus(tmp_path, monkeypatch):
    """Three judges on two CPUs, the one holding slot 1 not pinned (validate's lane of stalling
    probes): slots 0 and 2 pin to different CPUs. By index they both took CPU 0, and the two busy
    judges shared one core while the other idled."""
    import fcntl
    from types import SimpleNamespace

    from ibench.judge.sandbox.host import pick_cpu, record_cpu

    monkeypatch.setenv("IBENCH_RUNTIME_DIR", str(tmp_path))
    (tmp_path / "locks").mkdir()
    slots = []
    for i in range(3):
        fd = os.open(tmp_path / "locks" / f"slot{i}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held, as a judge holds its slot
        slots.append(SimpleNamespace(index=i, _lock_fd=fd))
    try:
        record_cpu(slots[1], -1)  # held, not pinned
        first = pick_cpu(slots[0], [0, 1])
        third = pick_cpu(slots[2], [0, 1])
        assert {first, third} == {0, 1}, (first, third)
        # a slot whose judge has ended no longer counts: its choice is stale
        os.close(slots[0]._lock_fd)
        slots[0]._lock_fd = -1
        assert pick_cpu(slots[2], [0, 1]) == 0  # ties go to index modulo the CPUs
    finally:
        for s in slots:
            if s._lock_fd >= 0:
                os.close(s._lock_fd)
