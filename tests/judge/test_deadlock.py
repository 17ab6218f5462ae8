"""A deadlock is IDLE at once, and a stalled program is the program's failure, never SE.

The supervisor looks every 20 ms for a solver and an interactor each blocked reading the other's
pipe (stall.h); three looks that agree, with nothing read or written between them, end the
case as IDLE long before the wall cap. It must not fire on a solver that computes, sleeps, or
waits for an interactor that is thinking. A solver stalled in state D (a vfork() parent whose
child sleeps) used to look "runnable" and became SE after four hard caps; it is judged from its
CPU and scheduler run-delay instead."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from judge_fixtures import ACCEPT, build_guess_task, guess_task_with, make_public, public_dir, solver
from test_forgery import run_mode
from test_python_executor import SEARCH

from ibench.judge import Verdict

GUESS = Path(__file__).resolve().parents[2] / "tasks" / "guess-the-number"

# The honest search with its queries left in Python's buffer (a pipe is block-buffered)
MISSING_FLUSH_PY = SEARCH.replace('print("?", m, flush=True)', 'print("?", m)')

# Sleeps 1.5 s (no CPU) before each of its first two queries, then answers correctly: blocked,
# but on a clock, not on the interactor.
SLEEPS_THEN_ANSWERS = solver().replace('cout << "? " << m << endl;',
                                       'if (lo == 1 && hi == 1000) usleep(1500000);\n        cout << "? " << m << endl;')

# A vfork() parent waits in state D for a child that sleeps far past every limit: no CPU, no
# progress. Its own stall (IDLE), not a starved solver (SE).
VFORK_STALL = "#include <unistd.h>\n" + solver().replace(
    "int main() {", "int main() {\n    if (vfork() == 0) { sleep(1000); _exit(0); }\n")


def test_missing_flush_is_idle_at_once_in_every_language(tmp_path):
    task = build_guess_task(public_dir("ibench-deadlock-"))
    try:
        from ibench.judge import Judge, JudgeSettings
        from ibench.tasks.load import load_task

        judge, t = Judge(JudgeSettings()), load_task(task)
        sources = {"cpp": (GUESS / "solutions" / "idle_no_flush.cpp").read_text(),
                   "go": (GUESS / "solutions" / "idle_no_flush.go").read_text(),
                   "java": (GUESS / "solutions" / "idle_no_flush.java").read_text(),
                   "python": MISSING_FLUSH_PY}
        for lang, src in sources.items():
            if lang != "python":  # the task's own programs play a T-game protocol: use its task
                r = judge.judge(_guess_task(), src, lang, cases=_guess_task().cases[:2])  # case 001 needs no query
            else:
                r = judge.judge(t, src, lang, cases=t.cases[:1])
            last = r.cases[-1]
            assert r.verdict is Verdict.IDLE, (lang, r.verdict, r.message)
            assert "each waited to read the other" in last.message, (lang, last.message)  # not the wall cap
    finally:
        shutil.rmtree(task.parent, ignore_errors=True)


def _guess_task():
    from ibench.tasks.load import load_task

    return load_task(GUESS)


def test_sleeping_solver_and_thinking_interactor_are_not_deadlocks(tmp_path):
    from ibench.judge import Judge, JudgeSettings

    judge = Judge(JudgeSettings())
    base = public_dir("ibench-deadlock-")
    try:
        from ibench.tasks.load import load_task

        plain = load_task(build_guess_task(base / "plain"))
        r = judge.judge(plain, SLEEPS_THEN_ANSWERS, "cpp", cases=plain.cases[:1])
        assert r.verdict is Verdict.OK, (r.verdict, r.message)
        # the interactor thinks 2 s (sleeping, then computing) before it accepts
        thinking = guess_task_with(base / "thinking", ACCEPT,
                                   'if (v == x) { usleep(1000000); for (volatile long i = 0; i < 300000000L; i++) {} '
                                   'quitf(_ok, "guessed %d in %d queries", x, q); }')
        r = judge.judge(thinking, solver(), "cpp", cases=thinking.cases[:1])
        assert r.verdict is Verdict.OK, (r.verdict, r.message)
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.parametrize("mode", ["root", "userns"])
def test_a_stalled_program_is_its_own_failure_and_a_deadlock_is_seen_in_both_modes(mode, tmp_path):
    base = public_dir("ibench-stall-")
    task = build_guess_task(base)
    make_public(base)
    try:
        rows = run_mode(mode, task, {"vfork_stall.cpp": VFORK_STALL, "no_flush.py": MISSING_FLUSH_PY,
                                     "honest.cpp": solver()},
                        {"wall_factor": 1.0, "wall_extra_s": 0.5, "wall_hard_factor": 1.2}, tmp_path)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    stall = rows["vfork_stall.cpp"]
    assert stall["verdict"] in ("IDLE", "TLE"), stall
    assert rows["honest.cpp"]["verdict"] == "OK", rows["honest.cpp"]
    # the deadlock look works in both modes (it reads the box's /proc/PID/syscall)
    no_flush = rows["no_flush.py"]
    assert no_flush["verdict"] == "IDLE" and "each waited to read the other" in no_flush["cases"][-1]["message"], no_flush


# The solver closes its output before answering, then crashes or spins: the interactor rejects on
# end of input, and the solver's own end decides (as the ICPC tools wait for it), not a WA taken
# the moment the interactor gave up (it used to be killed then, so its crash never happened).
CLOSES_THEN = "#include <bits/stdc++.h>\n#include <unistd.h>\nint main() { close(1); usleep(200000); BODY }\n"


@pytest.mark.parametrize("body, verdict", [("abort();", "RE"), ("for (volatile long i = 0;; i++) {}", "TLE"),
                                           ("return 0;", "PE")])  # ended cleanly: the interactor's word
def test_after_its_output_ends_the_solvers_own_end_decides(body, verdict):
    from ibench.judge import Judge, JudgeSettings
    from ibench.tasks.load import load_task

    base = public_dir("ibench-eof-")
    try:
        task = load_task(build_guess_task(base))
        r = Judge(JudgeSettings()).judge(task, CLOSES_THEN.replace("BODY", body), "cpp", cases=task.cases[:1])
        assert r.verdict.value == verdict, (r.verdict, r.message)
    finally:
        shutil.rmtree(base, ignore_errors=True)


# The first query comes from a worker thread after a timed wait (condition_variable::wait_for,
# a futex with a timeout) while the main thread already blocks reading the reply: for 400 ms
# both sides read, yet the worker's clock will end it. Not a deadlock (it was IDLE within 60 ms
# while every futex wait counted as blocked).
WORKER_WRITES_LATER = solver().replace("    int lo = 1, hi = 1000;\n", """    mutex mu;
    condition_variable cv;
    thread worker([&] {
        unique_lock<mutex> l(mu);
        cv.wait_for(l, chrono::milliseconds(400));
        cout << "? 500" << endl;
    });
    string r0;
    cin >> r0;
    worker.join();
    int lo = 1, hi = 1000;
    if (r0 == "=") lo = hi = 500; else if (r0 == "<") lo = 501; else hi = 499;
""")


def test_a_worker_in_a_timed_wait_is_not_a_deadlock():
    from ibench.judge import Judge, JudgeSettings
    from ibench.tasks.load import load_task

    base = public_dir("ibench-timed-wait-")
    try:
        task = load_task(build_guess_task(base))
        r = Judge(JudgeSettings()).judge(task, WORKER_WRITES_LATER, "cpp", cases=task.cases[:2])
        assert r.verdict is Verdict.OK, (r.verdict, r.message)
    finally:
        shutil.rmtree(base, ignore_errors=True)
