"""pass@k, stratification, bootstrap CIs, failure composition, and SE counted as failed."""

import math
from pathlib import Path

import pytest

from ibench.results.metrics import pass_at_k, summarize
from ibench.tasks.model import Task, TaskKind


def brute_pass_at_k(n, c, k):
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


@pytest.mark.parametrize("n,c,k", [(10, 0, 1), (10, 3, 1), (10, 3, 5), (10, 6, 5), (10, 10, 5), (7, 2, 3), (5, 1, 5)])
def test_pass_at_k_matches_the_combinatorial_definition(n, c, k):
    assert pass_at_k(n, c, k) == pytest.approx(brute_pass_at_k(n, c, k))


def test_pass_at_k_is_undefined_below_k_samples():
    assert pass_at_k(3, 1, 5) is None


def task(pid, difficulty, cats):
    return Task(root=Path("/nonexistent") / pid, task_id=pid, kind=TaskKind.INTERACTIVE, cpu_time_limit_ms=1000,
                memory_limit_mb=256, difficulty=difficulty, categories=tuple(cats), cases=())


def test_summary_stratifies_counts_se_as_failed_and_composes_failures():
    tasks = [task("a", "Easy", ["Graph", "Math"]), task("b", "Hard", ["Math"]), task("c", "Easy", ["Game"])]
    verdicts = {
        "a": ["OK"] * 4 + ["WA"] * 5 + ["SE"],  # SE is a failed sample: n=10, c=4
        "b": ["WA", "QLE", "CE", "RE", "TLE", "OK"],  # n=6, c=1
        "c": ["SE", "SE"],  # n=2, c=0: in pass@1 (0.0), too few for pass@5
    }
    s = summarize("m", tasks, verdicts, ks=[1, 5], bootstrap=200, seed=1)
    assert s.n_judge_errors == 3 and s.n_tasks == 3 and s.n_samples == 18 and s.n_accepted == 5
    p1 = {"a": 4 / 10, "b": 1 / 6, "c": 0.0}
    assert s.overall.pass_at[1] == pytest.approx((p1["a"] + p1["b"] + p1["c"]) / 3)
    assert s.overall.pass_at[5] == pytest.approx((brute_pass_at_k(10, 4, 5) + brute_pass_at_k(6, 1, 5)) / 2)
    diff = {g.name: g for g in s.by_difficulty}
    assert set(diff) == {"Easy", "Hard"} and diff["Easy"].pass_at[1] == pytest.approx((p1["a"] + p1["c"]) / 2)
    cats = {g.name: g for g in s.by_category}
    assert cats["Math"].pass_at[1] == pytest.approx((p1["a"] + p1["b"]) / 2)  # multi-label
    assert cats["Graph"].pass_at[1] == pytest.approx(p1["a"])
    assert cats["Game"].pass_at[1] == 0.0
    assert s.failure_counts["WA"] == 6 and s.n_failed == 10
    assert s.failure_composition["WA"] == pytest.approx(0.6)
    assert sum(s.failure_composition.values()) == pytest.approx(1.0)
    assert "SE" not in s.failure_composition
    lo, hi = s.overall.ci[1]
    assert lo <= s.overall.pass_at[1] <= hi
    assert any("JUDGE ERROR" in w for w in s.warnings)
    flat = s.flat()
    assert flat["overall/pass@1"] == pytest.approx(s.overall.pass_at[1]) and flat["judge_errors"] == 3
