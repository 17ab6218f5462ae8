"""Metrics (SPEC §6): unbiased pass@k, stratified by difficulty and category, with bootstrap
confidence intervals over tasks, and the failure composition of failed samples.

A judge error (SE) that is still SE after re-judging counts as a failed sample in pass@k (it stays
in its task's denominator, never in the numerator): a program must not be able to leave the
metrics by making the judge fail. SE samples are counted apart (``judge_errors``), shown in every
table and reported loudly; the failure composition is over the model's own labels.
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Sequence

import numpy as np

from ibench.judge.verdict import FAILURE_LABELS, Verdict
from ibench.tasks.model import CATEGORIES, DIFFICULTIES, Task

log = logging.getLogger(__name__)


def pass_at_k(n: int, c: int, k: int) -> float | None:
    """Unbiased estimator 1 - C(n-c, k) / C(n, k); ``None`` when fewer than ``k`` samples exist."""
    if k <= 0:
        raise ValueError("k must be positive")
    if n < k:
        return None
    if n - c < k:
        return 1.0
    # Exact integer binomials, one correctly rounded division (pass@1 is exactly c/n).
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


@dataclass
class TaskStats:
    """One task's samples; judge errors (SE) count as failed samples."""

    task_id: str
    difficulty: str
    categories: tuple[str, ...]
    n: int  # judged samples, SE included (an SE sample is a failed one)
    c: int  # accepted samples
    judge_errors: int  # of the n, samples that stayed SE
    verdicts: dict[str, int]  # label -> count (SE included, for the record)
    pass_at: dict[int, float | None]
    date: str | None = None  # the task's release date (YYYY-MM-DD), for the time-split study


@dataclass
class GroupMetric:
    """pass@k over a group of tasks (overall, one difficulty, or one category)."""

    group: str  # "overall" | "difficulty" | "category"
    name: str  # "all", "Easy", "Graph", ...
    n_tasks: int  # tasks in the group with at least one counted sample
    pass_at: dict[int, float | None]  # mean over tasks with n >= k
    ci: dict[int, tuple[float, float] | None]  # bootstrap percentile interval
    tasks_at: dict[int, int]  # tasks that entered each mean (n >= k)


@dataclass
class RunSummary:
    """Everything the report prints, the store keeps and W&B receives, for one run."""

    model: str
    ks: list[int]
    n_tasks: int
    n_samples: int  # judged samples, SE included (counted as failed)
    n_accepted: int
    n_judge_errors: int  # of the n_samples, samples that stayed SE (failed; not in the failure composition)
    overall: GroupMetric
    by_difficulty: list[GroupMetric]
    by_category: list[GroupMetric]
    failure_counts: dict[str, int]  # primary label -> failed samples
    failure_composition: dict[str, float]  # primary label -> fraction of failed samples
    n_failed: int
    tasks: list[TaskStats]
    confidence: float = 0.95
    bootstrap: int = 1000
    warnings: list[str] = field(default_factory=list)
    meta: dict = field(default_factory=dict)  # run keys, sampling name, timings
    # Iterative refinement (sampling.refine_rounds > 1): refine_rounds() rows, one per round —
    # refine@r and the failure composition among the still-unsolved. The pass@k above count
    # first attempts only.
    refine: list[dict] = field(default_factory=list)
    # What the run spent (ibench.results.cost.run_cost): tokens, generation and judge seconds, in
    # total, per sample and per solved task; money where conf/prices.yaml prices the model.
    cost: dict = field(default_factory=dict)

    def flat(self) -> dict[str, float | int | None]:
        """Flat ``name -> value`` metrics (W&B summary, CSV)."""
        out: dict[str, float | int | None] = {
            "n_tasks": self.n_tasks, "n_samples": self.n_samples, "n_accepted": self.n_accepted,
            "n_failed": self.n_failed, "judge_errors": self.n_judge_errors,
        }
        for g in [self.overall, *self.by_difficulty, *self.by_category]:
            prefix = "overall" if g.group == "overall" else f"{g.group}/{g.name}"
            for k in self.ks:
                out[f"{prefix}/pass@{k}"] = g.pass_at.get(k)
                ci = g.ci.get(k)
                if g.group == "overall" and ci is not None:
                    out[f"{prefix}/pass@{k}_ci_low"], out[f"{prefix}/pass@{k}_ci_high"] = ci
        for label, frac in self.failure_composition.items():
            out[f"failures/{label}"] = frac
        for row in self.refine:
            out[f"refine@{row['round']}"] = row["refine@k"]
        for key, value in self.cost.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                out[f"cost/{key}"] = value
        return out

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "RunSummary":
        """The inverse of :meth:`to_dict` (``summary.json`` as written; JSON's string keys of
        ``pass_at`` / ``ci`` become ints again)."""

        def ints(m: dict | None) -> dict:
            return {int(k): (tuple(v) if isinstance(v, list) else v) for k, v in (m or {}).items()}

        def group(g: dict) -> GroupMetric:
            return GroupMetric(g["group"], g["name"], int(g["n_tasks"]), ints(g.get("pass_at")), ints(g.get("ci")),
                               ints(g.get("tasks_at")))

        tasks = [TaskStats(t["task_id"], t["difficulty"], tuple(t["categories"]), int(t["n"]), int(t["c"]),
                           int(t["judge_errors"]), dict(t["verdicts"]), ints(t.get("pass_at")), t.get("date"))
                 for t in d.get("tasks", [])]
        return cls(model=d["model"], ks=[int(k) for k in d["ks"]], n_tasks=int(d["n_tasks"]),
                   n_samples=int(d["n_samples"]), n_accepted=int(d["n_accepted"]),
                   n_judge_errors=int(d["n_judge_errors"]), overall=group(d["overall"]),
                   by_difficulty=[group(g) for g in d.get("by_difficulty", [])],
                   by_category=[group(g) for g in d.get("by_category", [])],
                   failure_counts=dict(d.get("failure_counts", {})),
                   failure_composition=dict(d.get("failure_composition", {})), n_failed=int(d.get("n_failed", 0)),
                   tasks=tasks, confidence=float(d.get("confidence", 0.95)), bootstrap=int(d.get("bootstrap", 1000)),
                   warnings=list(d.get("warnings", [])), meta=dict(d.get("meta", {})),
                   refine=[dict(r) for r in d.get("refine", [])], cost=dict(d.get("cost") or {}))


