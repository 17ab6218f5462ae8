"""Token efficiency, parallel vs sequential scaling and subtask positions (issue 31), on
synthetic runs whose numbers are known and on the synthetic budget sweep."""

from __future__ import annotations

import csv

import pytest
from analyses_synth import Sample, budget_sweep, seed_sweep, write_run

from ibench.results.analyses.cli import main
from ibench.results.analyses.common import open_runs
from ibench.results.analyses.efficiency import efficiency_rows, pareto
from ibench.results.analyses.scaling import budget_sweeps, parallel_rows, scaling_rows, subtask_rows
from ibench.results.metrics import pass_at_k

CODE = "int main(){}"


def test_the_pareto_frontier_keeps_the_runs_none_beats_on_both():
    pts = [(100.0, 0.2), (200.0, 0.5), (150.0, 0.1), (400.0, 0.5), (50.0, 0.2), (800.0, 0.9)]
    # (100, .2) is beaten by (50, .2); (400, .5) by (200, .5); (150, .1) by (50, .2)
    assert pareto(pts) == [4, 1, 5]
    assert pareto([(1.0, 1.0)]) == [0]


def _tokens_run(tmp_path, name, tokens_a, tokens_b, oks, budget):
    samples = [Sample("guess-the-number", i, "OK" if ok else "WA", t, t / 100, [1.0], CODE)
               for i, (t, ok) in enumerate(zip(tokens_a, oks[0]))]
    samples += [Sample("sort-the-boxes", i, "OK" if ok else "WA", t, t / 100, [1.0], CODE)
                for i, (t, ok) in enumerate(zip(tokens_b, oks[1]))]
    return write_run(tmp_path / name, samples, sampling={"n": len(tokens_a), "reasoning_budget": budget},
                     overrides=[f"sampling.reasoning_budget={budget}"])


def test_tokens_are_averaged_per_task_and_the_frontier_is_marked(tmp_path):
    small = _tokens_run(tmp_path, "small", [100, 300], [1000, 1000], [[True, False], [False, False]], 1000)
    big = _tokens_run(tmp_path, "big", [2000, 2000], [4000, 6000], [[True, True], [True, False]], 8000)
    waste = _tokens_run(tmp_path, "waste", [9000, 9000], [9000, 9000], [[False, False], [True, False]], 9000)
    metric, rows = efficiency_rows(open_runs([small, big, waste]))
    assert metric == "pass@1"  # these tasks have no subtasks: no relative score
    got = {r["run"].split("=")[-1]: (r["mean_completion_tokens_per_task"], r["pass@1"], r["on_frontier"]) for r in rows}
    assert got == {"1000": (600.0, 0.25, True), "8000": (3500.0, 0.75, True), "9000": (9000.0, 0.25, False)}


def test_parallel_is_pass_at_k_at_k_times_the_tokens_and_sequential_the_budget_sweep(tmp_path):
    small = _tokens_run(tmp_path, "small", [100, 300, 200], [1000, 1000, 700], [[True, False, False], [False, True, True]], 1000)
    big = _tokens_run(tmp_path, "big", [2000] * 3, [4000] * 3, [[True] * 3, [True, False, False]], 8000)
    runs = open_runs([small, big])
    par = parallel_rows(runs[0])  # small: the order given
    assert [r["k"] for r in par] == [1, 2, 3]
    assert par[1]["pass"] == pytest.approx((pass_at_k(3, 1, 2) + pass_at_k(3, 2, 2)) / 2)
    assert par[1]["tokens_per_task"] == pytest.approx(2 * (200 + 900) / 2)
    (name, sweep), = budget_sweeps(runs).items()
    assert [r.sampling["reasoning_budget"] for r in sweep] == [1000, 8000]
    seq = [r for r in scaling_rows(runs) if r["mode"] == "sequential"]
    assert [(r["reasoning_budget"], r["tokens_per_task"]) for r in seq] == [(1000, 550.0), (8000, 3000.0)]


def test_runs_that_differ_in_more_than_the_budget_are_no_sweep(tmp_path):
    runs = open_runs([*budget_sweep(tmp_path / "b", budgets=(1024, 4096), n=2), *seed_sweep(tmp_path / "s", n=1)])
    sweeps = budget_sweeps(runs)
    assert [[r.log.run_dir.name for r in g] for g in sweeps.values()] == [["budget_1024", "budget_4096"]]


def test_subtask_positions_count_the_samples_that_earn_each_subtask(tmp_path):
    # distinct-in-range: subtasks 1 (20 points), 2 (30), 3 (50), in that order
    samples = [Sample("distinct-in-range", 0, "OK", 10, 0.1, [1.0], CODE, score=100.0),
               Sample("distinct-in-range", 1, "TLE", 10, 0.1, [1.0], CODE, score=50.0,
                      subtask_scores={"1": 20.0, "2": 30.0, "3": 0.0}),
               Sample("distinct-in-range", 2, "WA", 10, 0.1, [1.0], CODE, score=20.0,
                      subtask_scores={"1": 20.0, "2": 0.0, "3": 0.0}),
               Sample("guess-the-number", 0, "OK", 10, 0.1, [1.0], CODE)]
    (run,) = open_runs([write_run(tmp_path / "sub", samples)])
    rows = subtask_rows(run)
    assert [(r["position"], r["samples"], r["pass_rate"]) for r in rows] == [(1, 3, 1.0), (2, 3, 2 / 3), (3, 3, 1 / 3)]


def test_the_commands_on_the_synthetic_budget_sweep(tmp_path):
    runs = budget_sweep(tmp_path / "sweep", n=3)
    out = tmp_path / "out"
    assert main(["efficiency", *map(str, runs), "--out", str(out)]) == 0
    assert main(["scaling", str(tmp_path / "sweep"), "--out", str(out)]) == 0
    for name in ("efficiency", "scaling", "subtask_position"):
        assert (out / f"{name}.png").is_file() and (out / f"{name}.pdf").is_file() and (out / f"{name}.csv").is_file()
    rows = list(csv.DictReader(open(out / "efficiency.csv")))
    assert len(rows) == 3 and any(r["on_frontier"] == "True" for r in rows)
    # the reference fixtures carry no token counts: a table, no plot, no crash
    assert main(["efficiency", "tests/fixtures/runs/default", "--out", str(tmp_path / "ref")]) == 0
    assert not (tmp_path / "ref" / "efficiency.png").exists()
