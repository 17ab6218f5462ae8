"""Time-limit sensitivity: pass@1 as if each task's CPU limit were a fraction of its own, from the
exact CPU times the judge stored per case — nothing is judged again.

At fraction f a sample counts as accepted when it was accepted at the task's limit and its
slowest case used at most ``f × cpu_time_limit_ms × its language's time factor`` (SPEC §4) of
CPU. A sample that failed at 1.0 fails at every fraction: a tighter limit never turns a wrong
answer right (a TLE at 1.0 stays one). The limit is the task card's (``meta.json``
``cpu_time_limit_ms``), read from the tasks folder the run recorded or ``--tasks``. On tasks
with subtasks the relative score is given too: a subtask earned at the full limit is kept at f
when every test of it that ran fits, else it earns nothing.

Files: ``timelimit.csv`` (run × fraction: pass@1, samples that lose their pass), ``timelimit_tasks.csv``
(per run and task: the limit, the slowest accepted case, its share of the limit) and the figure
``timelimit`` (pass@1 against the fraction, one line per run)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import polars as pl

from ibench.results.analyses.common import legend, AnalysisError, Run, save, show, time_factor, write_csv

FRACTIONS = (0.25, 0.5, 0.75, 1.0)


def limits_ms(run: Run) -> dict[str, float]:
    """Each task's CPU limit as its card tells it (``cpu_time_limit_ms``, before the language's
    factor); tasks without a card are absent."""
    return {tid: float(card["cpu_time_limit_ms"]) for tid, card in run.cards.items()
            if card.get("cpu_time_limit_ms") is not None}


def timelimit_rows(run: Run, fractions: Sequence[float] = FRACTIONS) -> tuple[list[dict[str, Any]],
                                                                              list[dict[str, Any]]]:
    """(one row per fraction, one row per task) for one run. Tasks without a card (no limit)
    are left out of both and named by :class:`AnalysisError` when none is left."""
    df = run.frame
    limits = limits_ms(run)
    missing = sorted(set(df["task_id"].to_list()) - set(limits))
    df = df.filter(pl.col("task_id").is_in(list(limits)))
    if not df.height:
        raise AnalysisError(f"{run.log.run_dir}: no task card with a cpu_time_limit_ms (tasks folder "
                            f"{run.tasks_dir or (run.log.summary.get('meta') or {}).get('tasks_dir')!r}; "
                            "give it with --tasks)")
    factors = {lang: time_factor(lang) for lang in df["language"].fill_null(run.log.identity.language).unique()}
    df = df.with_columns((pl.col("task_id").replace_strict(limits, return_dtype=pl.Float64)
                          * pl.col("language").fill_null(run.log.identity.language)
                          .replace_strict(factors, return_dtype=pl.Float64)).alias("limit_ms"))
    rows: list[dict[str, Any]] = []
    for f in sorted(fractions):
        passed = df.with_columns(
            (pl.col("ok") & (pl.col("max_cpu_ms").is_null() | (pl.col("max_cpu_ms") <= f * pl.col("limit_ms"))))
            .alias("p"))
        per_task = passed.group_by("task_id").agg(pl.col("p").mean().alias("p1"))
        lost = int((passed["ok"] & ~passed["p"]).sum())
        rows.append({"run": run.label, "fraction": f, "pass@1": float(per_task["p1"].mean()),  # type: ignore[arg-type]
                     "tasks": per_task.height, "samples": df.height, "accepted": int(passed["p"].sum()),
                     "lost_vs_1.0": lost, "tasks_without_limit": len(missing)})
    scored = subtask_scores_at(run, df, sorted(fractions))
    for row in rows:
        row["relative_score_subtask_tasks"] = scored.get(row["fraction"])
    task_rows = []
    for tid, g in df.group_by("task_id", maintain_order=True):
        ok = g.filter(pl.col("ok"))
        slow = ok["max_cpu_ms"].max() if ok.height else None
        limit = float(g["limit_ms"].max())  # type: ignore[arg-type]
        task_rows.append({"run": run.label, "task_id": tid[0], "limit_ms": limit, "accepted": ok.height,
                          "samples": g.height, "slowest_accepted_ms": slow,
                          "share_of_limit": None if slow is None else float(slow) / limit})  # type: ignore[arg-type]
    return rows, task_rows


def subtask_scores_at(run: Run, df: pl.DataFrame, fractions: Sequence[float]) -> dict[float, float]:
    """fraction -> the mean relative score over the tasks with subtasks (each task's mean over
    its samples): a subtask earned at the task's limit is kept at fraction f when every test of
    it that ran used at most f × the limit, else it earns nothing. {} without such tasks."""
    import json

    from ibench.results.analyses.scaling import subtask_order

    orders = {tid: o for tid, card in run.cards.items() if (o := subtask_order(card))}
    tests = {tid: {str(k): [str(t) for t in (v.get("testcases") or [])] for k, v in (card.get("_subtasks") or {}).items()
                   if isinstance(v, dict)} for tid, card in run.cards.items() if tid in orders}
    df = df.filter(pl.col("task_id").is_in(list(orders)))
    if not df.height:
        return {}
    _, v, c = run.log.current()
    scores = {r["sample_id"]: json.loads(r["result_json"] or "{}").get("subtask_scores") or {}
              for r in v.filter(pl.col("sample_id").is_in(df["sample_id"].to_list())).iter_rows(named=True)}
    cpu: dict[str, dict[str, float]] = {}
    for r in c.filter(pl.col("sample_id").is_in(df["sample_id"].to_list())).iter_rows(named=True):
        cpu.setdefault(r["sample_id"], {})[str(r["case"])] = float(r["cpu_ms"] or 0.0)
    out = {}
    for f in fractions:
        per_task: dict[str, list[float]] = {}
        for r in df.iter_rows(named=True):
            full = sum(sc for _, sc in orders[r["task_id"]])
            earned = scores.get(r["sample_id"], {})
            kept = sum(float(earned.get(sid) or 0.0) for sid, _ in orders[r["task_id"]]
                       if all(cpu.get(r["sample_id"], {}).get(t, 0.0) <= f * r["limit_ms"]
                              for t in tests[r["task_id"]].get(sid, [])))
            per_task.setdefault(r["task_id"], []).append(kept / full if full else 0.0)
        out[f] = sum(sum(x) / len(x) for x in per_task.values()) / len(per_task)
    return out


def plot(rows: list[dict[str, Any]], out_dir: Path) -> list[Path]:
    """pass@1 against the fraction, one line per run; a second panel with the relative score on
    the tasks with subtasks where any run has such tasks."""
    from ibench.results.figstyle import panels, title

    metrics = [("pass@1", "pass@1", "Time-limit sensitivity (stored CPU times, no re-judging)")]
    if any(r.get("relative_score_subtask_tasks") is not None for r in rows):
        metrics.append(("relative_score_subtask_tasks", "relative score", "Relative score on the tasks with subtasks"))
    fig, axes = panels(len(metrics), panel_size=(5.4, 4.0))
    for ax, (key, ylabel, text) in zip(axes, metrics):
        for label in dict.fromkeys(r["run"] for r in rows):
            mine = [r for r in rows if r["run"] == label and r.get(key) is not None]
            if mine:
                ax.plot([r["fraction"] for r in mine], [r[key] for r in mine], marker="o", label=label)
        ax.set_xlabel("CPU limit as a fraction of the task's")
        ax.set_ylabel(ylabel)
        ax.set_ylim(-0.02, 1.02)
        title(ax, text)
    legend(axes[0])
    return save(fig, out_dir, "timelimit")


def analyse(runs: Sequence[Run], out_dir: Path, console: Any, fractions: Sequence[float] = FRACTIONS,
            figures: bool = True) -> dict[str, Path]:
    rows: list[dict[str, Any]] = []
    task_rows: list[dict[str, Any]] = []
    for r in runs:
        a, b = timelimit_rows(r, fractions)
        rows += a
        task_rows += b
    show(console, "Time-limit sensitivity: pass@1 at a fraction of each task's CPU limit", rows)
    files = {"timelimit_csv": write_csv(rows, out_dir / "timelimit.csv"),
             "timelimit_tasks_csv": write_csv(task_rows, out_dir / "timelimit_tasks.csv")}
    if figures:
        png, pdf = plot(rows, out_dir)
        files.update(timelimit_png=png, timelimit_pdf=pdf)
    return files