def task_stats(task: Task, verdicts: Sequence[str], ks: Iterable[int]) -> TaskStats:
    counts = Counter(verdicts)
    se = counts.get(Verdict.SE.value, 0)
    n = len(verdicts)  # SE stays in the denominator: re-judged and still SE is a failure, not a drop
    c = counts.get(Verdict.OK.value, 0)
    date = getattr(task, "date", None)
    return TaskStats(task.task_id, task.difficulty, tuple(task.categories), n, c, se, dict(counts),
                     {k: pass_at_k(n, c, k) for k in ks}, date.isoformat() if date else None)


def _group(group: str, name: str, stats: list[TaskStats], ks: list[int], bootstrap: int,
           confidence: float, rng: np.random.Generator) -> GroupMetric:
    pass_at: dict[int, float | None] = {}
    ci: dict[int, tuple[float, float] | None] = {}
    tasks_at: dict[int, int] = {}
    for k in ks:
        values = np.array([s.pass_at[k] for s in stats if s.pass_at.get(k) is not None], dtype=float)
        tasks_at[k] = int(values.size)
        if values.size == 0:
            pass_at[k], ci[k] = None, None
            continue
        pass_at[k] = float(values.mean())
        ci[k] = bootstrap_ci(values, bootstrap, confidence, rng)
    return GroupMetric(group, name, sum(1 for s in stats if s.n > 0), pass_at, ci, tasks_at)


def bootstrap_ci(values: np.ndarray, resamples: int, confidence: float,
                 rng: np.random.Generator) -> tuple[float, float] | None:
    """Percentile interval of the mean, resampling tasks with replacement."""
    if resamples <= 0 or values.size == 0:
        return None
    idx = rng.integers(0, values.size, size=(resamples, values.size))
    means = values[idx].mean(axis=1)
    alpha = (1.0 - confidence) / 2
    lo, hi = np.quantile(means, [alpha, 1.0 - alpha])
    return float(lo), float(hi)


def summarize(model: str, tasks: Sequence[Task], verdicts_by_task: dict[str, list[str]],
              ks: Sequence[int] = (1, 5), bootstrap: int = 1000, confidence: float = 0.95,
              seed: int = 0) -> RunSummary:
    """Compute the run's metrics from each task's per-sample verdict labels."""
    ks = sorted({int(k) for k in ks})
    rng = np.random.default_rng(seed)
    warnings: list[str] = []
    stats = [task_stats(t, verdicts_by_task.get(t.task_id, []), ks) for t in tasks]

    n_se = sum(s.judge_errors for s in stats)
    if n_se:
        where = ", ".join(f"{s.task_id} ({s.judge_errors})" for s in stats if s.judge_errors)
        warnings.append(f"{n_se} sample(s) stayed a JUDGE ERROR (SE) and count as failed in pass@k: {where}. "
                        "Fix the task's interactor/checker or the judge and re-judge.")
    empty = [s.task_id for s in stats if s.n == 0]
    if empty:
        warnings.append(f"{len(empty)} task(s) have no judged sample that counts and are left out: "
                        + ", ".join(empty))
    for k in ks:
        short = [s.task_id for s in stats if 0 < s.n < k]
        if short:
            warnings.append(f"pass@{k} needs n >= {k} samples; {len(short)} task(s) have fewer and are left "
                            f"out of its mean: " + ", ".join(short))

    counted = [s for s in stats if s.n > 0]
    overall = _group("overall", "all", counted, ks, bootstrap, confidence, rng)
    by_difficulty = [_group("difficulty", d, [s for s in counted if s.difficulty == d], ks, bootstrap,
                            confidence, rng) for d in DIFFICULTIES if any(s.difficulty == d for s in counted)]
    cats = [c for c in CATEGORIES if any(c in s.categories for s in counted)]
    cats += sorted({c for s in counted for c in s.categories} - set(CATEGORIES))
    by_category = [_group("category", c, [s for s in counted if c in s.categories], ks, bootstrap,
                          confidence, rng) for c in cats]

    failure_counts = {label.value: 0 for label in FAILURE_LABELS}
    for s in stats:
        for label, count in s.verdicts.items():
            if label in failure_counts:
                failure_counts[label] += count
    n_failed = sum(failure_counts.values())
    composition = {label: (count / n_failed if n_failed else 0.0) for label, count in failure_counts.items()}

    for w in warnings:
        log.warning(w)
    return RunSummary(
        model=model, ks=ks, n_tasks=len(counted), n_samples=sum(s.n for s in stats),
        n_accepted=sum(s.c for s in stats), n_judge_errors=n_se, overall=overall,
        by_difficulty=by_difficulty, by_category=by_category, failure_counts=failure_counts,
        failure_composition=composition, n_failed=n_failed, tasks=stats, confidence=confidence,
        bootstrap=bootstrap, warnings=warnings,
    )


