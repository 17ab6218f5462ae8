"""The study's figures, one per section (``<name>.png`` and ``<name>.pdf`` in the style of
:mod:`ibench.results.figstyle`), from the rows of :mod:`ibench.results.study_tables`. Each
function returns the PNG's path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ibench.judge.verdict import FAILURE_LABELS
from ibench.results.figstyle import panels, save_figure, title, wrap
from ibench.results.study_tables import C1_LABELS

FAILURES = [v.value for v in FAILURE_LABELS]


def _save(fig: Any, path: Path) -> Path:
    return save_figure(fig, path.parent, path.stem)[0]


def plot_time_split(rows: list[dict[str, Any]], path: Path) -> Path:
    fig, (ax,) = panels(1, panel_size=(7.5, 4.2))
    for run in dict.fromkeys(r["run"] for r in rows):
        pts = [r for r in rows if r["run"] == run]
        post = [(r["cut_year"], 100 * r["pass@1_post"]) for r in pts if r["pass@1_post"] is not None]
        pre = [(r["cut_year"], 100 * r["pass@1_pre"]) for r in pts if r["pass@1_pre"] is not None]
        line, = ax.plot([x for x, _ in post], [y for _, y in post], marker="o", label=f"{run} (post: year ≥ cut)")
        if pre:
            ax.plot([x for x, _ in pre], [y for _, y in pre], marker="x", ls="--", color=line.get_color(),
                    label=f"{run} (pre: year < cut)")
    years = sorted({r["cut_year"] for r in rows})
    ax.set_xticks(years)
    ax.set_xlabel("cut year Y")
    ax.set_ylabel("mean pass@1 (%)")
    ax.set_ylim(bottom=0)
    title(ax, "Time split: mean pass@1 of tasks released before / from the cut year")
    ax.legend(fontsize=7)
    return _save(fig, path)


def plot_language_prompt(languages: list[str], rows: list[dict[str, Any]], path: Path) -> Path:
    models = list(dict.fromkeys(r["model"] for r in rows))
    fig, axes = panels(len(models), panel_size=(max(4.8, 1.2 * len(languages) + 2), 3.8), sharey=True)
    for ax, m in zip(axes, models):
        mrows = [r for r in rows if r["model"] == m]
        width = 0.8 / len(mrows)
        for j, r in enumerate(mrows):
            ax.bar([i + j * width for i in range(len(languages))], [r[lang] or 0.0 for lang in languages], width,
                   label=r["prompt"])
        ax.set_xticks([i + width * (len(mrows) - 1) / 2 for i in range(len(languages))])
        ax.set_xticklabels(languages)
        ax.set_ylim(0, 1)
        ax.set_ylabel("pass@1")
        title(ax, f"{m} (n = {mrows[0]['n_tasks']} common tasks)")
        ax.legend(fontsize=8)
    return _save(fig, path)


def plot_refine(rows: list[dict[str, Any]], path: Path) -> Path:
    runs = list(dict.fromkeys(r["run"] for r in rows))
    fig, axes = panels(len(runs), panel_size=(5.6, 4.4), max_columns=2)
    for ax, run in zip(axes, runs):
        rr = [r for r in rows if r["run"] == run]
        bottom = [0.0] * len(rr)
        for label in FAILURES:
            vals = [r[label] for r in rr]
            ax.bar([f"r{r['round']}" for r in rr], vals, bottom=bottom, label=label)
            bottom = [b + v for b, v in zip(bottom, vals)]
        ax2 = ax.twinx()
        ax2.plot([f"r{r['round']}" for r in rr], [r["refine@k"] for r in rr], color="black", marker="o")
        ax2.set_ylim(0, 1)
        ax2.set_ylabel("refine@k")
        ax2.grid(False)
        ax.set_ylim(0, 1)
        ax.set_ylabel("share of still-unsolved executions")
        title(ax, run)
        ax.legend(fontsize=7, ncol=4, loc="upper center", bbox_to_anchor=(0.5, -0.12))
    return _save(fig, path)


def plot_batch_variant_vs_interactive(rows: list[dict[str, Any]], path: Path) -> Path:
    names_ = [wrap(f"{r['model']} · {r['language']} · {r['prompt']} · {r['variant']}", 28) for r in rows]
    fig, (ax1, ax2) = panels(2, panel_size=(max(4.8, 1.6 * len(rows) + 1.5), 4.4))
    colours = ["#4c72b0" if r["variant"] == "interactive" else "#dd8452" for r in rows]
    ax1.bar(range(len(rows)), [r["pass@1"] or 0.0 for r in rows], color=colours)
    ax1.set_xticks(range(len(rows)), names_, fontsize=7, rotation=20, ha="right")
    ax1.set_ylim(0, 1)
    ax1.set_ylabel("pass@1 (common tasks)")
    title(ax1, "Batch variant vs interactive (C.1): pass@1")
    bottom = [0.0] * len(rows)
    for lab in C1_LABELS:
        vals = [r[lab] or 0.0 for r in rows]
        ax2.bar(range(len(rows)), vals, bottom=bottom, label=lab)
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax2.set_xticks(range(len(rows)), names_, fontsize=7, rotation=20, ha="right")
    ax2.set_ylim(0, 1)
    ax2.set_ylabel("share of unsuccessful executions")
    title(ax2, "failure composition (Table 9)")
    ax2.legend(fontsize=7, ncol=2)
    return _save(fig, path)
