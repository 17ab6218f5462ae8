"""The console tables at 80 columns: a table wider than the console is folded (one row per
group), never shrunk until its numbers read ``0…``; at 170 columns the paper's wide shape stays."""

from __future__ import annotations

import io
import re
from pathlib import Path

from rich.console import Console

from ibench.results.metrics import fmt, summarize
from ibench.results.report import render, render_refine
from ibench.tasks.model import CATEGORIES, DIFFICULTIES, Task, TaskKind

LABELS = ["OK", "WA", "TLE", "RE", "MLE", "CE", "PE", "QLE", "IDLE", "OK", "WA"]


def _summary():
    """Every difficulty and every category present, every failure label, 11 samples a task."""
    tasks, verdicts = [], {}
    for i, cat in enumerate(CATEGORIES):
        pid = f"task-{i}"
        tasks.append(Task(root=Path("/nonexistent") / pid, task_id=pid, kind=TaskKind.INTERACTIVE,
                          cpu_time_limit_ms=1000, memory_limit_mb=256, difficulty=DIFFICULTIES[i % 3],
                          categories=(cat, CATEGORIES[(i + 1) % len(CATEGORIES)]), cases=()))
        verdicts[pid] = LABELS[i:] + LABELS[:i] + ["OK"] * i  # pass@k differs from task to task
    return summarize("deepseek-r1-distill-llama-70b", tasks, verdicts, ks=[1, 5], bootstrap=50)


def _render(width: int) -> str:
    buf = io.StringIO()
    render(_summary(), Console(file=buf, width=width, color_system=None, legacy_windows=False))
    return buf.getvalue()


def _numbers(s) -> set[str]:
    out = {fmt(v) for g in [s.overall, *s.by_difficulty, *s.by_category] for v in g.pass_at.values()}
    out |= {fmt(v) for v in s.failure_composition.values()}
    return {x for x in out if x not in ("—", "")}


def test_tables_at_80_columns_cut_no_number_and_fit():
    text = _render(80)
    assert "…" not in text, text
    assert max(len(line) for line in text.splitlines()) <= 80, text
    tokens = set(re.findall(r"\d+\.\d+", text))
    missing = _numbers(_summary()) - tokens
    assert not missing, f"numbers not printed whole: {missing}\n{text}"
    for cat in CATEGORIES:  # every category has its row, its name unbroken
        assert re.search(rf"│ {re.escape(cat)}\s", text), (cat, text)
    assert "deepseek-r1-distill-llama-70b" in text  # the model's name is not wrapped mid-word
    assert re.search(r"^  pass@5 = \d\.\d+ \[\d\.\d+, \d\.\d+\]$", text, re.M), text  # a CI a line


def test_tables_keep_the_wide_shape_when_they_fit():
    text = _render(200)
    assert "…" not in text
    header = next(line for line in text.splitlines() if "Graph" in line)
    assert "Search" in header and "Game" in header, "one column per category, as in the paper"


def test_refine_table_folds_at_80_columns():
    labels = ["IDLE", "PE", "QLE", "CE", "RE", "TLE", "MLE", "WA", "SE"]
    rows = [{"round": r, "refine@k": 0.1 * r, "n_unsolved": 10 - r, **{lab: 0.111 * (r + 1) for lab in labels}}
            for r in range(1, 6)]  # refine_rounds' rows: one per round
    buf = io.StringIO()
    render_refine(rows, Console(file=buf, width=80, color_system=None), "refinement — a-long-model-name")
    text = buf.getvalue()
    assert "…" not in text and max(len(line) for line in text.splitlines()) <= 80, text
    assert {fmt(0.111 * (r + 1)) for r in range(1, 6)} <= set(re.findall(r"\d+\.\d+", text)), text