def paired_bootstrap_diff(a: Sequence[float], b: Sequence[float], resamples: int = 1000,
                           confidence: float = 0.95, seed: int = 0) -> tuple[float, tuple[float, float] | None]:
    """Mean of ``b - a`` over paired items (the same tasks in two runs) and its percentile
    bootstrap interval, resampling the pairs together (so task difficulty cancels out)."""
    x = np.asarray(a, dtype=float)
    y = np.asarray(b, dtype=float)
    if x.shape != y.shape:
        raise ValueError(f"paired values differ in length: {x.size} vs {y.size}")
    if x.size == 0:
        return float("nan"), None
    d = y - x
    return float(d.mean()), bootstrap_ci(d, resamples, confidence, np.random.default_rng(seed))


def fmt(value: float | None, digits: int = 3) -> str:
    return "—" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.{digits}f}"


# -- iterative refinement (InteractBench C.2, Tables 10 and 11) ----------------------------------------
def refine_rows(verdicts: Any, expected: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """One :func:`refine_rounds` row per verdict of a verdicts table (a sample's rounds share its
    ``sample_index``, the chain; rows stored before rounds existed are round 1); with
    ``expected``, only the samples a run plans for (index below its task's count)."""
    return [{"task_id": r["task_id"], "chain": r["sample_index"], "round": r["round"] or 1, "verdict": r["verdict"]}
            for r in verdicts.select("task_id", "sample_index", "round", "verdict").iter_rows(named=True)
            if expected is None or r["sample_index"] < expected.get(r["task_id"], 0)]


def _solved_by(solved_at: int | None, rnd: int) -> bool:
    """Whether a chain first solved at round ``solved_at`` (None: never) counts as solved at ``rnd``."""
    return solved_at is not None and solved_at <= rnd


def refine_rounds(rows: Iterable[dict[str, Any]], max_round: int | None = None) -> list[dict[str, Any]]:
    """Per round r: refine@r (mean over tasks of the share of chains solved within r rounds) and
    the failure composition of the round-r executions of chains still unsolved.

    ``rows``: one per judged sample with ``task_id``, ``chain``, ``round`` (1-based) and
    ``verdict``; a judge error (SE) is an unsolved round (its chain stays in the denominator; the
    row's ``SE`` is its share of the unsolved). A chain solved at round j counts as solved at every
    later round."""
    chains: dict[tuple[str, Any], dict[int, str]] = {}
    for r in rows:
        chains.setdefault((str(r["task_id"]), r["chain"]), {})[int(r["round"] or 1)] = str(r["verdict"])
    if not chains:
        return []
    last = max_round or max(max(rounds) for rounds in chains.values())
    solved_at: dict[tuple[str, Any], int | None] = {
        key: min((k for k, v in rounds.items() if v == "OK"), default=None) for key, rounds in chains.items()}
    tasks = sorted({t for t, _ in chains})
    out = []
    for rnd in range(1, last + 1):
        per_task = []
        for t in tasks:
            keys = [k for k in chains if k[0] == t]
            per_task.append(sum(1 for k in keys if _solved_by(solved_at[k], rnd)) / len(keys))
        unsolved = [chains[k][rnd] for k in chains if rnd in chains[k] and chains[k][rnd] != "OK"
                    and not _solved_by(solved_at[k], rnd)]
        counts = Counter(unsolved)
        row: dict[str, Any] = {"round": rnd, "n_unsolved": len(unsolved)}
        for label in (*(v.value for v in FAILURE_LABELS), Verdict.SE.value):
            row[label] = counts.get(label, 0) / len(unsolved) if unsolved else 0.0
        row["refine@k"] = sum(per_task) / len(per_task)
        out.append(row)
    return out
