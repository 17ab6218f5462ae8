"""Error bars across repeated runs: runs that differ only by ``sampling.seed`` (same model label,
language, prompt, variant and every other setting) form a group; the group's pass@1 is the mean
over its runs ± the standard error of that mean (the spread a rerun shows), printed beside the
bootstrap interval over tasks (the spread a different task set would show) of the per-task
pass@1 pooled over the runs.

Files: ``seeds.csv`` (one row per group), ``seeds_runs.csv`` (one per run) and the figure
``seeds``."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import polars as pl

from ibench.results.analyses.common import legend, Run, identity_key, mean_se, save, show, write_csv
from ibench.results.metrics import bootstrap_ci


def task_pass(run: Run) -> dict[str, float]:
    g = run.frame.group_by("task_id").agg(pl.col("ok").cast(pl.Float64).mean().alias("p"))
    return dict(zip(g["task_id"].to_list(), g["p"].to_list()))


def seed_rows(runs: Sequence[Run], resamples: int = 1000, confidence: float = 0.95,
              seed: int = 0) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    groups: dict[tuple[str, ...], list[Run]] = defaultdict(list)
    for r in runs:
        groups[identity_key(r, "seed")].append(r)
    rows, run_rows = [], []
    for key, g in groups.items():
        seeds = [r.sampling.get("seed") for r in g]
        if len(g) < 2 or len(set(map(str, seeds))) < 2:
            continue
        per_run = [task_pass(r) for r in g]
        common = sorted(set.intersection(*(set(p) for p in per_run)))
        if not common:
            continue
        p1 = [sum(p[t] for t in common) / len(common) for p in per_run]
        mean, se = mean_se(p1)
        pooled = np.array([sum(p[t] for p in per_run) / len(per_run) for t in common])
        ci = bootstrap_ci(pooled, resamples, confidence, np.random.default_rng(seed)) if len(common) > 1 else None
        name = f"{key[0]} [{', '.join(str(s) for s in seeds)}]"
        rows.append({"group": name, "runs": len(g), "tasks": len(common), "mean_pass@1": mean, "se_across_runs": se,
                     "mean-se": None if se is None else mean - se, "mean+se": None if se is None else mean + se,
                     "bootstrap_low": None if ci is None else ci[0], "bootstrap_high": None if ci is None else ci[1],
                     "min_run": min(p1), "max_run": max(p1)})
        for r, v in zip(g, p1):
            run_rows.append({"group": name, "run": r.label, "seed": r.sampling.get("seed"), "pass@1": v})
    return rows, run_rows


def plot(rows: list[dict[str, Any]], run_rows: list[dict[str, Any]], out_dir: Path, pct: int) -> list[Path]:
    from ibench.results.figstyle import panels, title

    fig, (ax,) = panels(1, panel_size=(max(4.8, 2.2 * len(rows) + 2), 4.2))
    for i, r in enumerate(rows):
        se = r["se_across_runs"] or 0.0
        ax.errorbar([i - 0.1], [r["mean_pass@1"]], yerr=[[se], [se]], fmt="o", capsize=4, color="C0",
                    label="mean ± SE across runs" if i == 0 else None)
        if r["bootstrap_low"] is not None:
            ax.errorbar([i + 0.1], [r["mean_pass@1"]], yerr=[[r["mean_pass@1"] - r["bootstrap_low"]],
                                                            [r["bootstrap_high"] - r["mean_pass@1"]]],
                        fmt="s", capsize=4, color="C1", label=f"{pct}% bootstrap over tasks" if i == 0 else None)
        xs = [rr["pass@1"] for rr in run_rows if rr["group"] == r["group"]]
        ax.scatter([i - 0.25] * len(xs), xs, s=12, color="grey", label="each run" if i == 0 else None)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([r["group"] for r in rows], rotation=15, ha="right")
    ax.set_ylabel("pass@1")
    ax.set_ylim(-0.02, 1.02)
    title(ax, "Repeated runs (seed sweep): error across runs vs over tasks")
    legend(ax)
    return save(fig, out_dir, "seeds")


def analyse(runs: Sequence[Run], out_dir: Path, console: Any, figures: bool = True, resamples: int = 1000,
            confidence: float = 0.95) -> dict[str, Path]:
    rows, run_rows = seed_rows(runs, resamples, confidence)
    if not rows:
        console.print("error bars: no runs that differ only by sampling.seed; section left out", highlight=False, markup=False)
        return {}
    show(console, f"Repeated runs: mean pass@1 ± SE across runs, beside the {int(confidence * 100)}% bootstrap "
                  "over tasks", rows)
    files = {"seeds_csv": write_csv(rows, out_dir / "seeds.csv"),
             "seeds_runs_csv": write_csv(run_rows, out_dir / "seeds_runs.csv")}
    if figures:
        png, pdf = plot(rows, run_rows, out_dir, int(confidence * 100))
        files.update(seeds_png=png, seeds_pdf=pdf)
    return files
