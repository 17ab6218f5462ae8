"""Contest scoring (ibench.results.contest): every expected figure below is worked out by hand.

The contest: tasks Sum and Guess are held by the benchmark, Robots is not (a partial contest).
Cut-offs: Gold 150, Silver 100, Bronze 50. Ten contestants (points on Sum / Guess / Robots):

    A 100/100/80  CF 2000      F 40/40/40   CF -
    B 100/100/20  CF 2100      G 10/40/60   CF 0      (placeholder: dropped, < 500)
    C 100/40/50   CF -         H 0/40/30    CF -1000  (placeholder: dropped)
    D 40/100/30   CF 450       I 10/0/40    CF 1600
      (dropped, < 500)         J 0/0/10     CF 300    (dropped, < 500)
    E 10/100/30   CF 1500

Totals on the held tasks (Sum + Guess): A 200, B 200, C 140, D 140, E 110, F 80, G 50, H 40,
I 10, J 0. Rated contestants kept: A 2000, B 2100, E 1500, I 1600 -- two pairs symmetric about
1800 (2000/1600 and 2100/1500). For a rating r, 1/(1+10^((r-a)/400)) + 1/(1+10^((r-b)/400)) = 1
exactly when r = (a+b)/2, so Σ = 2 at r = 1800: a model with m = 2 rated contestants strictly
above it is rated 1800.
"""

from __future__ import annotations

import json
import math

import pytest

from ibench.results.contest import (
    LEADERBOARD_COLUMNS,
    ContestInfo,
    RatingOptions,
    TaskScore,
    aggregate,
    aggregate_results,
    best_task_score,
    expected_rank_sum,
    filter_rated,
    format_leaderboard,
    human_percentile,
    ioi_task_score,
    leaderboard,
    load_contests,
    medal_for,
    score_contest,
    score_contests,
    solve_rating,
    task_scores_from_frame,
    task_scores_from_verdicts,
    write_contests,
)

SUM, GUESS, ROBOTS = "IOI-2024-day1-sum", "IOI-2024-day1-guess", "IOI-2024-day1-robots"
PEOPLE = [("A", 100, 100, 80, "Gold", 2000), ("B", 100, 100, 20, "Gold", 2100), ("C", 100, 40, 50, "Gold", None),
          ("D", 40, 100, 30, "Silver", 450), ("E", 10, 100, 30, "Silver", 1500), ("F", 40, 40, 40, "Silver", None),
          ("G", 10, 40, 60, "Bronze", 0), ("H", 0, 40, 30, "Bronze", -1000), ("I", 10, 0, 40, "Bronze", 1600),
          ("J", 0, 0, 10, None, 300)]
# The paper's filters, minus the two that need more contestants than a hand example has.
HAND = RatingOptions(min_rated=1, outlier_sigma=None)
PAPER = RatingOptions(min_rated=1, outlier_sigma=None, paper_bounds=True)  # the LiveOIBench code's search


def contest(competition: str = "IOI", cid: str = "IOI-2024-day1") -> ContestInfo:
    """The contest in the shape the LiveOIBench importer writes to contests.json."""
    return ContestInfo.from_dict({
        "contest_id": cid, "competition": competition, "date": "2024-09-03", "division": "1",
        "gold_cutoff": 150, "silver_cutoff": 100, "bronze_cutoff": 50, "num_contestants": 10,
        "problems": [SUM, GUESS, ROBOTS], "held": [SUM, GUESS],
        "task_columns": {SUM: "Sum", GUESS: "Guess", ROBOTS: "Robots"},
        "max_scores": {SUM: 100.0, GUESS: 100.0},
        "contestants": [{"rank": i + 1, "name": n, "country": "XX", "total": s + g + r, "medal": m, "cf_rating": cf,
                         "scores": {"Sum": s, "Guess": g, "Robots": r}}
                        for i, (n, s, g, r, m, cf) in enumerate(PEOPLE)],
    })


# --------------------------------------------------------------------------------------------
# Per-task scores


