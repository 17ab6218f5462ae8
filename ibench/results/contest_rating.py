"""The model against the human contestants of one contest: percentile, medal and a
Codeforces-style rating (the CodeElo formula, with LiveOIBench's filters on the human ratings).
The choices are set out in :mod:`ibench.results.contest`'s docstring and repeated in each
function's."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from ibench.results.contest_scores import EPS
from ibench.tasks.contest import MEDALS


def human_percentile(model_total: float, human_totals: Sequence[float]) -> float | None:
    """Share (in %) of contestants whose total is strictly below the model's; None if none."""
    if not human_totals:
        return None
    below = sum(1 for h in human_totals if h < model_total - EPS)
    return 100.0 * below / len(human_totals)


def medal_for(total: float, cutoffs: Sequence[tuple[str, float]]) -> str | None:
    """The best medal whose cut-off the total reaches (``>=``), ``"None"`` when cut-offs exist
    but none is reached, ``None`` when the contest has no cut-offs."""
    if not cutoffs:
        return None
    for name, cutoff in sorted(cutoffs, key=lambda nc: MEDALS.index(nc[0])):
        if total >= cutoff - EPS:
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
            kept = [p for p, e in zip(kept, resid) if abs(e - mean) <= options.outlier_sigma * sd + EPS]
    return kept


def model_rating(
    model_total: float, pairs: Sequence[tuple[float, float]], options: RatingOptions = RatingOptions()
) -> tuple[float | None, int, float | None]:
    """(rating, number of rated contestants used, expected rank m) for a model total against
    ``pairs`` of (contestant score, contestant rating). m = rated contestants strictly above."""
    kept = filter_rated(pairs, options)
    if len(kept) < max(1, options.min_rated):
        return None, len(kept), None
    m = float(sum(1 for s, _ in kept if s > model_total + EPS))
    ratings = [r for _, r in kept]
    if options.paper_bounds:
        rating = solve_rating(m, ratings, 0.0, max(ratings) + 100.0)
    else:
        rating = solve_rating(m, ratings)
    return rating, len(kept), m



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

