"""What every analysis shares: the runs it reads (through :class:`~ibench.results.runlog.RunLog`),
their labels, the per-sample frame they are computed from, the task cards a run was made on,
and the writers (console table, CSV, figure through :mod:`ibench.results.figstyle`).

The per-sample frame (:func:`sample_frame`) is the one place an analysis turns a run's store into
numbers: one row per judged sample of round 1 (a refinement run's later rounds are its own
study), with its verdict, score, tokens, generation seconds and the CPU time of its slowest case.
SE samples stay in (a failed sample, as in the summary's pass@k)."""

from __future__ import annotations

import csv
import json
import math
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Sequence

import polars as pl

from ibench.results.runlog import ResultsError, RunLog, find_runs


class AnalysisError(ValueError):
    """Bad input to an analysis (printed as one line, exit 2)."""


@dataclass
class Run:
    """A run as the analyses read it: its log, a label that tells it apart from the others
    given, and its samples (:func:`sample_frame`), read once."""

    log: RunLog
    label: str
    tasks_dir: Path | None = None  # where its task cards are (--tasks, else the summary's)

    @cached_property
    def frame(self) -> pl.DataFrame:
        return sample_frame(self.log)

    @cached_property
    def cards(self) -> dict[str, dict[str, Any]]:
        return task_cards(self.log, self.tasks_dir)

    @property
    def sampling(self) -> dict[str, Any]:
        return dict(self.log.identity.sampling)


def open_runs(dirs: Sequence[str | Path], tasks_dir: str | Path | None = None) -> list[Run]:
    """The finished runs given or found below ``dirs`` (folders holding ``summary.json`` and a
    results store), each with a distinct label (:func:`ibench.results.runs._labels`)."""
    try:
        paths = find_runs(dirs)
        logs = [RunLog.open(p) for p in paths]
    except ResultsError as e:
        raise AnalysisError(str(e)) from None
    logs = [r for r in logs if r.store is not None]
    if not logs:
        raise AnalysisError("no run with a results store among: " + ", ".join(map(str, dirs)))
    tdir = Path(tasks_dir) if tasks_dir else None
    return [Run(r, lab, tdir) for r, lab in zip(logs, short_labels(logs))]


def short_labels(logs: Sequence[RunLog]) -> list[str]:
    """A short label per run: its model label, plus the settings (sampling values, overrides;
    by their last name part) that differ among the runs given, plus the folder name where two
    are still alike — ``synth reasoning_budget=1024``."""
    from ibench.results.labels import differing, labelled, short  # what a label may show of a run

    settings = []
    for r in logs:
        d = {k: str(v) for k, v in r.identity.sampling.items() if k != "name"}
        d.update({k.removeprefix("sampling."): short(v, 28) for k, v in labelled(r.identity.overrides).items()})
        settings.append(d)
    vary = differing(settings)
    out = []
    for r, d in zip(logs, settings):
        parts = [f"{k.rsplit('.', 1)[-1]}={d.get(k, '-')}" for k in vary if k.rsplit(".", 1)[-1] not in ("tasks_dir",)]
        out.append(" ".join([r.identity.label, *parts]))
    counts = {lab: out.count(lab) for lab in out}
    return [f"{lab} <{r.run_dir.name}>" if counts[lab] > 1 else lab for lab, r in zip(out, logs)]


def sample_frame(log: RunLog) -> pl.DataFrame:
    """One row per judged round-1 sample of the run: task_id, sample_id, language, verdict,
    score, ok, prompt/completion/reasoning tokens, latency_s, judge_wall_s, max_cpu_ms (its
    slowest case; null without case rows) and cpu_ms (all its cases), seed."""
    s, v, c = log.current()
    v = v.with_columns(pl.col("round").fill_null(1)).filter(pl.col("round") == 1)
    times = (c.group_by("sample_id", "judge_key")
             .agg(pl.col("cpu_ms").max().alias("max_cpu_ms"), pl.col("cpu_ms").sum().alias("cpu_ms"),
                  pl.len().alias("case_rows")))
    keep = ["sample_id", "language", "prompt_tokens", "completion_tokens", "reasoning_tokens", "latency_s", "seed",
            "code"]
    out = (v.select("sample_id", "judge_key", "task_id", "sample_index", "verdict", "score", "judge_wall_s")
           .join(s.select(keep), on="sample_id", how="left")
           .join(times, on=["sample_id", "judge_key"], how="left")
           .with_columns((pl.col("verdict") == "OK").alias("ok"))
           .sort("task_id", "sample_index"))
    return out


