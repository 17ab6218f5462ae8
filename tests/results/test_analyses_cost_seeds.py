"""Cost per sample and per solved task with a price table, and error bars across seed runs
(issue 31), on runs whose numbers are known."""

from __future__ import annotations

import csv
import math

import pytest
from analyses_synth import Sample, seed_sweep, write_run

from ibench.results.analyses.cli import main
from ibench.results.analyses.common import AnalysisError, open_runs
from ibench.results.analyses.cost import cost_row, load_prices
from ibench.results.analyses.seeds import seed_rows

CODE = "int main(){}"


def _cost_run(tmp_path):
    samples = [Sample("guess-the-number", 0, "OK", 1000, 10.0, [100.0, 300.0], CODE, prompt_tokens=500),
               Sample("guess-the-number", 1, "OK", 3000, 30.0, [200.0], CODE, prompt_tokens=500),
               Sample("sort-the-boxes", 0, "WA", 2000, 20.0, [400.0], CODE, prompt_tokens=1000)]
    return write_run(tmp_path / "cost", samples, model="priced")


def test_cost_per_sample_and_per_solved_task_with_money_from_the_price_table(tmp_path):
    prices = tmp_path / "prices.yaml"
    prices.write_text("priced:\n  prompt_per_mtok: 1.0\n  completion_per_mtok: 4.0\n")
    (run,) = open_runs([_cost_run(tmp_path)])
    row = cost_row(run, load_prices(prices))
    assert (row["samples"], row["accepted"], row["solved_tasks"]) == (3, 2, 1)  # one task solved
    assert row["completion_tokens"] == 6000 and row["completion_tokens/sample"] == 2000
    assert row["completion_tokens/solved_task"] == 6000 and row["generation_s/solved_task"] == 60.0
    assert row["judge_cpu_s"] == pytest.approx(1.0) and row["judge_cpu_s/sample"] == pytest.approx(1 / 3)
    assert row["money"] == pytest.approx((2000 * 1.0 + 6000 * 4.0) / 1e6)
    assert "money" not in cost_row(run, {})  # no price: no money column


def test_a_bad_price_table_is_named(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("m:\n  prompt_per_mtok: cheap\n")
    with pytest.raises(AnalysisError, match="m: expected prompt_per_mtok"):
        load_prices(bad)
    with pytest.raises(AnalysisError, match="no such file"):
        load_prices(tmp_path / "none.yaml")


def _seed_run(tmp_path, seed, oks):
    samples = [Sample(t, 0, "OK" if ok else "WA", 10, 0.1, [1.0], CODE)
               for t, ok in zip(("guess-the-number", "sort-the-boxes", "kth-of-two-sorted", "tree-hide-and-seek"), oks)]
    return write_run(tmp_path / f"seed{seed}", samples, sampling={"seed": seed}, overrides=[f"sampling.seed={seed}"])


def test_seed_runs_give_mean_and_standard_error_beside_the_bootstrap(tmp_path):
    dirs = [_seed_run(tmp_path, 0, [1, 0, 0, 0]), _seed_run(tmp_path, 1, [1, 1, 0, 0]),
            _seed_run(tmp_path, 2, [1, 1, 1, 0])]
    other = write_run(tmp_path / "other", [Sample("guess-the-number", 0, "OK", 10, 0.1, [1.0], CODE)],
                      sampling={"seed": 5, "temperature": 0.2}, overrides=["sampling.seed=5"])
    rows, run_rows = seed_rows(open_runs([*dirs, other]), resamples=500)
    (row,) = rows  # the run at another temperature is no repeat of the three
    assert row["runs"] == 3 and row["tasks"] == 4
    assert row["mean_pass@1"] == pytest.approx(0.5)
    assert row["se_across_runs"] == pytest.approx(math.sqrt(((0.25 ** 2) * 2 / 2) / 3))
    assert row["bootstrap_low"] <= 0.5 <= row["bootstrap_high"]
    assert sorted(r["pass@1"] for r in run_rows) == [0.25, 0.5, 0.75]


def test_the_commands_write_their_files(tmp_path):
    out = tmp_path / "out"
    runs = seed_sweep(tmp_path / "seeds", n=1)
    assert main(["seeds", str(tmp_path / "seeds"), "--out", str(out), "--bootstrap", "200"]) == 0
    assert main(["cost", *map(str, runs), "--out", str(out)]) == 0
    assert {"seeds.csv", "seeds_runs.csv", "seeds.png", "seeds.pdf", "cost.csv"} <= {p.name for p in out.iterdir()}
    assert len(list(csv.DictReader(open(out / "cost.csv")))) == 3
    assert main(["seeds", str(runs[0]), "--out", str(out)]) == 2  # one run: nothing to write, said so
