"""Contest results aggregated (overall, per competition, division or contest) and laid out
like the LiveOIBench paper's Table 2: Gold %, Medals %, Relative Score %, Human Percentile %,
Pass Rate %, Elo."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from ibench.results.contest_standing import ContestResult
from ibench.tasks.contest import MEDALS


@dataclass(frozen=True)
class Aggregate:
    """Figures over a group of contests (all in %, rating in points; None when undefined)."""

    contests: int
    tasks: int
    gold_pct: float | None
    silver_pct: float | None
    bronze_pct: float | None
    medal_pct: float | None
    relative_score: float | None
    percentile: float | None
    pass_rate: float | None
    rating: float | None
    medal_contests: int
    rated_contests: int


def aggregate_results(results: Sequence[ContestResult]) -> Aggregate:
    """Aggregate contest results: medal shares over contests with medal information, means of
    relative score / percentile / rating over contests that have them, pass rate pooled over
    tasks."""
    medals = [r.medal for r in results if r.medal is not None]
    n_medal = len(medals)

    def pct(names: Iterable[str]) -> float | None:
        if not n_medal:
            return None
        return 100.0 * sum(1 for m in medals if m in set(names)) / n_medal

    rel = [r.relative_score for r in results if r.relative_score is not None]
    perc = [r.percentile for r in results if r.percentile is not None]
    ratings = [r.rating for r in results if r.rating is not None]
    tasks = sum(r.tasks for r in results)
    return Aggregate(
        contests=len(results),
        tasks=tasks,
        gold_pct=pct(["Gold"]),
        silver_pct=pct(["Silver"]),
        bronze_pct=pct(["Bronze"]),
        medal_pct=pct(MEDALS),
        relative_score=_mean(rel),
        percentile=_mean(perc),
        pass_rate=100.0 * sum(r.solved for r in results) / tasks if tasks else None,
        rating=_mean(ratings),
        medal_contests=n_medal,
        rated_contests=len(ratings),
    )


def aggregate(results: Sequence[ContestResult], by: str | None = None) -> dict[str, Aggregate]:
    """Aggregates overall (``by=None``: key ``"all"``) or per ``"competition"`` / ``"division"``
    / ``"contest"``."""
    if by is None:
        return {"all": aggregate_results(results)}
    if by not in ("competition", "division", "contest"):
        raise ValueError("by must be None, 'competition', 'division' or 'contest'")
    groups: dict[str, list[ContestResult]] = defaultdict(list)
    for r in results:
        key = {"competition": r.competition, "division": r.division, "contest": r.contest_id}[by]
        groups[str(key)].append(r)
    return {k: aggregate_results(v) for k, v in sorted(groups.items())}


LEADERBOARD_COLUMNS = (
    "Model",
    "Gold (%)",
    "Medals (%)",
    "Relative Score (%)",
    "Human Percentile (%)",
    "Pass Rate (%)",
    "Elo",
)


def leaderboard_rows(per_model: Mapping[str, Aggregate | Sequence[ContestResult]]) -> list[dict[str, Any]]:
    """Rows of the Table-2-style leaderboard, best human percentile first."""
    rows: list[dict[str, Any]] = []
    for model, value in per_model.items():
        agg = value if isinstance(value, Aggregate) else aggregate_results(value)
        rows.append(
            {
                "Model": model,
                "Gold (%)": _r(agg.gold_pct),
                "Medals (%)": _r(agg.medal_pct),
                "Relative Score (%)": _r(agg.relative_score),
                "Human Percentile (%)": _r(agg.percentile),
                "Pass Rate (%)": _r(agg.pass_rate),
                "Elo": None if agg.rating is None else int(round(agg.rating)),
            }
        )
    rows.sort(key=lambda r: (-(r["Human Percentile (%)"] or -1.0), r["Model"]))
    return rows


def leaderboard(per_model: Mapping[str, Aggregate | Sequence[ContestResult]]) -> Any:
    """The leaderboard as a polars DataFrame (columns :data:`LEADERBOARD_COLUMNS`)."""
    import polars as pl

    rows = leaderboard_rows(per_model)
    schema = {
        "Model": pl.Utf8,
        "Gold (%)": pl.Float64,
        "Medals (%)": pl.Float64,
        "Relative Score (%)": pl.Float64,
        "Human Percentile (%)": pl.Float64,
        "Pass Rate (%)": pl.Float64,
        "Elo": pl.Int64,
    }
    return pl.DataFrame(rows, schema=schema)


def format_leaderboard(per_model: Mapping[str, Aggregate | Sequence[ContestResult]]) -> str:
    """The leaderboard as a Markdown table (missing figures shown as "–")."""
    rows = leaderboard_rows(per_model)
    lines = ["| " + " | ".join(LEADERBOARD_COLUMNS) + " |", "|" + "---|" * len(LEADERBOARD_COLUMNS)]
    for row in rows:
        cells = []
        for col in LEADERBOARD_COLUMNS:
            v = row[col]
            cells.append("–" if v is None else (f"{v:.2f}" if isinstance(v, float) else str(v)))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _mean(xs: Sequence[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 2)
