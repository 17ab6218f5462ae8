"""``python -m ibench.results sweep DIR...``: pass@k against a swept setting, across a sweep's runs.

The shape of LiveOIBench's Figure 6(b) (pass rate against reasoning budget, one line per model):
each DIR is a run folder or any folder above run folders (a sweep's ``outputs/sweeps/<id>``).
The swept setting is the one the sweep recorded (``sweep.json``, :mod:`ibench.results.sweeps`),
``--param`` when given, else the measured setting whose value differs between the runs (never a
setting of how they ran); the model (and, over several sweeps, the sweep) separates the lines.
Values sort by type (1024 < 4096 < 16384). Runs whose task sets differ are compared on the tasks
they all have, and the table says so (``--strict``: refused, naming the difference). ``--x
tokens`` puts the mean generated tokens per sample on the x axis instead.

Writes ``sweep.png``/``.pdf``, ``sweep.csv`` and ``sweep.md`` to ``--out`` (default:
``sweep_report`` under the runs' common folder) and prints the table.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ibench.results.runlog import ResultsError, RunLog, find_runs

SERIES_KEY = "model.name"
# The settings that choose the task set: a sweep over one of them compares different tasks by design.
TASK_KEYS = ("bench.ids", "bench.difficulties", "bench.categories", "bench.limit", "bench.tasks_dir", "paths.tasks_dir",
             "paths.root_dir")


class SweepError(ResultsError):
    """The runs cannot be placed on one axis (no task in common, ...); the message says why."""


@dataclass(frozen=True)
class SweepRun:
    """One run as the sweep places it: its series (the model), its settings and its figures."""

    run_dir: Path
    model: str  # the series: the run's identity label (two vllm-server runs of different models are two lines)
    config: dict[str, Any]  # flattened
    pass_at: dict[int, float | None]
    ci: dict[int, tuple[float, float] | None]
    n_tasks: int
    n_samples: int
    mean_tokens: float | None = None
    value: Any = None  # the swept setting's value
    task_ids: tuple[str, ...] = ()  # the run's task set (spec.json)
    per_task: dict[str, dict[int, float | None]] | None = None  # task -> k -> pass@k
    sweep: str | None = None  # the sweep's id (sweep.json), None for a run of no sweep
    swept: tuple[str, ...] = ()  # the keys its sweep recorded as swept

    @classmethod
    def of(cls, log: RunLog, tokens: bool = False) -> SweepRun:
        from ibench.results.sweeps import record_of

        overall = log.summary.get("overall", {})
        rec = record_of(log.run_dir) or {}
        per_task = {t["task_id"]: {int(k): v for k, v in (t.get("pass_at") or {}).items()}
                    for t in log.summary.get("tasks") or []}
        return cls(run_dir=log.run_dir, model=log.label, config=flatten(log.config or _saved_config(log.run_dir)),
                   pass_at={int(k): v for k, v in (overall.get("pass_at") or {}).items()},
                   ci={int(k): (tuple(v) if v else None) for k, v in (overall.get("ci") or {}).items()},
                   n_tasks=int(log.summary.get("n_tasks", 0)), n_samples=int(log.summary.get("n_samples", 0)),
                   mean_tokens=log.mean_tokens() if tokens else None, task_ids=log.task_ids, per_task=per_task,
                   sweep=rec.get("id"), swept=tuple(rec.get("swept") or ()))


def _saved_config(run_dir: Path) -> dict[str, Any]:
    path = run_dir / ".hydra" / "config.yaml"
    if not path.is_file():
        return {}
    from omegaconf import OmegaConf

    data = OmegaConf.to_container(OmegaConf.load(path), resolve=False)
    return {str(k): v for k, v in data.items()} if isinstance(data, dict) else {}


def flatten(d: Any, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    if isinstance(d, dict):
        for k, v in d.items():
            out.update(flatten(v, f"{prefix}{k}."))
    else:
        out[prefix[:-1]] = d if not isinstance(d, list) else json.dumps(d)
    return out


def swept_key(runs: Sequence[SweepRun], param: str | None = None) -> str | None:
    """``param``; else the first key the runs' sweeps recorded as swept (the model aside); else
    the first measured setting (ibench.run.config roles) whose value differs, numeric ones first."""
    if param:
        return param
    recorded = [k for r in runs for k in r.swept if k not in (SERIES_KEY, "model")]
    if recorded:
        common = [k for k in dict.fromkeys(recorded) if all(k in r.swept for r in runs if r.swept)]
        return (common or recorded)[0]
    from ibench.run.config import role_of_key, setting_roles
    from ibench.roles import MEASURED

    roles = setting_roles()
    keys = set().union(*(r.config for r in runs)) if runs else set()
    differing = []
    for k in sorted(keys):
        if k == SERIES_KEY or k.startswith(("model.", "hydra.")) or role_of_key(k, roles) != MEASURED:
            continue
        values = {json.dumps(r.config.get(k), sort_keys=True, default=str) for r in runs}
        if len(values) > 1:
            differing.append(k)
    if not differing:
        return None
    numeric = [k for k in differing if all(_num(r.config.get(k)) is not None for r in runs)]
    return (numeric or differing)[0]


def _num(v: Any) -> float | None:
    if isinstance(v, bool) or v is None:
        return None
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def _sort_key(v: Any) -> tuple:
    n = _num(v)
    return (0, n, "") if n is not None else (1, 0.0, str(v))


def place(runs: Sequence[SweepRun], param: str | None = None) -> tuple[str | None, list[SweepRun]]:
    """The swept key, and the runs with their value of it, by series and value (values by type:
    numbers numerically, then text). Over several sweeps each sweep is a series of its own."""
    key = swept_key(runs, param)
    several = len({r.sweep for r in runs}) > 1
    placed = [replace(r, value=r.model if key == SERIES_KEY else (r.config.get(key) if key else r.run_dir.name),
                      model=f"{r.model} · {r.sweep or 'no sweep'}" if several else r.model)
              for r in runs]
    placed.sort(key=lambda r: (r.model, _sort_key(r.value)))
    return key, placed


def restrict(runs: Sequence[SweepRun], key: str | None, ks: Sequence[int], strict: bool = False,
             ) -> tuple[list[SweepRun], str | None]:
    """The runs on the tasks they all have, and a note saying so (None when their task sets are
    the same, or the swept key chooses the tasks); ``strict``, or no task in common:
    :class:`SweepError` naming the difference. pass@k and its interval are recomputed on the
    common tasks."""
    sets = {r.task_ids for r in runs}
    if len(sets) <= 1 or key in TASK_KEYS:
        return list(runs), None
    common = sorted(set.intersection(*(set(s) for s in sets)))
    groups: dict[tuple[str, tuple[str, ...]], int] = {}
    for r in runs:  # one entry per series and task set
        groups[(r.model, r.task_ids)] = groups.get((r.model, r.task_ids), 0) + 1
    parts = []
    for (model, ids), count in groups.items():
        extra = sorted(set(ids) - set(common))
        more = f" (+{', '.join(extra[:4])}{'…' if len(extra) > 4 else ''})" if extra else ""
        parts.append(f"{model} ({count} run{'s' if count > 1 else ''}): {len(ids)} task(s){more}")
    diff = "; ".join(parts)
    if strict or not common:
        why = "share no task" if not common else "differ"
        raise SweepError(f"the runs' task sets {why}: {diff}" + ("" if not common else
                         "; without --strict the report keeps the tasks they all have"))
    from ibench.results.metrics import bootstrap_ci

    out = []
    for r in runs:
        per = r.per_task or {}
        pass_at: dict[int, float | None] = {}
        ci: dict[int, tuple[float, float] | None] = {}
        for k in ks:
            vals = [per.get(t, {}).get(k) for t in common]
            if any(v is None for v in vals):
                pass_at[k], ci[k] = None, None
                continue
            arr = np.array(vals, dtype=float)
            pass_at[k] = float(arr.mean())
            ci[k] = bootstrap_ci(arr, 1000, 0.95, np.random.default_rng(0))
        out.append(replace(r, pass_at=pass_at, ci=ci, n_tasks=len(common)))
    return out, f"restricted to the {len(common)} task(s) all runs have ({diff})"


def collect(dirs: Sequence[str | Path], param: str | None = None, tokens: bool = False) -> tuple[str | None, list[SweepRun]]:
    try:
        runs = [SweepRun.of(RunLog.open(d), tokens) for d in find_runs(dirs)]
    except ResultsError as e:
        raise SystemExit(str(e)) from None
    if not runs:
        raise SystemExit("no runs found (a run folder holds summary.json)")
    return place(runs, param)


def prepare(logs: Sequence[RunLog], ks: Sequence[int], param: str | None = None, tokens: bool = False,
            strict: bool = False) -> tuple[str | None, list[SweepRun], str | None]:
    """(the swept key, the runs placed and on a common task set, the note saying so) — what
    ``results sweep`` and the viewer's sweep page show."""
    key, placed = place([SweepRun.of(log, tokens) for log in logs], param)
    placed, note = restrict(placed, key, ks, strict)
    return key, placed, note


