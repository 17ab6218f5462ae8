"""validate's early-exit label, read from an all-cases run instead of judging again."""

from __future__ import annotations

from pathlib import Path


def test_the_early_exit_label_is_read_from_an_all_cases_run():
    """validate reads a probe's default (early-exit) label from its all-cases run: the same walk
    over the same per-case verdicts must give what a default run judges (find-the-runner-up's
    probe is WA on its small early cases and crashes on the large later ones)."""
    import dataclasses

    from ibench.judge import Judge, JudgeSettings
    from ibench.tasks.load import load_task

    task = load_task(Path(__file__).resolve().parents[2] / "tasks" / "find-the-runner-up")
    source = (task.root / "solutions" / "re_wa_small_crash_large.cpp").read_text()
    settings = JudgeSettings()
    full = Judge.shared(dataclasses.replace(settings, all_cases=True)).judge(task, source)
    early = Judge.shared(settings).judge(task, source)
    view = Judge.shared(settings).early_exit_view(task, full)
    assert (full.verdict.value, early.verdict.value) == ("RE", "WA")
    assert view.verdict is early.verdict
    assert [c.case for c in view.cases] == [c.case for c in early.cases]
    assert view.message == early.message
