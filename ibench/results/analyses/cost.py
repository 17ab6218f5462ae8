"""Cost: what a run spent (the computation is :mod:`ibench.results.cost`, shared with the summary
and the viewer) — prompt, completion and reasoning tokens, generation seconds (the
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

from ibench.results.analyses.common import AnalysisError, Run, show, write_csv
from ibench.results.cost import DEFAULT_PRICES, PriceError, cost_of_log
from ibench.results.cost import load_prices as _load_prices


def load_prices(path: str | Path | None = None) -> dict[str, dict[str, float]]:
    """:func:`ibench.results.cost.load_prices`, its errors as :class:`AnalysisError`."""
    try:
        return _load_prices(path)
    except PriceError as e:
        raise AnalysisError(str(e)) from None


def cost_row(run: Run, prices: dict[str, dict[str, float]]) -> dict[str, Any]:
    """One run's cost (:func:`ibench.results.cost.run_cost`): generation counts every stored
    sample of the run (all rounds: each refinement round was generated and paid for); judging,
    the judged ones."""
    row = cost_of_log(run.log, prices)
    row.pop("price_prompt_per_mtok", None)
    row.pop("price_completion_per_mtok", None)
    return {"run": run.label, **row}


def analyse(runs: Sequence[Run], out_dir: Path, console: Any, prices: str | Path | None = None) -> dict[str, Path]:
    table = load_prices(prices)
    rows = [cost_row(r, table) for r in runs]
    show(console, "Cost per sample and per solved task", [{k: v for k, v in r.items() if "/" in k or k in
                                                           ("run", "samples", "solved_tasks")} for r in rows])
    if not any("money" in r for r in rows):
        console.print(f"no price for these models in {prices or DEFAULT_PRICES}: tokens and seconds only", highlight=False, markup=False)
    return {"cost_csv": write_csv(rows, out_dir / "cost.csv")}