def rows(runs: Sequence[SweepRun], key: str | None, ks: Sequence[int]) -> list[dict[str, Any]]:
    out = []
    for r in runs:
        row: dict[str, Any] = {"model": r.model, key or "run": r.value}
        for k in ks:
            row[f"pass@{k}"] = r.pass_at.get(k)
            ci = r.ci.get(k)
            row[f"pass@{k}_ci_low"], row[f"pass@{k}_ci_high"] = (ci if ci else (None, None))
        row.update({"n_tasks": r.n_tasks, "n_samples": r.n_samples, "mean_tokens": r.mean_tokens,
                    "run_dir": str(r.run_dir)})
        out.append(row)
    return out


def plot(runs: Sequence[SweepRun], key: str | None, ks: Sequence[int], path: Path, x: str = "value") -> Path:
    """sweep.png/.pdf: one panel per k with a value in some run (no pass@5 panel when n < 5), one
    line per series; returns the PNG's path."""
    from ibench.results.figstyle import panels, save_figure, title

    ks = [k for k in ks if any(r.pass_at.get(k) is not None for r in runs)] or list(ks[:1])
    models = list(dict.fromkeys(r.model for r in runs))
    fig, axes = panels(len(ks), panel_size=(4.8, 3.8),
                       suptitle=f"pass@k vs {key or 'run'}" if x != "tokens" else "pass@k vs generated tokens")
    numeric_x = x == "tokens" or all(_num(r.value) is not None for r in runs)
    categories = list(dict.fromkeys(str(r.value) for r in sorted(runs, key=lambda r: _sort_key(r.value))))
    for ax, k in zip(axes, ks):
        for m in models:
            pts = []
            for r in runs:
                p = r.pass_at.get(k)
                if r.model != m or p is None:
                    continue
                if x == "tokens":
                    if r.mean_tokens is None:
                        continue
                    xv: Any = r.mean_tokens
                else:
                    xv = _num(r.value) if numeric_x else categories.index(str(r.value))
                ci = r.ci.get(k)
                pts.append((xv, 100 * p, ci))
            if not pts:
                continue
            pts.sort(key=lambda p: p[0])
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            line, = ax.plot(xs, ys, marker="o", label=m)
            lows = [100 * p[2][0] if p[2] else y for p, y in zip(pts, ys)]
            highs = [100 * p[2][1] if p[2] else y for p, y in zip(pts, ys)]
            ax.fill_between(xs, lows, highs, alpha=0.15, color=line.get_color())
        if x == "tokens":
            ax.set_xlabel("mean generated tokens per sample")
        else:
            ax.set_xlabel(key or "run")
            if numeric_x:
                vals = sorted({v for v in (_num(r.value) for r in runs) if v is not None})
                if len(vals) > 2 and vals[0] > 0 and vals[-1] / vals[0] >= 8:
                    ax.set_xscale("log", base=2)
                ax.set_xticks(vals)
                ax.set_xticklabels([f"{v:g}" for v in vals], rotation=30)
            else:
                ax.set_xticks(range(len(categories)))
                ax.set_xticklabels(categories, rotation=30, ha="right")
        ax.set_ylabel(f"pass@{k} (%)")
        title(ax, f"pass@{k}")
        ax.set_ylim(bottom=0)
    axes[0].legend(fontsize=8)
    return save_figure(fig, path.parent, path.stem)[0]


