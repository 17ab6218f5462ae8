"""A model's standing in one contest (:class:`ContestResult`): its total over the held tasks,
relative score, human percentile, medal and rating (:func:`score_contest`), and over many
contests (:func:`score_contests`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from ibench.results.contest_rating import RatingOptions, human_percentile, medal_for, model_rating
from ibench.results.contest_scores import EPS, TaskScore
from ibench.tasks.contest import ContestInfo, Contestant, as_float


@dataclass(frozen=True)
class ContestResult:
    """A model's standing in one contest.

    ``total`` over the held tasks; ``max_total`` their available points; ``relative_score`` and
    ``percentile`` in %; ``medal`` Gold/Silver/Bronze/"None" (None: not determinable);
    ``basis``: how human totals were formed ("tasks": held-task columns, "official_total");
    ``missing_results``: held tasks the model had no result for (scored 0).
    """

    contest_id: str
    competition: str
    division: str | None
    total: float
    max_total: float
    relative_score: float | None
    percentile: float | None
    medal: str | None
    rating: float | None
    expected_rank: float | None
    n_contestants: int
    n_rated: int
    tasks: int
    solved: int
    complete: bool
    basis: str
    task_points: Mapping[str, float] = field(default_factory=dict)
    missing_results: tuple[str, ...] = ()


def score_contest(
    contest: ContestInfo,
    task_scores: Mapping[str, TaskScore | float],
    *,
    rating: RatingOptions = RatingOptions(),
    partial_medal: str = "lower_bound",
) -> ContestResult:
    """Score a model on one contest from its per-task results (``TaskScore`` or plain points).

    Held tasks without a result score 0 and are listed in ``missing_results``. See the module
    docstring for how partial contests are treated (``partial_medal``: "lower_bound" | "skip").
    """
    if partial_medal not in ("lower_bound", "skip"):
        raise ValueError("partial_medal must be 'lower_bound' or 'skip'")
    held = [p for p in (contest.held or contest.problems)]
    points: dict[str, float] = {}
    solved = 0
    missing = []
    for pid in held:
        ts = task_scores.get(pid)
        if ts is None:
            missing.append(pid)
            points[pid] = 0.0
            continue
        if isinstance(ts, TaskScore):
            points[pid] = ts.points
            solved += int(ts.solved)
        else:
            points[pid] = float(ts)
            mx = contest.max_scores.get(pid)
            solved += int(mx is not None and mx > 0 and float(ts) >= mx - EPS)
    total = sum(points.values())
    max_total = sum(contest.max_scores.get(p, 0.0) for p in held)
    relative = 100.0 * total / max_total if max_total > 0 else None

    # Human totals on the same tasks as the model.
    found = [contest.task_columns.get(p) for p in held]
    columns = [col for col in found if col]
    human: list[tuple[float, Contestant]]
    if held and len(columns) == len(found):
        basis = "tasks"
        human = [(sum(as_float(c.scores.get(col)) or 0.0 for col in columns), c) for c in contest.contestants]
    else:
        basis = "official_total"
        human = [(c.total, c) for c in contest.contestants if c.total is not None]
    human_totals = [h for h, _ in human]
    percentile = human_percentile(total, human_totals)

    complete = contest.complete
    medal = None
    if complete or partial_medal == "lower_bound":
        medal = medal_for(total, contest.cutoffs)

    pairs = [(h, c.cf_rating) for h, c in human if c.cf_rating is not None]
    r, n_rated, m = model_rating(total, pairs, rating)

    return ContestResult(
        contest_id=contest.contest_id,
        competition=contest.competition,
        division=contest.division,
        total=total,
        max_total=max_total,
        relative_score=relative,
        percentile=percentile,
        medal=medal,
        rating=r,
        expected_rank=m,
        n_contestants=len(human_totals),
        n_rated=n_rated,
        tasks=len(held),
        solved=solved,
        complete=complete,
        basis=basis,
        task_points=points,
        missing_results=tuple(missing),
    )


def score_contests(
    contests: Mapping[str, ContestInfo] | Iterable[ContestInfo],
    task_scores: Mapping[str, TaskScore | float],
    *,
    only_attempted: bool = True,
    rating: RatingOptions = RatingOptions(),
    partial_medal: str = "lower_bound",
) -> list[ContestResult]:
    """Score every contest; with ``only_attempted`` skip contests where the model has no result
    for any held task (e.g. a run over a subset of the benchmark)."""
    items = contests.values() if isinstance(contests, Mapping) else contests
    out = []
    for c in sorted(items, key=lambda c: c.contest_id):
        held = c.held or c.problems
        if only_attempted and not any(p in task_scores for p in held):
            continue
        out.append(score_contest(c, task_scores, rating=rating, partial_medal=partial_medal))
    return out
