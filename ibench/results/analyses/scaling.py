"""Parallel against sequential scaling (LiveOIBench Figure 6, Table 15), and the pass rate by
subtask position (Figure 12).

- **Parallel**: more samples. For each run, pass@k for k = 1 … n (the unbiased estimator over
  the tasks with at least k samples) at ``k ×`` its mean completion tokens per task and sample:
  the tokens k independent samples cost.
- **Sequential**: a larger reasoning budget. Runs that differ only by
  ``sampling.reasoning_budget`` (same model label, language, prompt and variant) form a sweep:
  pass@1 at each budget's mean completion tokens per task.

Both on one axis of tokens spent per task. Files: ``scaling.csv``, figure ``scaling``.

- **Subtask position**: for the tasks with subtasks (``subtasks.json``, in its order), the share
  of judged samples that earn each subtask's full points, by the subtask's position (1 = the
  first). Files: ``subtask_position.csv``, figure ``subtask_position``."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any, Sequence

import polars as pl

from ibench.results.analyses.common import legend, Run, identity_key, per_task_mean, save, show, write_csv
from ibench.results.metrics import pass_at_k


def parallel_rows(run: Run) -> list[dict[str, Any]]:
    df = run.frame
    tokens = per_task_mean(df, "completion_tokens")
    counts = df.group_by("task_id").agg(pl.len().alias("n"), pl.col("ok").sum().alias("c"))
    ns = counts["n"].to_list()
    cs = counts["c"].to_list()
    rows = []
    for k in range(1, max(ns, default=0) + 1):
        vals = [v for n, c in zip(ns, cs) if (v := pass_at_k(int(n), int(c), k)) is not None]
        rows.append({"mode": "parallel", "series": run.label, "k": k,
                     "reasoning_budget": run.sampling.get("reasoning_budget"),
                     "tokens_per_task": None if tokens is None else k * tokens,
                     "pass": sum(vals) / len(vals), "tasks": len(vals)})
    return rows


def budget_sweeps(runs: Sequence[Run]) -> dict[str, list[Run]]:
    """Runs that differ only by ``sampling.reasoning_budget``, two budgets or more, by budget (a
    run without one first); keyed by the model label (numbered where a model has several)."""
    groups: dict[tuple[str, ...], list[Run]] = defaultdict(list)
    for r in runs:
        groups[identity_key(r, "reasoning_budget")].append(r)
    out: dict[str, list[Run]] = {}
    for key, g in groups.items():
        budgets = {r.sampling.get("reasoning_budget") for r in g}
        if len(budgets) >= 2:
            name = key[0] if key[0] not in out else f"{key[0]} #{len(out) + 1}"
            out[name] = sorted(g, key=lambda r: (r.sampling.get("reasoning_budget") is not None,
                                                                  r.sampling.get("reasoning_budget") or 0))
    return out


def sequential_rows(name: str, sweep: Sequence[Run]) -> list[dict[str, Any]]:
    rows = []
    for r in sweep:
        p1 = per_task_mean(r.frame.with_columns(pl.col("ok").cast(pl.Float64)), "ok")
        rows.append({"mode": "sequential", "series": f"{name} (budget sweep)", "k": 1,
                     "reasoning_budget": r.sampling.get("reasoning_budget"),
                     "tokens_per_task": per_task_mean(r.frame, "completion_tokens"), "pass": p1,
                     "tasks": r.frame["task_id"].n_unique()})
    return rows


def scaling_rows(runs: Sequence[Run]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for name, sweep in budget_sweeps(runs).items():
        rows += sequential_rows(name, sweep)
    for r in runs:
        rows += parallel_rows(r)
    return rows


def plot_scaling(rows: list[dict[str, Any]], out_dir: Path) -> list[Path]:
    from ibench.results.figstyle import panels, title

    fig, (ax,) = panels(1, panel_size=(6.6, 4.4))
    for series in dict.fromkeys(r["series"] for r in rows):
        mine = [r for r in rows if r["series"] == series and r["tokens_per_task"] is not None]
        if not mine:
            continue
        seq = mine[0]["mode"] == "sequential"
        ax.plot([r["tokens_per_task"] for r in mine], [r["pass"] for r in mine], marker="s" if seq else "o",
                lw=2.2 if seq else 1.2, ls="-" if seq else "--", label=f"{series}{'' if seq else ' pass@k'}")
        if seq:
            for r in mine:
                ax.annotate(f"{r['reasoning_budget']}", (r["tokens_per_task"], r["pass"]), fontsize=7,
                            xytext=(3, -9), textcoords="offset points")
    ax.set_xscale("log")
    ax.set_xlabel("completion tokens spent per task (log)")
    ax.set_ylabel("pass@k · pass@1")
    ax.set_ylim(-0.02, 1.02)
    title(ax, "Parallel (more samples) vs sequential (larger reasoning budget) scaling")
    legend(ax)
    return save(fig, out_dir, "scaling")


# -- subtask position ---------------------------------------------------------------------------------
def subtask_order(card: dict[str, Any]) -> list[tuple[str, float]]:
    sub = card.get("_subtasks") or {}
    keys = sorted(sub, key=lambda k: (0, int(k)) if str(k).isdigit() else (1, str(k)))
    return [(str(k), float(sub[k].get("score") or 0)) for k in keys if isinstance(sub[k], dict)]


def subtask_rows(run: Run) -> list[dict[str, Any]]:
    """One row per subtask position of the run's tasks with subtasks."""
    orders = {tid: o for tid, card in run.cards.items() if (o := subtask_order(card))}
    if not orders:
        return []
    _, v, _ = run.log.current()
    v = v.with_columns(pl.col("round").fill_null(1)).filter((pl.col("round") == 1) & pl.col("task_id").is_in(list(orders)))
    earned: dict[int, list[bool]] = defaultdict(list)
    tasks: dict[int, set[str]] = defaultdict(set)
    for row in v.iter_rows(named=True):
        try:
            scores = json.loads(row["result_json"] or "{}").get("subtask_scores") or {}
        except ValueError:
            scores = {}
        for pos, (sid, full) in enumerate(orders[row["task_id"]], start=1):
            got = scores.get(sid)
            passed = row["verdict"] == "OK" if got is None else float(got) >= full - 1e-9
            earned[pos].append(passed)
            tasks[pos].add(row["task_id"])
    return [{"run": run.label, "position": p, "tasks": len(tasks[p]), "samples": len(earned[p]),
             "pass_rate": sum(earned[p]) / len(earned[p])} for p in sorted(earned)]


