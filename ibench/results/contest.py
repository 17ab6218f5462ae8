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

import sys
from pathlib import Path

from ibench.results.contest_leaderboard import (LEADERBOARD_COLUMNS, Aggregate, aggregate, aggregate_results,
                                                format_leaderboard, leaderboard, leaderboard_rows)
from ibench.results.contest_rating import (RatingOptions, expected_rank_sum, filter_rated, human_percentile,
                                           medal_for, model_rating, solve_rating)
from ibench.results.contest_scores import (TaskScore, best_task_score, ioi_task_score, sample_points,
                                           task_scores_from_frame, task_scores_from_verdicts)
from ibench.results.contest_standing import ContestResult, score_contest, score_contests
from ibench.results.runlog import ResultsError, RunLog
# The data model lives with the tasks (the LiveOIBench importer writes it); re-exported here,
# where the importer and the scorer's users have always found it.
from ibench.tasks.contest import (CONTESTS_FILE, MEDALS, ContestInfo, Contestant, load_contests, normalize_name,
                                  write_contests)

__all__ = [
    "CONTESTS_FILE", "LEADERBOARD_COLUMNS", "MEDALS", "Aggregate", "ContestInfo", "ContestResult", "Contestant",
    "RatingOptions", "TaskScore", "aggregate", "aggregate_results", "best_task_score", "expected_rank_sum",
    "filter_rated", "format_leaderboard", "human_percentile", "ioi_task_score", "leaderboard", "leaderboard_rows",
    "load_contests", "medal_for", "model_rating", "normalize_name", "sample_points", "score_contest",
    "score_contests", "solve_rating", "task_scores_from_frame", "task_scores_from_verdicts", "write_contests",
]


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

    contests = load_contests(args.bench)
    max_scores: dict[str, float] = {}
    for c in contests.values():
        max_scores.update(c.max_scores)
    options = RatingOptions(paper_bounds=args.paper_bounds)
    per_model: dict[str, list[ContestResult]] = {}
    for run in args.runs:
        try:
            # Every verdict row of the store, as before RunLog: a folder resumed with other
            # settings holds both configurations' rows (RunLog.current() would keep its own).
            verdicts = RunLog.open(run).verdicts
        except ResultsError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        scores = task_scores_from_verdicts(verdicts, args.rule, max_scores)
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
