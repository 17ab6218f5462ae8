"""What a run spent: tokens, generation seconds, judge CPU seconds — in total, per sample and per
solved task — and money where a price table prices the model (issue 31).

One computation for every place that shows it: the run's summary (``summary.json`` ``cost``,
the console report, W&B's ``cost/...`` summary keys), the results viewer's run page and
``python -m ibench.results analyse cost`` (:mod:`ibench.results.analyses.cost`).

- **Generation** counts every stored sample of the run (every refinement round was generated and
  paid for): prompt, completion and reasoning tokens (``reasoning`` is part of ``completion``), and
  generation seconds, the backend's latency per sample (``latency_s``; requests that ran
  concurrently each count their own, so this is not the run's wall time).
- **Judging** counts the judged samples: the solver CPU seconds the judge measured (the sum of
  ``cpu_ms`` over their cases) and the judge's wall seconds per sample (``judge_wall_s``,
  compiling included).
- Per sample: generation totals over samples, judging totals over judged samples. Per solved task:
  every total over the tasks with at least one accepted sample (None without one).
- **Money**: ``conf/prices.yaml`` (or a table given) maps a model name (its identity label or its
  ``model``) to ``prompt_per_mtok`` and ``completion_per_mtok`` in one currency; a model without an
  entry, or a run without token counts (the reference model), has no money figure. The table is a
  file of its own: the model configs are structured and take no unknown keys.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Mapping

import polars as pl

DEFAULT_PRICES = Path(__file__).resolve().parents[2] / "conf" / "prices.yaml"
TOTALS = ("prompt_tokens", "completion_tokens", "reasoning_tokens", "generation_s", "judge_cpu_s", "judge_wall_s",
          "money")
JUDGING = ("judge_cpu_s", "judge_wall_s")  # counted over judged samples; the rest over samples


class PriceError(ValueError):
    """A price table that cannot be read (one line, the file and the entry)."""


def load_prices(path: str | Path | None = None) -> dict[str, dict[str, float]]:
    """model name -> {"prompt_per_mtok", "completion_per_mtok"}; {} without a file (the default
    file may be absent; a file given that does not exist or holds a bad entry is an error)."""
    p = Path(path) if path else DEFAULT_PRICES
    if not p.is_file():
        if path:
            raise PriceError(f"--prices {p}: no such file")
        return {}
    from omegaconf import OmegaConf

    data = OmegaConf.to_container(OmegaConf.load(p), resolve=True) or {}
    if not isinstance(data, dict):
        raise PriceError(f"{p}: expected a mapping of model name to prices")
    out: dict[str, dict[str, float]] = {}
    for name, entry in data.items():
        name = str(name)
        try:
            out[name] = {k: float(entry[k]) for k in ("prompt_per_mtok", "completion_per_mtok")}  # type: ignore[index]
        except (KeyError, TypeError, ValueError):
            raise PriceError(f"{p}: {name}: expected prompt_per_mtok and completion_per_mtok (numbers)") from None
    return out


def price_for(prices: Mapping[str, dict[str, float]], names: Iterable[Any]) -> dict[str, float] | None:
    """The first of ``names`` (a run's label, its model) the table prices; None if none."""
    for n in names:
        if n is not None and str(n) in prices:
            return prices[str(n)]
    return None


def _sum(df: pl.DataFrame, col: str) -> float | None:
    if col not in df.columns:
        return None
    vals = df[col].drop_nulls()
    return float(vals.sum()) if len(vals) else None


def _per(total: float | None, count: int) -> float | None:
    return None if total is None or not count else total / count


def run_cost(samples: pl.DataFrame, verdicts: pl.DataFrame, cases: pl.DataFrame,
             price: Mapping[str, float] | None = None) -> dict[str, Any]:
    """A run's cost from its own samples, verdicts and cases (a :class:`~ibench.results.runlog.RunLog`'s
    ``current()``): counts, then ``<total>``, ``<total>/sample`` and ``<total>/solved_task`` for
    each of :data:`TOTALS` (money only with a price and token counts)."""
    if "sample_id" in cases.columns and "sample_id" in samples.columns:  # the cases of these samples only
        cases = cases.filter(pl.col("sample_id").is_in(samples["sample_id"].implode()))
    judged = verdicts.height
    ok = verdicts.filter(pl.col("verdict") == "OK") if judged else verdicts
    solved = ok["task_id"].n_unique() if ok.height else 0
    totals: dict[str, float | None] = {
        "prompt_tokens": _sum(samples, "prompt_tokens"), "completion_tokens": _sum(samples, "completion_tokens"),
        "reasoning_tokens": _sum(samples, "reasoning_tokens"), "generation_s": _sum(samples, "latency_s"),
        "judge_cpu_s": None if not cases.height else float(cases["cpu_ms"].sum()) / 1000.0,
        "judge_wall_s": _sum(verdicts, "judge_wall_s")}
    if price and totals["completion_tokens"] is not None:
        totals["money"] = (float(price["prompt_per_mtok"]) * (totals["prompt_tokens"] or 0.0)
                           + float(price["completion_per_mtok"]) * totals["completion_tokens"]) / 1e6
    out: dict[str, Any] = {"samples": samples.height, "judged": judged, "accepted": ok.height, "solved_tasks": solved}
    if price:
        out["price_prompt_per_mtok"] = float(price["prompt_per_mtok"])
        out["price_completion_per_mtok"] = float(price["completion_per_mtok"])
    for k, total in totals.items():
        out[k] = total
    for k, total in totals.items():
        out[f"{k}/sample"] = _per(total, judged if k in JUDGING else samples.height)
    for k, total in totals.items():
        out[f"{k}/solved_task"] = _per(total, solved)
    return out


def cost_of_log(log: Any, prices: Mapping[str, dict[str, float]] | None = None) -> dict[str, Any]:
    """:func:`run_cost` of a :class:`~ibench.results.runlog.RunLog` (its own keys), priced from
    ``prices`` (default: ``conf/prices.yaml``) by its label or model."""
    table = load_prices() if prices is None else prices
    ident = log.identity
    price = price_for(table, (ident.label, ident.recorded.get("model"), (log.summary or {}).get("model")))
    s, v, c = log.current()
    return run_cost(s, v, c, price)


def cost_of_store(store: Any, gen_key: str, judge_key: str, names: Iterable[Any],
                  prices: Mapping[str, dict[str, float]] | None = None) -> dict[str, Any]:
    """:func:`run_cost` of a run while its :class:`~ibench.results.store.RunStore` is open (the
    launch's summary): its gen key's samples, their verdicts and cases under its judge key;
    priced by the first of ``names`` (its label, its model) that ``prices`` (default
    ``conf/prices.yaml``; a table that cannot be read: no money, never a failed run) holds."""
    if prices is None:
        try:
            prices = load_prices()
        except PriceError:
            prices = {}
    s = store.table("samples").filter(pl.col("gen_key") == gen_key)
    v = store.table("verdicts").filter((pl.col("gen_key") == gen_key) & (pl.col("judge_key") == judge_key))
    c = store.table("cases").filter(pl.col("judge_key") == judge_key)
    return run_cost(s, v, c, price_for(prices, names))


def summary_cost(summary: Mapping[str, Any]) -> dict[str, Any] | None:
    """The ``cost`` a ``summary.json`` holds (None for one written before it had one)."""
    cost = summary.get("cost")
    return dict(cost) if cost else None


def cost_lines(cost: Mapping[str, Any]) -> list[tuple[str, str, str, str]]:
    """(what, total, per sample, per solved task) rows for a table, only those with a value."""
    names = {"prompt_tokens": "prompt tokens", "completion_tokens": "completion tokens",
             "reasoning_tokens": "  of which reasoning", "generation_s": "generation s (latency)",
             "judge_cpu_s": "judge CPU s (solver)", "judge_wall_s": "judge wall s", "money": "money"}

    def f(v: Any) -> str:
        if v is None:
            return "—"
        v = float(v)
        if v == 0:
            return "0"
        return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}" if abs(v) >= 0.001 else f"{v:.2e}"

    rows = []
    for k in TOTALS:
        if cost.get(k) is None:
            continue
        rows.append((names[k], f(cost.get(k)), f(cost.get(f"{k}/sample")), f(cost.get(f"{k}/solved_task"))))
    return rows
