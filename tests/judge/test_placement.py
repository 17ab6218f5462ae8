"""Where a sample's solver and interactor run: a task whose cases trade many lines runs on one CPU
(a cross-CPU wake-up per line costs more than one CPU's serial start-up), a short exchange
starts the two side by side. Placement moves wall time only; the verdicts must not change."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ibench.judge.interactive import CHATTY_QUERIES

TASKS = Path(__file__).resolve().parents[2] / "tasks"

pytestmark = pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="placement needs two CPUs to choose from")


def _judge(task_id: str, solution: str):
    from ibench.judge import Judge, JudgeSettings
    from ibench.tasks.load import load_task

    task = load_task(TASKS / task_id)
    judge = Judge(JudgeSettings(all_cases=True))
    return judge, judge.judge(task, (task.root / "solutions" / solution).read_text())


def test_a_chatty_task_moves_to_one_cpu_and_keeps_its_verdicts():
    judge, result = _judge("guess-the-number", "ok_binary_search.cpp")  # ~1,000 queries a case
    assert result.verdict.value == "OK" and all(c.verdict.value == "OK" for c in result.cases)
    assert max(c.queries or 0 for c in result.cases) >= CHATTY_QUERIES
    assert judge.sandbox.one_cpu
    assert judge.sandbox.case_cpu() in os.sched_getaffinity(0)
    # a new sample starts unplaced; the grader places its first case from what the task has shown
    judge.sandbox.new_sample()
    assert not judge.sandbox.one_cpu


def test_a_short_exchange_is_not_moved():
    judge, result = _judge("tree-hide-and-seek", "ok_centroid_bfs.cpp")  # at most 16 queries a case
    assert result.verdict.value == "OK"
    assert max(c.queries or 0 for c in result.cases) < CHATTY_QUERIES
    assert not judge.sandbox.one_cpu
