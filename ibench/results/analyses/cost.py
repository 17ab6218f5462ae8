"""Cost: what a run spent — prompt, completion and reasoning tokens, generation seconds (the
backend's latency per sample) and the solver CPU seconds the judge measured (the sum of its
cases' ``cpu_ms``; the judge's own wall seconds beside it) — in total, per judged sample, per
accepted sample and per solved task (a task with at least one accepted sample).

Money where a price is known: ``conf/prices.yaml`` (or ``--prices FILE``) maps a model's name
(its identity label or ``model``) to ``prompt_per_mtok`` and ``completion_per_mtok`` in one
currency; a model without an entry has no money column. The table is a file of its own (not a
field of ``conf/model/``): the model configs are structured and take no unknown keys.

Files: ``cost.csv``."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import polars as pl

from ibench.results.analyses.common import AnalysisError, Run, show, write_csv

DEFAULT_PRICES = Path(__file__).resolve().parents[3] / "conf" / "prices.yaml"


def load_prices(path: str | Path | None = None) -> dict[str, dict[str, float]]:
    """model name -> {"prompt_per_mtok", "completion_per_mtok"}; {} without a file (the default
    file may be absent; a file given that does not exist or holds a bad entry is an error)."""
    p = Path(path) if path else DEFAULT_PRICES
    if not p.is_file():
        if path:
            raise AnalysisError(f"--prices {p}: no such file")
        return {}
    from omegaconf import OmegaConf

    data = OmegaConf.to_container(OmegaConf.load(p), resolve=True) or {}
    if not isinstance(data, dict):
        raise AnalysisError(f"{p}: expected a mapping of model name to prices")
    out: dict[str, dict[str, float]] = {}
    for name, entry in data.items():
        name = str(name)
        try:
            out[name] = {k: float(entry[k]) for k in ("prompt_per_mtok", "completion_per_mtok")}  # type: ignore[index]
        except (KeyError, TypeError, ValueError):
            raise AnalysisError(f"{p}: {name}: expected prompt_per_mtok and completion_per_mtok (numbers)") from None
    return out


def _sum(df: pl.DataFrame, col: str) -> float | None:
    vals = df[col].drop_nulls()
    return float(vals.sum()) if len(vals) else None


def _per(total: float | None, count: int) -> float | None:
    return None if total is None or not count else total / count


def cost_row(run: Run, prices: dict[str, dict[str, float]]) -> dict[str, Any]:
    """One run's cost. Generation counts every stored sample of the run (all rounds: each
    refinement round was generated and paid for); judging, the judged ones."""
    s, v, c = run.log.current()
    judged = v.height
    accepted = int((v["verdict"] == "OK").sum()) if judged else 0
    solved = v.filter(pl.col("verdict") == "OK")["task_id"].n_unique() if judged else 0
    totals = {"prompt_tokens": _sum(s, "prompt_tokens"), "completion_tokens": _sum(s, "completion_tokens"),
              "reasoning_tokens": _sum(s, "reasoning_tokens"), "generation_s": _sum(s, "latency_s"),
              "judge_cpu_s": None if not c.height else float(c["cpu_ms"].sum()) / 1000.0,
              "judge_wall_s": _sum(v, "judge_wall_s")}
    ident = run.log.identity
    price = prices.get(ident.label) or prices.get(str(ident.recorded.get("model") or run.log.summary.get("model")))
    if price and totals["completion_tokens"] is not None:
        totals["money"] = (price["prompt_per_mtok"] * (totals["prompt_tokens"] or 0.0)
                           + price["completion_per_mtok"] * totals["completion_tokens"]) / 1e6
    row: dict[str, Any] = {"run": run.label, "samples": s.height, "judged": judged, "accepted": accepted,
                           "solved_tasks": solved}
    for k, total in totals.items():
        row[f"{k}"] = total
    for k, total in totals.items():
        row[f"{k}/sample"] = _per(total, s.height if not k.startswith("judge") else judged)
    for k, total in totals.items():
        row[f"{k}/solved_task"] = _per(total, solved)
    return row


def analyse(runs: Sequence[Run], out_dir: Path, console: Any, prices: str | Path | None = None) -> dict[str, Path]:
    table = load_prices(prices)
    rows = [cost_row(r, table) for r in runs]
    show(console, "Cost per sample and per solved task", [{k: v for k, v in r.items() if "/" in k or k in
                                                           ("run", "samples", "solved_tasks")} for r in rows])
    if not any("money" in r for r in rows):
        console.print(f"no price for these models in {prices or DEFAULT_PRICES}: tokens and seconds only", highlight=False, markup=False)
    return {"cost_csv": write_csv(rows, out_dir / "cost.csv")}
