"""``python -m ibench.results sweep DIR...``: pass@k against a swept setting, across a sweep's runs.

The shape of LiveOIBench's Figure 6(b) (pass rate against reasoning budget, one line per model):
each DIR is a run folder (``summary.json`` + ``config.resolved.yaml``, as ``ibench.launch``
writes them) or any folder above run folders (a sweep's ``outputs/sweeps``). The swept setting is
the configuration key whose value differs between runs (``--param`` names it; ``model.name``
separates the lines); ``--x tokens`` puts the mean generated tokens per sample on the x axis
instead (models' token efficiency).

Writes ``sweep.png``, ``sweep.csv`` and ``sweep.md`` to ``--out`` (default: ``sweep_report``
under the runs' common folder) and prints the table.
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

from ibench.results.runlog import ResultsError, RunLog, find_runs

# Keys that differ between runs without being what a sweep measures.
IGNORED_PREFIXES = ("paths.", "wandb.", "cluster.", "pipeline.", "metrics.", "report.", "hydra.", "resume",
                    "print_config",
                    "bench.tasks_dir", "model.replicas", "model.max_concurrency", "model.base_url",
                    "model.placement_timeout_s", "model.preflight")
SERIES_KEY = "model.name"


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

    @classmethod
    def of(cls, log: RunLog, tokens: bool = False) -> SweepRun:
        overall = log.summary.get("overall", {})
        return cls(run_dir=log.run_dir, model=log.label, config=flatten(log.config),
                   pass_at={int(k): v for k, v in (overall.get("pass_at") or {}).items()},
                   ci={int(k): (tuple(v) if v else None) for k, v in (overall.get("ci") or {}).items()},
                   n_tasks=int(log.summary.get("n_tasks", 0)), n_samples=int(log.summary.get("n_samples", 0)),
                   mean_tokens=log.mean_tokens() if tokens else None)


def flatten(d: Any, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    if isinstance(d, dict):
        for k, v in d.items():
            out.update(flatten(v, f"{prefix}{k}."))
    else:
        out[prefix[:-1]] = d if not isinstance(d, list) else json.dumps(d)
    return out


def swept_key(runs: Sequence[SweepRun], param: str | None = None) -> str | None:
    if param:
        return param
    keys = set().union(*(r.config for r in runs)) if runs else set()
    differing = []
    for k in sorted(keys):
        if k == SERIES_KEY or k.startswith(IGNORED_PREFIXES) or k.startswith("model."):
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
    """The swept key, and the runs with their value of it, by series and value."""
    key = swept_key(runs, param)
    placed = [replace(r, value=r.model if key == SERIES_KEY else (r.config.get(key) if key else r.run_dir.name))
              for r in runs]
    placed.sort(key=lambda r: (r.model, _sort_key(r.value)))
    return key, placed


def collect(dirs: Sequence[str | Path], param: str | None = None, tokens: bool = False) -> tuple[str | None, list[SweepRun]]:
    try:
        runs = [SweepRun.of(RunLog.open(d), tokens) for d in find_runs(dirs)]
    except ResultsError as e:
        raise SystemExit(str(e)) from None
    if not runs:
        raise SystemExit("no runs found (a run folder holds summary.json)")
    return place(runs, param)


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


def write_table(table: list[dict[str, Any]], out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = out / "sweep.csv", out / "sweep.md"
    cols = list(table[0]) if table else []
    with open(csv_path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=cols)
        w.writeheader()
        w.writerows(table)
    shown = [c for c in cols if not c.endswith(("_ci_low", "_ci_high")) and c != "run_dir"]
    lines = ["| " + " | ".join(shown) + " |", "|" + "---|" * len(shown)]
    for r in table:
        lines.append("| " + " | ".join(_fmt(r[c]) for c in shown) + " |")
    md_path.write_text("\n".join(lines) + "\n")
    return csv_path, md_path


def render(table: list[dict[str, Any]], key: str | None) -> None:
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"sweep over {key or 'runs'}")
    shown = [c for c in (table[0] if table else {}) if not c.endswith(("_ci_low", "_ci_high")) and c != "run_dir"]
    for c in shown:
        t.add_column(c, justify="right" if c != "model" else "left")
    for r in table:
        t.add_row(*(_fmt(r[c]) for c in shown))
    Console(width=max(100, min(200, 20 * len(shown)))).print(t)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ibench.results sweep", description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+", help="run folders, or folders above them (a sweep's output folder)")
    ap.add_argument("--param", help="the swept configuration key (default: the one that differs between runs)")
    ap.add_argument("--x", choices=["value", "tokens"], default="value",
                    help="x axis: the swept value, or mean generated tokens per sample")
    ap.add_argument("--ks", default="1,5", help="which pass@k to plot (default 1,5)")
    ap.add_argument("--out", help="output folder (default: <common folder>/sweep_report)")
    args = ap.parse_args(list(sys.argv[1:] if argv is None else argv))
    ks = [int(k) for k in args.ks.split(",") if k.strip()]
    key, runs = collect(args.dirs, args.param, tokens=True)
    ks = [k for k in ks if any(r.pass_at.get(k) is not None for r in runs)] or ks[:1]  # no pass@5 of n < 5
    out = Path(args.out) if args.out else Path(os.path.commonpath([str(r.run_dir) for r in runs])) / "sweep_report"
    if len(runs) == 1 and not args.out:
        out = runs[0].run_dir / "sweep_report"
    table = rows(runs, key, ks)
    csv_path, md_path = write_table(table, out)
    png = plot(runs, key, ks, out / "sweep.png", x=args.x)
    render(table, key)
    print(f"wrote {png}, {csv_path}, {md_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
