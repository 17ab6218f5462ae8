"""Token efficiency (LiveOIBench Figure 1): each run's score against the mean completion tokens it
spent per task (reasoning + answer, the stored ``completion_tokens``), one point per run, and the
Pareto frontier of the runs no other run beats on both (fewer or as many tokens and a higher or
equal score, one of them strictly).

The score is the relative score (mean over tasks of each task's mean ``score / full score``)
when every task of every run has subtasks with points, else pass@1 (mean over tasks of c/n).
Human percentiles need contest standings the runs do not carry; they are not offered. Tokens
are averaged per task first (mean over a task's samples, then over tasks), as pass@1 is; runs
whose samples carry no token counts (the reference model) are listed and left off the plot.

Files: ``efficiency.csv`` and the figure ``efficiency``."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import polars as pl

from ibench.results.analyses.common import legend, Run, per_task_mean, save, show, write_csv


def full_scores(run: Run) -> dict[str, float]:
    """Each task's full score: the sum of its subtasks' points (``subtasks.json``); tasks
    without subtasks are absent."""
    out = {}
    for tid, card in run.cards.items():
        sub = card.get("_subtasks") or {}
        total = sum(float(s.get("score") or 0) for s in sub.values() if isinstance(s, dict))
        if total > 0:
            out[tid] = total
    return out


def relative_score(run: Run) -> float | None:
    """Mean over tasks of the mean relative score (``score / full score``); None unless every
    task has a full score and every sample a score."""
    df = run.frame
    full = full_scores(run)
    if not df.height or not set(df["task_id"].to_list()) <= set(full) or df["score"].null_count():
        return None
    rel = df.with_columns((pl.col("score") / pl.col("task_id").replace_strict(full, return_dtype=pl.Float64))
                          .alias("rel"))
    return per_task_mean(rel, "rel")


def pass_at_1(run: Run) -> float | None:
    return per_task_mean(run.frame.with_columns(pl.col("ok").cast(pl.Float64)), "ok")


def pareto(points: Sequence[tuple[float, float]]) -> list[int]:
    """Indices of the points (tokens, score) on the frontier: no other point has fewer or as
    many tokens and a higher or equal score with one of the two strict; by tokens."""
    front = []
    for i, (x, y) in enumerate(points):
        dominated = any((x2 <= x and y2 >= y) and (x2 < x or y2 > y) for j, (x2, y2) in enumerate(points) if j != i)
        if not dominated:
            front.append(i)
    return sorted(front, key=lambda i: points[i])


def efficiency_rows(runs: Sequence[Run]) -> tuple[str, list[dict[str, Any]]]:
    """(the score's name, one row per run: tokens per task, pass@1, relative score, the
    score plotted, on_frontier)."""
    rel = [relative_score(r) for r in runs]
    metric = "relative score" if all(v is not None for v in rel) else "pass@1"
    rows: list[dict[str, Any]] = []
    for r, rs in zip(runs, rel):
        p1 = pass_at_1(r)
        rows.append({"run": r.label, "tasks": r.frame["task_id"].n_unique(), "samples": r.frame.height,
                     "mean_completion_tokens_per_task": per_task_mean(r.frame, "completion_tokens"),
                     "pass@1": p1, "relative_score": rs, "score": rs if metric == "relative score" else p1,
                     "on_frontier": False})
    have = [i for i, row in enumerate(rows) if row["mean_completion_tokens_per_task"] is not None
            and row["score"] is not None]
    for k in pareto([(float(rows[i]["mean_completion_tokens_per_task"]), float(rows[i]["score"])) for i in have]):
        rows[have[k]]["on_frontier"] = True
    return metric, rows


def plot(metric: str, rows: list[dict[str, Any]], out_dir: Path) -> list[Path]:
    from ibench.results.figstyle import panels, title

    pts = [r for r in rows if r["mean_completion_tokens_per_task"] is not None and r["score"] is not None]
    fig, (ax,) = panels(1, panel_size=(6.4, 4.4))
    for r in pts:
        ax.scatter([r["mean_completion_tokens_per_task"]], [r["score"]], s=40, label=r["run"],
                   edgecolors="black" if r["on_frontier"] else "none", zorder=3)
    front = sorted((r for r in pts if r["on_frontier"]), key=lambda r: r["mean_completion_tokens_per_task"])
    if front:
        ax.step([r["mean_completion_tokens_per_task"] for r in front], [r["score"] for r in front], where="post",
                color="grey", ls="--", lw=1, label="Pareto frontier", zorder=2)
    ax.set_xscale("log")
    ax.set_xlabel("mean completion tokens per task (log)")
    ax.set_ylabel(metric)
    title(ax, f"Token efficiency: {metric} against tokens spent, one point per run")
    legend(ax)
    return save(fig, out_dir, "efficiency")


def analyse(runs: Sequence[Run], out_dir: Path, console: Any, figures: bool = True) -> dict[str, Path]:
    metric, rows = efficiency_rows(runs)
    show(console, f"Token efficiency ({metric} against mean completion tokens per task)", rows)
    files = {"efficiency_csv": write_csv(rows, out_dir / "efficiency.csv")}
    missing = [r["run"] for r in rows if r["mean_completion_tokens_per_task"] is None]
    if missing:
        console.print("no token counts (left off the plot): " + ", ".join(missing), highlight=False, markup=False)
    if figures and len(missing) < len(rows):
        png, pdf = plot(metric, rows, out_dir)
        files.update(efficiency_png=png, efficiency_pdf=pdf)
    return files