def test_best_submission_rule():
    assert best_task_score([10, 40, 0], max_points=100) == TaskScore(points=40, solved=False, samples=3)
    # Unscored samples: an accepted one earns the maximum.
    assert best_task_score([None, None], ["WA", "OK"], max_points=100) == TaskScore(100, True, 2)
    # A judge error is never charged, nor counted.
    assert best_task_score([100, 20], ["SE", "WA"], max_points=100) == TaskScore(20, False, 1)
    assert best_task_score([], max_points=100) == TaskScore(0, False, 0)


def test_ioi_rule_takes_each_subtask_best():
    subs = [{"1": 10, "2": 30, "3": 0}, {"1": 0, "2": 0, "3": 0}, {"1": 0, "2": 0, "3": 60}]
    ts = ioi_task_score(subs, scores=[40, 0, 60], max_points=100)
    assert ts.points == 100 and not ts.solved  # 10 + 30 + 60; no single submission solved it
    assert best_task_score([40, 0, 60], max_points=100).points == 60


def test_task_scores_from_a_results_frame():
    pl = pytest.importorskip("polars")
    df = pl.DataFrame({
        "model": ["m"] * 5,
        "problem_id": [SUM, SUM, SUM, GUESS, GUESS],
        "score": [40.0, 0.0, 60.0, None, None],
        "verdict": ["WA", "CE", "WA", "WA", "OK"],
        "subtask_scores": [{"1": 10.0, "2": 30.0, "3": 0.0}, {"1": 0.0, "2": 0.0, "3": 0.0},
                           {"1": 0.0, "2": 0.0, "3": 60.0}, None, None],
    })
    best = task_scores_from_frame(df, "best", {SUM: 100, GUESS: 100})["m"]
    assert (best[SUM].points, best[GUESS].points, best[GUESS].solved) == (60, 100, True)
    ioi = task_scores_from_frame(df, "ioi", {SUM: 100, GUESS: 100})["m"]
    assert (ioi[SUM].points, ioi[GUESS].points) == (100, 100)


# --------------------------------------------------------------------------------------------
# Human comparison pieces


def test_percentile_counts_strictly_below():
    assert human_percentile(140, [200, 200, 140, 140, 110, 80, 50, 40, 10, 0]) == 60.0
    assert human_percentile(0, [0, 0]) == 0.0
    assert human_percentile(5, []) is None


def test_medal_from_cutoffs():
    cut = (("Gold", 150.0), ("Silver", 100.0), ("Bronze", 50.0))
    assert [medal_for(t, cut) for t in (150, 149.5, 100, 50, 49)] == ["Gold", "Silver", "Silver", "Bronze", "None"]
    assert medal_for(500, ()) is None


def test_rating_closed_forms():
    # Four contestants rated 1600 and m = 1: 4 / (1 + 10^((r-1600)/400)) = 1, r = 1600 + 400 log10(3).
    assert solve_rating(1, [1600] * 4) == pytest.approx(1600 + 400 * math.log10(3), abs=1e-5)
    # Symmetric pairs about 1800 and m = 2 (see the module docstring).
    assert solve_rating(2, [2000, 1600, 2100, 1500]) == pytest.approx(1800, abs=1e-5)
    assert expected_rank_sum(1800, [2000, 1600, 2100, 1500]) == pytest.approx(2.0)
    # No finite root for m = 0 or m = n: rated as m = 0.5 / n - 0.5, so the rating stays monotone.
    rs = [2000, 1600, 2100, 1500]
    assert solve_rating(0, rs) == pytest.approx(solve_rating(0.5, rs), abs=1e-6)
    assert solve_rating(0, rs) > solve_rating(1, rs) > solve_rating(2, rs) > solve_rating(4, rs)
    assert expected_rank_sum(solve_rating(4, rs), rs) == pytest.approx(3.5)
    # The LiveOIBench search, [0, max + 100]: clamps (above everyone -> max + 100, below -> 0),
    # and also clips a true root above max + 100.
    assert solve_rating(0, [2000, 1600], 0, 2100) == 2100
    assert solve_rating(2, [2000, 1600], 0, 2100) == 0
    assert solve_rating(1, [1600] * 4, 0, 1700) == 1700


