"""Every bundled task validates: generators reproduce the shipped cases, accepted solutions pass,
probes get exactly their expected labels. CI runs a deterministic sample of cases per task (a
probe that shows its label on the sample is settled; one that does not gets the full run); the
full run is `python -m ibench.tasks validate tasks --jobs 2`."""

from __future__ import annotations

from pathlib import Path

import pytest

from ibench.judge import JudgeSettings
from ibench.tasks import validate
from ibench.tasks.load import load_tasks

REPO = Path(__file__).resolve().parents[2]
SAMPLE_CASES = 2


@pytest.mark.timeout(1200)
def test_bundled_tasks_validate_on_a_sample():
    tasks = load_tasks(REPO / "tasks")
    assert len(tasks) >= 24
    results = validate.validate_tasks(tasks, JudgeSettings(), cases=SAMPLE_CASES, jobs=2)
    bad = {r.task: [(row.item, row.expected, row.got, row.detail) for row in r.rows if row.ok is False]
           for r in results if not r.ok}
    assert not bad, bad


def test_broken_interactor_fixture_is_a_judge_error():
    from ibench.judge import Judge, Verdict
    from ibench.tasks.load import load_task

    task = load_task(REPO / "tests" / "fixtures" / "tasks" / "broken-interactor")
    result = Judge(JudgeSettings(all_cases=True)).judge(task, (task.root / "solutions" / "ok_sum.cpp").read_text())
    assert result.verdict is Verdict.SE
    assert [c.verdict for c in result.cases].count(Verdict.SE) == 2
    assert any("FAIL" in c.message for c in result.cases) and any("crashed" in c.message for c in result.cases)
