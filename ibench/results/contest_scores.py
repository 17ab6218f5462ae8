"""Per-task scores of a model from its samples (LiveOIBench, SPEC §6): the best submission
(the paper's rule) or the IOI rule (per subtask the best over all submissions, summed), from
plain lists or from the results store's verdicts."""

from __future__ import annotations

import json
import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ibench.results.runlog import parse_result
from ibench.tasks.contest import as_float

EPS = 1e-9  # points are compared with this tolerance (sums of float subtask scores)


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
        return any(p >= max_points - EPS for p in points)
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
        scores = [as_float(r.get(score_col)) for r in samples]
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
    """Per-task scores from the results store's ``verdicts`` table (``RunLog.verdicts``):
    ``task_id``, ``model``, ``score``, ``verdict``, and the subtask scores of the judge's result
    in ``result_json`` (none where that is not a judge's result)."""
    rows = []
    for r in df.to_dicts() if hasattr(df, "to_dicts") else df:
        try:
            subs = parse_result(r.get("result_json"), r.get("verdict")).subtask_scores or None
        except (ValueError, TypeError, AttributeError):
            subs = None
        rows.append({"model": r.get("model"), "problem_id": r["task_id"], "score": r.get("score"),
                     "verdict": r.get("verdict"), "subtask_scores": subs})
    return task_scores_from_frame(rows, rule, max_scores)


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