def test_rating_filters():
    pairs = [(float(10 * i), 1000.0 + 10 * i) for i in range(10)] + [(45.0, 3500.0), (50.0, 499.0)]
    kept = filter_rated(pairs, RatingOptions())
    assert (45.0, 3500.0) not in kept  # more than 2 sigma off the cubic fit
    assert (50.0, 499.0) not in kept  # below 500
    assert len(kept) == 10
    assert len(filter_rated(pairs, RatingOptions(outlier_sigma=None))) == 11


# --------------------------------------------------------------------------------------------
# One contest, worked by hand


def test_best_rule_contest():
    r = score_contest(contest(), {SUM: best_task_score([10, 60, 0], max_points=100),
                                  GUESS: best_task_score([None, None], ["WA", "OK"], 100)}, rating=HAND)
    assert (r.total, r.max_total, r.relative_score) == (160, 200, 80.0)
    # Below 160 on Sum + Guess: C, D (140), E, F, G, H, I, J -> 8 of 10.
    assert r.percentile == 80.0
    assert r.medal == "Gold"  # 160 >= 150 (a lower bound: Robots was not attempted)
    assert (r.expected_rank, r.n_rated, r.rating) == (2, 4, pytest.approx(1800, abs=1e-5))
    assert (r.tasks, r.solved, r.complete, r.basis) == (2, 1, False, "tasks")


def test_partial_contest_and_ties():
    r = score_contest(contest(), {SUM: 40.0, GUESS: 100.0}, rating=HAND)
    # 140: C and D tie with the model and are not below it; E..J are: 6 of 10.
    assert r.percentile == 60.0 and r.medal == "Silver" and r.relative_score == 70.0
    assert r.expected_rank == 2 and r.rating == pytest.approx(1800, abs=1e-5)  # only A, B above among the rated
    assert r.solved == 1  # Guess at full marks
    skip = score_contest(contest(), {SUM: 40.0, GUESS: 100.0}, rating=HAND, partial_medal="skip")
    assert skip.medal is None


def test_ioi_rule_contest_and_paper_defaults():
    subs = [{"1": 10, "2": 30, "3": 0}, {"1": 0, "2": 0, "3": 0}, {"1": 0, "2": 0, "3": 60}]
    scores = {SUM: ioi_task_score(subs, [40, 0, 60], max_points=100), GUESS: TaskScore(100, True)}
    r = score_contest(contest(), scores, rating=PAPER)
    assert (r.total, r.relative_score, r.percentile, r.medal) == (200, 100.0, 80.0, "Gold")
    assert r.expected_rank == 0 and r.rating == 2200  # above every rated contestant: max 2100 + 100
    exact = score_contest(contest(), scores, rating=HAND)
    assert expected_rank_sum(exact.rating, [2000, 2100, 1500, 1600]) == pytest.approx(0.5)
    # With the paper's defaults the four rated contestants are too few (< 15): no rating.
    d = score_contest(contest(), scores)
    assert d.rating is None and d.n_rated == 4


def test_missing_task_result_counts_zero():
    r = score_contest(contest(), {GUESS: 100.0}, rating=HAND)
    assert r.total == 100 and r.missing_results == (SUM,) and r.medal == "Silver"


def test_unmatched_column_falls_back_to_official_totals():
    d = contest().to_dict()
    d["task_columns"] = {SUM: "Sum"}  # no column for Guess
    r = score_contest(ContestInfo.from_dict(d), {SUM: 40.0, GUESS: 100.0}, rating=HAND)
    # Official totals: 280 220 190 170 140 120 110 70 50 10; below 140: 120 110 70 50 10 -> 50%.
    assert r.basis == "official_total" and r.percentile == 50.0


# --------------------------------------------------------------------------------------------
# Aggregation and the leaderboard


def _results():
    a = score_contest(contest(), {SUM: TaskScore(60, False), GUESS: TaskScore(100, True)}, rating=HAND)
    b = score_contest(contest("APIO", "APIO-2024-contest"), {SUM: 40.0, GUESS: 100.0}, rating=HAND)
    return a, b


