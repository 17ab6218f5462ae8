"""The interactor's own wall budget: a slow but correct judge program is never the reason for an
SE, and one that computes past its own budget is (issue 29: the interactor's time was tied to the
solver's limit, so a slow validator under load became SE)."""

from __future__ import annotations

import shutil
import time

from judge_fixtures import ACCEPT, guess_task_with, public_dir, solver

from ibench.judge import Judge, JudgeSettings, Verdict

# After the solver's correct final answer the interactor computes 2.5 s of CPU, then accepts:
# longer than the solver's whole hard wall cap under these settings (1.3 s).
SLOW_ACCEPT = ('if (v == x) { while (clock() < (clock_t)(2.5 * CLOCKS_PER_SEC)) {} '
               'quitf(_ok, "guessed %d in %d queries", x, q); }')
TIGHT = {"wall_factor": 1.0, "wall_extra_s": 0.3, "wall_hard_factor": 1.0}


def test_a_slow_interactor_has_its_own_wall_budget():
    base = public_dir("ibench-interactor-wall-")
    try:
        task = guess_task_with(base / "slow", ACCEPT, SLOW_ACCEPT)
        one = task.cases[:1]
        # default: twice its CPU budget (40 s here), far past the solver's 1.3 s cap
        started = time.monotonic()
        r = Judge(JudgeSettings(**TIGHT)).judge(task, solver(), "cpp", cases=one)
        assert r.verdict is Verdict.OK, (r.verdict, r.message)
        assert time.monotonic() - started > 2.5  # the interactor did compute past the solver's cap
        # a budget it overruns while computing: the judge's failure, named as such
        r = Judge(JudgeSettings(**TIGHT, interactor_wall_s=1.8)).judge(task, solver(), "cpp", cases=one)
        assert r.verdict is Verdict.SE, (r.verdict, r.message)
        assert "interactor" in r.message, r.message
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_the_budget_is_checked_and_recorded():
    assert JudgeSettings(interactor_wall_s=0).problems() == [
        "judge.interactor_wall_s: 0; expected a positive number of seconds or null (twice the interactor's CPU budget)"]
    from ibench.judge.interactive import interactor_wall_ms
    from ibench.tasks.model import Task  # noqa: F401  (the signature's type)

    class Card:  # only what the budget reads of a task
        interactor_cpu_ms = 30000

    assert interactor_wall_ms(JudgeSettings(), Card(), 3000) == 60000  # type: ignore[arg-type]
    assert interactor_wall_ms(JudgeSettings(interactor_wall_s=5), Card(), 3000) == 5000  # type: ignore[arg-type]