def plot_subtasks(rows: list[dict[str, Any]], out_dir: Path) -> list[Path]:
    from ibench.results.figstyle import panels, title

    fig, (ax,) = panels(1, panel_size=(6.0, 4.0))
    for label in dict.fromkeys(r["run"] for r in rows):
        mine = [r for r in rows if r["run"] == label]
        ax.plot([r["position"] for r in mine], [r["pass_rate"] for r in mine], marker="o", label=label)
    ax.set_xticks(sorted({r["position"] for r in rows}))
    ax.set_xlabel("subtask position (1 = first)")
    ax.set_ylabel("share with full points")
    ax.set_ylim(-0.02, 1.02)
    title(ax, "Pass rate by subtask position")
    legend(ax)
    return save(fig, out_dir, "subtask_position")


def analyse(runs: Sequence[Run], out_dir: Path, console: Any, figures: bool = True) -> dict[str, Path]:
    files: dict[str, Path] = {}
    rows = scaling_rows(runs)
    show(console, "Parallel (pass@k over k) vs sequential (reasoning-budget sweep) scaling, tokens per task", rows)
    files["scaling_csv"] = write_csv(rows, out_dir / "scaling.csv")
    if figures and any(r["tokens_per_task"] is not None for r in rows):
        png, pdf = plot_scaling(rows, out_dir)
        files.update(scaling_png=png, scaling_pdf=pdf)
    if not budget_sweeps(runs):
        console.print("no reasoning-budget sweep among these runs: the sequential curve is left out", highlight=False, markup=False)
    sub = [row for r in runs for row in subtask_rows(r)]
    if sub:
        show(console, "Pass rate by subtask position", sub)
        files["subtask_position_csv"] = write_csv(sub, out_dir / "subtask_position.csv")
        if figures:
            png, pdf = plot_subtasks(sub, out_dir)
            files.update(subtask_position_png=png, subtask_position_pdf=pdf)
    else:
        console.print("no task with subtasks among these runs: subtask positions left out", highlight=False, markup=False)
    return files