def test_aggregate_over_contests():
    a, b = _results()
    agg = aggregate_results([a, b])
    assert (agg.gold_pct, agg.silver_pct, agg.medal_pct) == (50.0, 50.0, 100.0)
    assert agg.relative_score == 75.0  # (80 + 70) / 2
    assert agg.percentile == 70.0  # (80 + 60) / 2
    assert agg.pass_rate == 50.0  # 2 of 4 tasks solved
    assert agg.rating == pytest.approx(1800, abs=1e-5)
    by = aggregate([a, b], by="competition")
    assert set(by) == {"IOI", "APIO"} and by["APIO"].medal_pct == 100.0 and by["IOI"].gold_pct == 100.0
    assert aggregate([a, b])["all"] == agg


def test_leaderboard_table():
    a, b = _results()
    subs = [{"1": 10, "2": 30, "3": 0}, {"1": 0, "2": 0, "3": 60}]
    c = score_contest(contest(), {SUM: ioi_task_score(subs, [40, 60], max_points=100),
                                  GUESS: TaskScore(100, True)}, rating=PAPER)
    text = format_leaderboard({"model-a": [a, b], "model-b": [c]})
    lines = text.splitlines()
    assert lines[0] == "| " + " | ".join(LEADERBOARD_COLUMNS) + " |"
    assert lines[2] == "| model-b | 100.00 | 100.00 | 100.00 | 80.00 | 50.00 | 2200 |"  # best percentile first
    assert lines[3] == "| model-a | 50.00 | 100.00 | 75.00 | 70.00 | 50.00 | 1800 |"
    df = leaderboard({"model-a": [a, b]})
    assert list(df.columns) == list(LEADERBOARD_COLUMNS) and df["Elo"].to_list() == [1800]


def test_contests_file_round_trip(tmp_path):
    write_contests(tmp_path / "contests.json", [contest()], source="test")
    loaded = load_contests(tmp_path)
    assert loaded == {"IOI-2024-day1": contest()}
    results = score_contests(loaded, {SUM: 40.0, GUESS: 100.0}, rating=HAND)
    assert [r.percentile for r in results] == [60.0]
    assert score_contests(loaded, {"other": 1.0}) == []  # contests the model did not attempt are skipped


def test_scores_from_the_results_store_verdicts():
    pl = pytest.importorskip("polars")
    df = pl.DataFrame({
        "task_id": [SUM, SUM, GUESS], "model": ["m", "m", "m"], "score": [40.0, 60.0, None],
        "verdict": ["WA", "WA", "OK"],
        "result_json": [json.dumps({"subtask_scores": {"1": 10, "2": 30, "3": 0}}),
                        json.dumps({"subtask_scores": {"1": 0, "2": 0, "3": 60}}), json.dumps({})],
    })
    best = task_scores_from_verdicts(df, "best", {SUM: 100, GUESS: 100})["m"]
    ioi = task_scores_from_verdicts(df, "ioi", {SUM: 100, GUESS: 100})["m"]
    assert (best[SUM].points, ioi[SUM].points, best[GUESS].points) == (60, 100, 100)


def test_zero_score_model_with_the_paper_search_is_rated_at_its_lower_bound_0():
    """LiveOIBench's rating search bisects on [0, max rating + 100] (generate_rankings.py:
    ``left = 0.0``): a model that scores nothing is below every rated contestant and gets the
    bound itself, 0 -- not the 500 of the rating filter. The exact solver rates it as if half a
    contestant were below it, a finite rating under the lowest one."""
    r = score_contest(contest(), {SUM: 0.0, GUESS: 0.0}, rating=PAPER)
    assert r.total == 0 and r.expected_rank == 4 and r.n_rated == 4  # all four rated contestants above
    assert r.rating == 0.0
    exact = score_contest(contest(), {SUM: 0.0, GUESS: 0.0}, rating=HAND)
    assert 0 < exact.rating < 1500 and expected_rank_sum(exact.rating, [2000, 2100, 1500, 1600]) == pytest.approx(3.5)
