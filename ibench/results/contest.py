"""Contest scoring against human contestants (SPEC §6, LiveOIBench).

Pure functions and frozen dataclasses. The inputs are

* the contest metadata written by the LiveOIBench importer to ``<benchmark root>/contests.json``
  (:func:`load_contests`), and
* the model's per-task, per-sample results: plain lists (:func:`best_task_score`,
  :func:`ioi_task_score`) or a polars DataFrame from the results store
  (:func:`task_scores_from_frame`).

For every contest :func:`score_contest` gives the model's total, relative score, human
percentile, medal and Codeforces-style rating; :func:`aggregate` averages contests per
competition, per division or overall, and :func:`leaderboard` lays the aggregates out like the
LiveOIBench paper's Table 2 (Gold %, Medals %, Relative Score %, Human Percentile %,
Pass Rate %, Elo).

Choices (each one is repeated in the docstring of the function that makes it):

* **Task score.** Per task, the best submission (the paper samples 8 solutions and keeps the
  one with the highest score). As an option (``rule="ioi"``), the IOI rule: per subtask the
  best score over all submissions, summed.
* **Relative score** = the model's total / the maximum points of the contest's tasks that the
  benchmark holds, in percent. The reference implementation averages per-task relative scores
  instead; the two agree whenever all tasks are worth the same (e.g. 100 points each).
* **Human percentile** = share of contestants whose total is *strictly* below the model's.
* **Partial contests** (the benchmark holds only some of a contest's tasks, e.g. output-only
  tasks were dropped): every human total is recomputed over the columns of the held tasks only,
  so model and humans are compared on the same problems; percentile and rating use these
  totals. Medal cut-offs are official full-contest figures and cannot be restated per task: by
  default (``partial_medal="lower_bound"``) the model's total over the held tasks (the tasks it
  was not given count 0, so the total is a lower bound of its full-contest total) is compared
  with the official cut-offs, which is what the LiveOIBench evaluation code does;
  ``partial_medal="skip"`` reports no medal for a partial contest, and the contest then leaves
  the denominator of the medal percentages. :class:`ContestResult` says ``complete`` and
  ``basis`` so a reader can tell the cases apart. If a held task has no column in the human
  ranking, the comparison falls back to the official ``Total`` (``basis="official_total"``).
* **Rating** (Codeforces-style, CodeElo formula): the rating r solves
  ``m = Σᵢ 1 / (1 + 10^((r − rᵢ)/400))`` over contestants i with a known rating rᵢ, where the
  model's expected rank m is the number of those rated contestants whose (comparison) total is
  *strictly greater* than the model's, i.e. its rank among them is m + 1 with ties resolved in
  the model's favour; this is the Codeforces seed ``1 + Σ …`` set equal to the rank, as in the
  LiveOIBench evaluation code. The sum falls strictly from n to 0 as r grows, so for 0 < m < n
  the root is unique and lies in ``[min rᵢ + c, max rᵢ + c]`` with ``c = 400·log10(n/m − 1)``;
  it is found by bisection on that bracket to 1e-6. A model above every rated contestant
  (m = 0) or below all of them (m = n) has no finite root; it is rated as if half a contestant
  were expected above it (m = 0.5), resp. below it (m = n − 0.5), which keeps the rating
  monotone in the total. ``RatingOptions(paper_bounds=True)`` instead bisects on
  ``[0, max rᵢ + 100]`` like the LiveOIBench code, whose cap then also clips true roots above
  max rᵢ + 100 (e.g. four contestants rated 1600 and m = 1: the root is 1790.8, the capped
  search returns 1700); the code also stops at a 1-point bracket and truncates, so its figures
  can sit up to 1 point lower. A model that scores nothing therefore gets 0 from that search
  (its lower bound; the 500 below is a filter on the contestants, never a bound of the
  search). Before solving, the paper's filters apply: ratings below 500
  (which includes the 0 / −1000 placeholders) are dropped, then results more than 2 standard
  deviations from a cubic fit of rating on score, and contests with fewer than 15 remaining
  rated contestants get no rating. Each filter is a parameter of :class:`RatingOptions`. (The
  LiveOIBench code itself drops only the 0 / −1000 placeholders and applies neither the
  outlier fit nor the minimum count; ``RatingOptions(min_rating=1, outlier_sigma=None,
  min_rated=1, paper_bounds=True)`` comes closest to it, for contestants rated 1 or more.)
* **Aggregates**: Gold % and Medals % over the contests that have medal information;
  relative score, percentile and rating are means over contests (rating over the contests that
  have one); pass rate is pooled over tasks (solved tasks / tasks), a task being solved when one
  submission alone is fully correct.
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

MEDALS: tuple[str, ...] = ("Gold", "Silver", "Bronze")
CONTESTS_FILE = "contests.json"
_EPS = 1e-9


# --------------------------------------------------------------------------------------------
# Contest metadata
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Contestant:
    """One row of a contest's human ranking. ``scores`` maps the ranking's task column to points."""

    name: str
    total: float | None
    scores: Mapping[str, float | None] = field(default_factory=dict)
    rank: int | None = None
    country: str | None = None
    medal: str | None = None
    cf_rating: float | None = None


@dataclass(frozen=True)
class ContestInfo:
    """A contest with its official cut-offs and human results.

    ``problems``: every task of the contest (problem ids); ``held``: those the benchmark holds
    (the tasks a model is scored on); ``task_columns``: problem id -> column of the human
    ranking with that task's points (absent when none matched); ``max_scores``: problem id ->
    points available (sum of its subtask scores).
    """

    contest_id: str
    competition: str = ""
    date: str | None = None
    division: str | None = None
    gold_cutoff: float | None = None
    silver_cutoff: float | None = None
    bronze_cutoff: float | None = None
    num_contestants: int | None = None
    problems: tuple[str, ...] = ()
    held: tuple[str, ...] = ()
    task_columns: Mapping[str, str] = field(default_factory=dict)
    max_scores: Mapping[str, float] = field(default_factory=dict)
    contestants: tuple[Contestant, ...] = ()

    @property
    def complete(self) -> bool:
        """True when the benchmark holds every task of the contest."""
        return set(self.problems) <= set(self.held)

    @property
    def cutoffs(self) -> tuple[tuple[str, float], ...]:
        out = []
        for name, value in zip(MEDALS, (self.gold_cutoff, self.silver_cutoff, self.bronze_cutoff)):
            if value is not None:
                out.append((name, float(value)))
        return tuple(out)

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> "ContestInfo":
        contestants = tuple(
            Contestant(
                name=str(c.get("name", "")),
                total=_num(c.get("total")),
                scores={str(k): _num(v) for k, v in (c.get("scores") or {}).items()},
                rank=_int(c.get("rank")),
                country=c.get("country"),
                medal=c.get("medal"),
                cf_rating=_num(c.get("cf_rating")),
            )
            for c in d.get("contestants") or ()
        )
        return ContestInfo(
            contest_id=str(d["contest_id"]),
            competition=str(d.get("competition") or ""),
            date=d.get("date"),
            division=None if d.get("division") is None else str(d.get("division")),
            gold_cutoff=_num(d.get("gold_cutoff")),
            silver_cutoff=_num(d.get("silver_cutoff")),
            bronze_cutoff=_num(d.get("bronze_cutoff")),
            num_contestants=_int(d.get("num_contestants")),
            problems=tuple(d.get("problems") or ()),
            held=tuple(d.get("held") or ()),
            task_columns=dict(d.get("task_columns") or {}),
            max_scores={k: float(v) for k, v in (d.get("max_scores") or {}).items()},
            contestants=contestants,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "contest_id": self.contest_id,
            "competition": self.competition,
            "date": self.date,
            "division": self.division,
            "gold_cutoff": self.gold_cutoff,
            "silver_cutoff": self.silver_cutoff,
            "bronze_cutoff": self.bronze_cutoff,
            "num_contestants": self.num_contestants,
            "problems": list(self.problems),
            "held": list(self.held),
            "task_columns": dict(self.task_columns),
            "max_scores": dict(self.max_scores),
            "contestants": [
                {
                    "rank": c.rank,
                    "name": c.name,
                    "country": c.country,
                    "total": c.total,
                    "medal": c.medal,
                    "cf_rating": c.cf_rating,
                    "scores": dict(c.scores),
                }
                for c in self.contestants
            ],
        }


def load_contests(root: str | Path) -> dict[str, ContestInfo]:
    """Contests of an imported benchmark: ``root/contests.json`` (or that file itself)."""
    path = Path(root)
    if path.is_dir():
        path = path / CONTESTS_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    items = data["contests"] if isinstance(data, dict) else data
    out = {}
    for item in items:
        info = ContestInfo.from_dict(item)
        out[info.contest_id] = info
    return out


def write_contests(path: str | Path, contests: Iterable[ContestInfo], source: str = "") -> None:
    """Write contests in the shape :func:`load_contests` reads (stable order, no timestamps)."""
    items = sorted(contests, key=lambda c: c.contest_id)
    payload = {"source": source, "contests": [c.to_dict() for c in items]}
    Path(path).write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


# --------------------------------------------------------------------------------------------
# Per-task scores from samples
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TaskScore:
    """The model's result on one task: ``points`` out of ``max_points``; ``solved`` when one
    submission alone earned everything (the pass-rate criterion)."""

    points: float
    solved: bool
    samples: int = 0


def sample_points(score: float | None, verdict: str | None = None, max_points: float | None = None) -> float:
    """Points of one submission: its score; an unscored accepted submission earns the task's
    maximum (or 1 when unknown), an unscored other one 0."""
    if score is not None and not (isinstance(score, float) and math.isnan(score)):
        return float(score)
    if verdict == "OK":
        return float(max_points) if max_points is not None else 1.0
    return 0.0


def best_task_score(
    scores: Sequence[float | None],
    verdicts: Sequence[str | None] | None = None,
    max_points: float | None = None,
) -> TaskScore:
    """Best-submission rule (the paper's): the highest score over the task's samples.

    Samples the judge could not grade (verdict ``SE``) are left out: a judge error is never
    charged to the model, and such samples are meant to be re-judged. No samples -> 0 points.
    """
    verdicts = list(verdicts) if verdicts is not None else [None] * len(scores)
    pts = [sample_points(s, v, max_points) for s, v in zip(scores, verdicts) if v != "SE"]
    best = max(pts, default=0.0)
    return TaskScore(points=best, solved=_solved(pts, verdicts, max_points), samples=len(pts))


def ioi_task_score(
    subtask_scores: Sequence[Mapping[str, float] | None],
    scores: Sequence[float | None] | None = None,
    verdicts: Sequence[str | None] | None = None,
    max_points: float | None = None,
) -> TaskScore:
    """IOI rule: for every subtask the best points over all submissions, summed.

    ``subtask_scores[j]`` maps subtask id -> points earned by sample j (as
    ``SampleResult.subtask_scores``). A sample without a breakdown contributes its total through
    the best-submission figure: the result is ``max(Σ_subtask max, best single total)``, which
    equals the IOI sum whenever breakdowns are present. ``SE`` samples are left out.
    """
    n = len(subtask_scores)
    verdicts = list(verdicts) if verdicts is not None else [None] * n
    scores = list(scores) if scores is not None else [None] * n
    per_subtask: dict[str, float] = {}
    for sub, v in zip(subtask_scores, verdicts):
        if v == "SE" or not sub:
            continue
        for key, value in sub.items():
            if value is None:
                continue
            per_subtask[str(key)] = max(per_subtask.get(str(key), 0.0), float(value))
    totals = []
    for s, sub, v in zip(scores, subtask_scores, verdicts):
        if v == "SE":
            continue
        if s is None and sub:
            s = sum(float(x) for x in sub.values() if x is not None)
        totals.append(sample_points(s, v, max_points))
    points = max(sum(per_subtask.values()), max(totals, default=0.0))
    return TaskScore(points=points, solved=_solved(totals, verdicts, max_points), samples=len(totals))


def _solved(points: Sequence[float], verdicts: Sequence[str | None], max_points: float | None) -> bool:
    if any(v == "OK" for v in verdicts):
        return True
    if max_points is not None and max_points > 0:
        return any(p >= max_points - _EPS for p in points)
    return False


def task_scores_from_frame(
    df: Any,
    rule: str = "best",
    max_scores: Mapping[str, float] | None = None,
    *,
    model_col: str = "model",
    problem_col: str = "problem_id",
    score_col: str = "score",
    subtask_col: str = "subtask_scores",
    verdict_col: str = "verdict",
) -> dict[str, dict[str, TaskScore]]:
    """Reduce a results-store frame (one row per sample) to ``{model: {problem_id: TaskScore}}``.

    ``df`` is a polars DataFrame (or anything with ``to_dicts()`` / an iterable of dicts) with a
    problem column (``problem_id``, or ``task``), ``score`` and optionally ``model``
    (default ``""``), ``verdict`` and ``subtask_scores`` (a dict, a struct or a JSON string).
    ``rule`` is ``"best"`` or ``"ioi"``.
    """
    if rule not in ("best", "ioi"):
        raise ValueError(f"rule must be 'best' or 'ioi', not {rule!r}")
    rows = df.to_dicts() if hasattr(df, "to_dicts") else list(df)
    if rows and problem_col not in rows[0] and "task" in rows[0]:
        problem_col = "task"
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for row in rows:
        groups[(str(row.get(model_col) or ""), str(row[problem_col]))].append(row)
    out: dict[str, dict[str, TaskScore]] = defaultdict(dict)
    for (model, pid), samples in sorted(groups.items()):
        max_points = (max_scores or {}).get(pid)
        scores = [_num(r.get(score_col)) for r in samples]
        verdicts = [_verdict(r.get(verdict_col)) for r in samples]
        if rule == "ioi":
            subs = [_subtask_map(r.get(subtask_col)) for r in samples]
            out[model][pid] = ioi_task_score(subs, scores, verdicts, max_points)
        else:
            out[model][pid] = best_task_score(scores, verdicts, max_points)
    return dict(out)


def task_scores_from_verdicts(
    df: Any, rule: str = "best", max_scores: Mapping[str, float] | None = None
) -> dict[str, dict[str, TaskScore]]:
    """Per-task scores from the results store's ``verdicts`` table
    (``ibench.results.store.read_table(run_dir, "verdicts")``): ``task_id``, ``model``, ``score``,
    ``verdict``, and the subtask scores inside ``result_json``."""
    rows = []
    for r in df.to_dicts() if hasattr(df, "to_dicts") else df:
        subs = None
        try:
            subs = json.loads(r.get("result_json") or "{}").get("subtask_scores") or None
        except (json.JSONDecodeError, AttributeError):
            subs = None
        rows.append({"model": r.get("model"), "problem_id": r["task_id"], "score": r.get("score"),
                     "verdict": r.get("verdict"), "subtask_scores": subs})
    return task_scores_from_frame(rows, rule, max_scores)


# --------------------------------------------------------------------------------------------
# Human comparison
# --------------------------------------------------------------------------------------------


def human_percentile(model_total: float, human_totals: Sequence[float]) -> float | None:
    """Share (in %) of contestants whose total is strictly below the model's; None if none."""
    if not human_totals:
        return None
    below = sum(1 for h in human_totals if h < model_total - _EPS)
    return 100.0 * below / len(human_totals)


def medal_for(total: float, cutoffs: Sequence[tuple[str, float]]) -> str | None:
    """The best medal whose cut-off the total reaches (``>=``), ``"None"`` when cut-offs exist
    but none is reached, ``None`` when the contest has no cut-offs."""
    if not cutoffs:
        return None
    for name, cutoff in sorted(cutoffs, key=lambda nc: MEDALS.index(nc[0])):
        if total >= cutoff - _EPS:
            return name
    return "None"


def expected_rank_sum(r: float, ratings: Sequence[float]) -> float:
    """Σᵢ 1 / (1 + 10^((r − rᵢ)/400)): the expected number of rated contestants above rating r."""
    total = 0.0
    for ri in ratings:
        x = (r - ri) / 400.0
        total += 0.0 if x > 300 else 1.0 / (1.0 + 10.0**x)
    return total


def solve_rating(
    m: float,
    ratings: Sequence[float],
    lo: float | None = None,
    hi: float | None = None,
    tol: float = 1e-6,
) -> float | None:
    """The rating r with ``expected_rank_sum(r, ratings) == m``, by bisection.

    Without bounds: the exact root, searched on ``[min rᵢ + c, max rᵢ + c]`` with
    ``c = 400·log10(n/m − 1)`` (the sum is ≥ m at the left end and ≤ m at the right end); m is
    first clamped to ``[0.5, n − 0.5]`` since m = 0 and m = n have no finite root. With bounds
    (the LiveOIBench code uses ``lo = 0, hi = max rᵢ + 100``): the root clamped to them.
    """
    if not ratings:
        return None
    n = len(ratings)
    if lo is None and hi is None:
        m = min(max(float(m), 0.5), n - 0.5) if n > 1 else 0.5
        c = 400.0 * math.log10(n / m - 1.0)
        lo, hi = min(ratings) + c - 1.0, max(ratings) + c + 1.0
    else:
        lo = 0.0 if lo is None else float(lo)
        hi = max(ratings) + 100.0 if hi is None else float(hi)
        if expected_rank_sum(hi, ratings) >= m:
            return hi
        if expected_rank_sum(lo, ratings) <= m:
            return lo
    while hi - lo > tol:
        mid = (lo + hi) / 2.0
        if expected_rank_sum(mid, ratings) > m:
            lo = mid  # too many expected above: the rating must be higher
        else:
            hi = mid
    return (lo + hi) / 2.0


@dataclass(frozen=True)
class RatingOptions:
    """Filters applied to the human ratings before a model's rating is solved (LiveOIBench §A.4):
    drop ratings below ``min_rating``; drop results further than ``outlier_sigma`` standard
    deviations from a cubic fit of rating on score (None: keep all); give no rating when fewer
    than ``min_rated`` contestants remain. ``paper_bounds``: search on ``[0, max rating + 100]``
    as the LiveOIBench code does (clamping), instead of solving for the exact root."""

    min_rating: float = 500.0
    outlier_sigma: float | None = 2.0
    min_rated: int = 15
    paper_bounds: bool = False


def filter_rated(
    pairs: Sequence[tuple[float, float]], options: RatingOptions = RatingOptions()
) -> list[tuple[float, float]]:
    """(score, rating) pairs that survive the rating filters of ``options`` (before min_rated)."""
    kept = [(s, r) for s, r in pairs if r is not None and r >= options.min_rating]
    if options.outlier_sigma is not None and len(kept) > 4:
        xs = [s for s, _ in kept]
        ys = [r for _, r in kept]
        coeffs = _polyfit(xs, ys, 3)
        resid = [y - _polyval(coeffs, x) for x, y in zip(xs, ys)]
        mean = sum(resid) / len(resid)
        sd = math.sqrt(sum((e - mean) ** 2 for e in resid) / len(resid))
        if sd > 0:
            kept = [p for p, e in zip(kept, resid) if abs(e - mean) <= options.outlier_sigma * sd + _EPS]
    return kept


def model_rating(
    model_total: float, pairs: Sequence[tuple[float, float]], options: RatingOptions = RatingOptions()
) -> tuple[float | None, int, float | None]:
    """(rating, number of rated contestants used, expected rank m) for a model total against
    ``pairs`` of (contestant score, contestant rating). m = rated contestants strictly above."""
    kept = filter_rated(pairs, options)
    if len(kept) < max(1, options.min_rated):
        return None, len(kept), None
    m = float(sum(1 for s, _ in kept if s > model_total + _EPS))
    ratings = [r for _, r in kept]
    if options.paper_bounds:
        rating = solve_rating(m, ratings, 0.0, max(ratings) + 100.0)
    else:
        rating = solve_rating(m, ratings)
    return rating, len(kept), m


# --------------------------------------------------------------------------------------------
# One contest
# --------------------------------------------------------------------------------------------


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
            solved += int(mx is not None and mx > 0 and float(ts) >= mx - _EPS)
    total = sum(points.values())
    max_total = sum(contest.max_scores.get(p, 0.0) for p in held)
    relative = 100.0 * total / max_total if max_total > 0 else None

    # Human totals on the same tasks as the model.
    columns = [contest.task_columns.get(p) for p in held]
    if held and all(columns):
        basis = "tasks"
        human = [(sum(_num(c.scores.get(col)) or 0.0 for col in columns), c) for c in contest.contestants]
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


# --------------------------------------------------------------------------------------------
# Aggregation and the leaderboard
# --------------------------------------------------------------------------------------------


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
    rows = []
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


# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------


def normalize_name(value: str) -> str:
    """Lower-case alphanumerics only: how task names are matched with ranking columns."""
    return re.sub(r"[^a-z0-9]", "", str(value).lower())


def _num(v: Any) -> float | None:
    if v is None or isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return None if isinstance(v, float) and math.isnan(v) else float(v)
    try:
        f = float(str(v).strip())
    except ValueError:
        return None
    return None if math.isnan(f) else f


def _int(v: Any) -> int | None:
    f = _num(v)
    return None if f is None else int(f)


def _verdict(v: Any) -> str | None:
    if v is None:
        return None
    return str(getattr(v, "value", v)).upper()


def _subtask_map(v: Any) -> dict[str, float] | None:
    if v is None:
        return None
    if isinstance(v, str):
        v = json.loads(v) if v.strip() else None
    if isinstance(v, Mapping):
        return {str(k): float(x) for k, x in v.items() if x is not None}
    if isinstance(v, list):  # polars list of {key, value} structs
        return {str(e["key"]): float(e["value"]) for e in v if e.get("value") is not None}
    return None


def _mean(xs: Sequence[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 2)


def _polyfit(xs: Sequence[float], ys: Sequence[float], deg: int) -> list[float]:
    """Least-squares polynomial coefficients (lowest power first) on x scaled to [-1, 1]."""
    lo, hi = min(xs), max(xs)
    c, s = (lo + hi) / 2.0, (hi - lo) / 2.0 or 1.0
    us = [(x - c) / s for x in xs]
    n = deg + 1
    a = [[sum(u ** (i + j) for u in us) for j in range(n)] for i in range(n)]
    b = [sum(y * u**i for u, y in zip(us, ys)) for i in range(n)]
    # Gaussian elimination with partial pivoting; singular systems degrade gracefully.
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[piv] = a[piv], a[col]
        b[col], b[piv] = b[piv], b[col]
        if abs(a[col][col]) < 1e-12:
            continue
        for r in range(n):
            if r != col:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
                b[r] -= f * b[col]
    coeffs = [b[i] / a[i][i] if abs(a[i][i]) >= 1e-12 else 0.0 for i in range(n)]
    return [c, s] + coeffs


def _polyval(fit: Sequence[float], x: float) -> float:
    c, s, *coeffs = fit
    u = (x - c) / s
    return sum(k * u**i for i, k in enumerate(coeffs))


# --------------------------------------------------------------------------------------------
# CLI: python -m ibench.results.contest --bench DIR RUN_DIR [RUN_DIR ...]
# --------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(
        prog="python -m ibench.results.contest",
        description="Score evaluation runs against the human contestants of an imported LiveOIBench "
                    "benchmark and print a leaderboard like the paper's Table 2.")
    p.add_argument("--bench", type=Path, required=True, help="imported benchmark root (holds contests.json)")
    p.add_argument("runs", nargs="+", type=Path, help="run folders of ibench.launch (or their results/ store)")
    p.add_argument("--rule", choices=("best", "ioi"), default="best",
                   help="per task: best submission (default) or the IOI rule (best per subtask)")
    p.add_argument("--by", choices=("competition", "division", "contest"), help="also aggregate per group")
    p.add_argument("--paper-bounds", action="store_true", help="rating search on [0, max rating + 100] as the LiveOIBench code (a model below every "
                        "rated contestant gets 0); default: the exact root")
    p.add_argument("--partial-medal", choices=("lower_bound", "skip"), default="lower_bound")
    args = p.parse_args(argv)

    from ibench.results.store import read_table

    contests = load_contests(args.bench)
    max_scores: dict[str, float] = {}
    for c in contests.values():
        max_scores.update(c.max_scores)
    options = RatingOptions(paper_bounds=args.paper_bounds)
    per_model: dict[str, list[ContestResult]] = {}
    for run in args.runs:
        root = run / "results" if (run / "results").is_dir() else run  # a run folder or its store
        scores = task_scores_from_verdicts(read_table(root, "verdicts"), args.rule, max_scores)
        for model, ts in sorted(scores.items()):
            name = model if model not in per_model else f"{model} ({run.name})"
            per_model[name] = score_contests(contests, ts, rating=options, partial_medal=args.partial_medal)
    print(format_leaderboard(per_model))
    if args.by:
        for model, results in per_model.items():
            print(f"\n{model} by {args.by}:")
            print(format_leaderboard({f"{model} / {k}": v for k, v in aggregate(results, by=args.by).items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
