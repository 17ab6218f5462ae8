"""Every figure kind of ibench, rendered from the fixture runs (tests/fixtures/runs), is clean:
no text overlaps another and none leaves the canvas (matplotlib's renderer extents, through
:func:`ibench.results.figstyle.layout_problems`), each is written as PNG (200 dpi) and PDF, and
no panel is drawn without data."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import matplotlib.figure
import pytest
from PIL import Image

from ibench.results import behaviors, figstyle, report, runs, study, study_plots, sweep
from ibench.results.runlog import RunLog

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "runs"


@pytest.fixture
def checked(monkeypatch):
    """Every figure saved during the test, by file stem: its layout problems and its panels."""
    seen: dict[str, dict] = {}
    original = matplotlib.figure.Figure.savefig

    def savefig(self, fname, *args, **kwargs):
        stem = Path(fname).stem
        if stem not in seen:
            seen[stem] = {"problems": figstyle.layout_problems(self),
                          "titles": [ax.get_title() for ax in self.axes if ax.get_title()],
                          "axes": len([ax for ax in self.axes if ax.get_visible()])}
        return original(self, fname, *args, **kwargs)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", savefig)
    return seen


def _assert_clean(seen: dict[str, dict], *names: str) -> None:
    for name in names:
        assert name in seen, f"{name} was not drawn (drawn: {sorted(seen)})"
        assert seen[name]["problems"] == [], f"{name}: {seen[name]['problems']}"


def _assert_written(out: Path, name: str) -> None:
    png, pdf = out / f"{name}.png", out / f"{name}.pdf"
    assert png.is_file() and pdf.is_file(), f"{name}: {sorted(p.name for p in out.iterdir())}"
    assert pdf.read_bytes()[:4] == b"%PDF"
    with Image.open(png) as im:
        dpi = im.info.get("dpi", (0, 0))
        assert round(dpi[0]) == figstyle.DPI
        w, h = im.size
        assert w / h < 4.0, f"{name} is a {w}x{h} strip"


def test_layout_problems_finds_overlap_and_clipping():
    """The check itself can fail: three long titles in a narrow figure overlap and leave it."""
    plt = figstyle.pyplot()
    fig, axes = plt.subplots(1, 3, figsize=(6, 2))
    for ax in axes:
        ax.set_title("a long title that cannot fit its narrow panel at all")
    problems = figstyle.layout_problems(fig)
    plt.close(fig)
    assert any(p.startswith("overlap:") for p in problems)
    assert any(p.startswith("clipped:") for p in problems)


def test_save_figure_writes_png_and_pdf_and_closes(tmp_path):
    plt = figstyle.pyplot()
    fig, (ax,) = figstyle.panels(1)
    ax.plot([0, 1], [0, 1])
    paths = figstyle.save_figure(fig, tmp_path / "f", "line")
    assert [p.name for p in paths] == ["line.png", "line.pdf"]
    assert not plt.fignum_exists(fig.number)
    _assert_written(tmp_path / "f", "line")


def test_run_report_figures(tmp_path, checked):
    s = RunLog.open(FIXTURES / "default").run_summary
    assert s.overall.pass_at.get(5) is None  # n < 5: no pass@5 bar, no pass@5 column
    files = report.write_plots(s, tmp_path)
    _assert_clean(checked, "pass_at_k_by_difficulty", "failure_composition")
    _assert_written(tmp_path, "pass_at_k_by_difficulty")
    assert report.shown_ks(s) == [1]
    assert files["failure_composition"].exists()


def test_run_report_table_drops_empty_columns():
    from rich.console import Console

    s = RunLog.open(FIXTURES / "default").run_summary
    console = Console(width=200, record=True)
    report.render(s, console)
    table = "\n".join(line for line in console.export_text().splitlines() if line[:1] in "┃│┏┡└")
    assert "pass@1" in table and "pass@5" not in table
    assert "Easy" in table and "Hard" not in table and "Medium" not in table


def test_study_figures(tmp_path, checked):
    files = study.study([FIXTURES], out=tmp_path, console=_quiet())
    assert {"language_prompt_png", "refine_rounds_png", "batch_vs_interactive_png"} <= set(files)
    _assert_clean(checked, "language_prompt", "refine_rounds", "batch_vs_interactive")
    for name in ("language_prompt", "refine_rounds", "batch_vs_interactive"):
        _assert_written(tmp_path, name)


def test_language_prompt_with_six_models_wraps_into_rows(tmp_path, checked):
    """The issue's 3900×520 strip with six overlapping titles: six models now fill rows of at
    most three panels, each title wrapped to its panel."""
    rows = [{"model": f"Qwen/Qwen3-{m}B-Instruct-2507-FP8 [sampling.reasoning_budget={m * 1024}]",
             "prompt": p, "n_tasks": 5, "cpp": 0.4, "python": 0.2, "java": 0.1}
            for m in range(1, 7) for p in ("zero_shot", "few_shot")]
    study_plots.plot_language_prompt(["cpp", "python", "java"], rows, tmp_path / "language_prompt.png")
    _assert_clean(checked, "language_prompt")
    _assert_written(tmp_path, "language_prompt")
    assert checked["language_prompt"]["axes"] == 6


def test_time_split_and_behaviors_figures(tmp_path, checked):
    ts = [{"run": f"model-{i} [prompt=few_shot]", "cut_year": y, "pass@1_post": 0.3, "pass@1_pre": 0.5}
          for i in range(3) for y in (2021, 2022, 2023, 2024)]
    study_plots.plot_time_split(ts, tmp_path / "time_split.png")
    groups = ["verification", "backtracking", "subgoal", "enumeration"]
    rows = [{"model": "reference", "difficulty": "all", "outcome": o, "samples": 3,
             **{g: 0.25 for g in groups}} for o in ("solved", "unsolved")]
    behaviors.plot(rows, groups, tmp_path / "behaviors.png")
    _assert_clean(checked, "time_split", "behaviors")
    _assert_written(tmp_path, "behaviors")


def test_compare_figure(tmp_path, checked):
    runs.compare([FIXTURES / "default", FIXTURES / "few_shot_refine2", FIXTURES / "batch_variant"],
                 out=tmp_path, console=_quiet())
    _assert_clean(checked, "compare")
    _assert_written(tmp_path, "compare")


def test_sweep_figure_has_no_panel_without_data(tmp_path, checked):
    key, placed = sweep.collect([FIXTURES / "default", FIXTURES / "repeat_n3_judge"], param="sampling.n")
    assert all(r.pass_at.get(5) is None for r in placed)
    sweep.plot(placed, key, [1, 5], tmp_path / "sweep.png")
    _assert_clean(checked, "sweep")
    _assert_written(tmp_path, "sweep")
    assert checked["sweep"]["axes"] == 1 and checked["sweep"]["titles"] == ["pass@1"]
    # with a value at k = 5 the panel is back
    rich = [dataclasses.replace(r, pass_at={**r.pass_at, 5: 0.5}) for r in placed]
    sweep.plot(rich, key, [1, 5], tmp_path / "sweep5.png")
    assert checked["sweep5"]["axes"] == 2


def _quiet():
    from rich.console import Console

    return Console(width=170, file=open("/dev/null", "w"))