def task_cards(log: RunLog, tasks_dir: Path | None = None) -> dict[str, dict[str, Any]]:
    """Each task's card (``meta.json``, with ``subtasks.json`` as ``_subtasks`` where present)
    from ``tasks_dir``, else the folder the run recorded; tasks whose card is gone are absent."""
    root = tasks_dir or Path(str((log.summary.get("meta") or {}).get("tasks_dir") or ""))
    out: dict[str, dict[str, Any]] = {}
    if not str(root) or not root.is_dir():
        return out
    for t in log.summary.get("tasks", []):
        tid = t["task_id"]
        card = root / tid / "meta.json"
        if not card.is_file():
            continue
        try:
            d = dict(json.loads(card.read_text()))
            sub = root / tid / "subtasks.json"
            if sub.is_file():
                d["_subtasks"] = json.loads(sub.read_text())
        except ValueError:
            continue
        out[tid] = d
    return out


def time_factor(language: str | None) -> float:
    """SPEC §4's CPU-time factor of a language (1 for one ibench does not know)."""
    from ibench.languages import lookup

    try:
        return float(lookup(language or "cpp").time_factor)
    except ValueError:
        return 1.0


def per_task_mean(df: pl.DataFrame, col: str) -> float | None:
    """The mean over tasks of each task's mean of ``col`` (nulls left out); None when no task
    has a value — every analysis averages per task first, as pass@k does."""
    if not df.height:
        return None
    means = df.group_by("task_id").agg(pl.col(col).cast(pl.Float64).mean().alias("m"))["m"].drop_nulls().to_list()
    return sum(means) / len(means) if means else None


def identity_key(run: Run, leave_out: str) -> tuple[str, ...]:
    """What a run measures apart from the sampling setting ``leave_out`` (its sampling settings
    but that one, its overrides but that one's): runs with equal keys form that setting's sweep."""
    i = run.log.identity
    samp = tuple(sorted((k, str(v)) for k, v in i.sampling.items() if k != leave_out))
    over = tuple(sorted(o for o in i.overrides if not o.lstrip("+~").startswith(f"sampling.{leave_out}=")))
    return (i.label, i.language, i.prompt, i.variant, str(samp), str(over))


def mean_se(values: Sequence[float]) -> tuple[float, float | None]:
    """(mean, standard error of the mean); the error is None for fewer than two values."""
    n = len(values)
    m = sum(values) / n
    if n < 2:
        return m, None
    var = sum((x - m) ** 2 for x in values) / (n - 1)
    return m, math.sqrt(var / n)


# -- writers ------------------------------------------------------------------------------------------
def fmt(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.4g}" if abs(v) >= 1000 or (v != 0 and abs(v) < 0.001) else f"{v:.3f}"
    return str(v)


def write_csv(rows: list[dict[str, Any]], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    cols: list[str] = []
    for r in rows:
        cols += [k for k in r if k not in cols]
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=cols)
        w.writeheader()
        w.writerows(rows)
    return path


def show(console: Any, title: str, rows: list[dict[str, Any]], skip: Sequence[str] = ()) -> None:
    """``rows`` as a console table (every key of the first row but ``skip``)."""
    from rich.markup import escape
    from rich.table import Table

    if not rows:
        return
    cols = [c for c in rows[0] if c not in skip]
    t = Table(title=escape(title), title_justify="left")
    for c in cols:
        t.add_column(escape(c), justify="right" if isinstance(rows[0][c], (int, float)) else "left",
                     overflow="fold")
    for r in rows:
        t.add_row(*(escape(fmt(r.get(c))) for c in cols))
    console.print(t)


def console() -> Any:
    from rich.console import Console

    c = Console()
    return c if c.is_terminal else Console(width=170)


def save(fig: Any, out_dir: Path, name: str) -> list[Path]:
    """The figure as ``<name>.png`` and ``<name>.pdf`` in the project's style."""
    from ibench.results.figstyle import save_figure

    return save_figure(fig, out_dir, name)


def legend(ax: Any) -> None:
    """The panel's legend below the figure (long run labels wrapped), never over the data."""
    from ibench.results.figstyle import wrap

    handles, labels = ax.get_legend_handles_labels()
    if handles:
        width = int(ax.get_figure().get_figwidth() * 9)  # characters a line of the legend may hold
        ax.get_figure().legend(handles, [wrap(lab, width) for lab in labels], loc="outside lower center", ncols=1)


def default_out(runs: Sequence[Run], name: str) -> Path:
    """``<common folder of the runs>/<name>_report`` (a single run: inside its folder)."""
    import os

    dirs = [str(r.log.run_dir.resolve()) for r in runs]
    base = Path(os.path.commonpath(dirs)) if len(dirs) > 1 else Path(dirs[0])
    return base / f"{name}_report"