def _fmt(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) <= 1.0 else f"{v:.0f}"
    return str(v)


def write_table(table: list[dict[str, Any]], out: Path, note: str | None = None) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = out / "sweep.csv", out / "sweep.md"
    cols = list(table[0]) if table else []
    with open(csv_path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=cols)
        w.writeheader()
        w.writerows(table)
    shown = [c for c in cols if not c.endswith(("_ci_low", "_ci_high")) and c != "run_dir"]
    lines = ([f"Note: {note}", ""] if note else []) + ["| " + " | ".join(shown) + " |", "|" + "---|" * len(shown)]
    for r in table:
        lines.append("| " + " | ".join(_fmt(r[c]) for c in shown) + " |")
    md_path.write_text("\n".join(lines) + "\n")
    return csv_path, md_path


def render(table: list[dict[str, Any]], key: str | None, note: str | None = None, console: Any = None) -> None:
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"sweep over {key or 'runs'}", caption=note)
    shown = [c for c in (table[0] if table else {}) if not c.endswith(("_ci_low", "_ci_high")) and c != "run_dir"]
    for c in shown:
        t.add_column(c, justify="right" if c != "model" else "left")
    for r in table:
        t.add_row(*(_fmt(r[c]) for c in shown))
    (console or Console(width=max(100, min(200, 20 * len(shown))))).print(t)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ibench.results sweep", description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+", help="run folders, or folders above them (a sweep's output folder)")
    ap.add_argument("--param", help="the swept configuration key (default: the one that differs between runs)")
    ap.add_argument("--x", choices=["value", "tokens"], default="value",
                    help="x axis: the swept value, or mean generated tokens per sample")
    ap.add_argument("--ks", default="1,5", help="which pass@k to plot (default 1,5)")
    ap.add_argument("--out", help="output folder (default: <common folder>/sweep_report)")
    ap.add_argument("--strict", action="store_true",
                    help="refuse runs whose task sets differ (default: keep the tasks they all have, and say so)")
    args = ap.parse_args(list(sys.argv[1:] if argv is None else argv))
    ks = [int(k) for k in args.ks.split(",") if k.strip()]
    try:
        logs = [RunLog.open(d) for d in find_runs(args.dirs)]
        key, runs, note = prepare(logs, ks, args.param, tokens=True, strict=args.strict)
    except ResultsError as e:
        raise SystemExit(f"error: {e}") from None
    if not runs:
        raise SystemExit("no runs found (a run folder holds summary.json)")
    ks = [k for k in ks if any(r.pass_at.get(k) is not None for r in runs)] or ks[:1]  # no pass@5 of n < 5
    out = Path(args.out) if args.out else Path(os.path.commonpath([str(r.run_dir) for r in runs])) / "sweep_report"
    if len(runs) == 1 and not args.out:
        out = runs[0].run_dir / "sweep_report"
    table = rows(runs, key, ks)
    csv_path, md_path = write_table(table, out, note)
    png = plot(runs, key, ks, out / "sweep.png", x=args.x)
    render(table, key, note)
    print(f"wrote {png}, {csv_path}, {md_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
