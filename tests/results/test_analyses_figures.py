"""Every figure of the analyses (issue 31), drawn from the synthetic sweeps, is clean: no text
overlaps another, none leaves the canvas (:func:`ibench.results.figstyle.layout_problems`), and
each is written as PNG and PDF."""

from __future__ import annotations

from pathlib import Path

import matplotlib.figure
from analyses_synth import budget_sweep, seed_sweep

from ibench.results import figstyle
from ibench.results.analyses.cli import main

FIGURES = ("timelimit", "efficiency", "scaling", "subtask_position", "seeds", "similarity_hist", "similarity_scatter")


def test_every_analysis_figure_is_clean(tmp_path, monkeypatch):
    seen: dict[str, list[str]] = {}
    original = matplotlib.figure.Figure.savefig

    def savefig(self, fname, *args, **kwargs):
        stem = Path(fname).stem
        if stem not in seen:
            seen[stem] = figstyle.layout_problems(self)
        return original(self, fname, *args, **kwargs)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", savefig)
    budget_sweep(tmp_path / "runs" / "budget", budgets=(1024, 16384), n=2)
    seed_sweep(tmp_path / "runs" / "seeds", n=1)
    out = tmp_path / "out"
    assert main(["all", str(tmp_path / "runs"), "--out", str(out), "--bootstrap", "100"]) == 0
    assert set(FIGURES) <= set(seen)
    assert {name: problems for name, problems in seen.items() if problems} == {}
    for name in FIGURES:
        assert (out / f"{name}.png").stat().st_size > 0 and (out / f"{name}.pdf").stat().st_size > 0
