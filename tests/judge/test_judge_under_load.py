"""The judge under load (issue 16): two CPU hogs per CPU beside it, solutions at a known share of
their CPU limit. The verdict must not move with the load: 90-95 % is never TLE (C++, Python,
Java, Go), 105 % always is, a solution that exits right after the interactor accepts is never
charged with the grace, and a bundled task's known solutions keep their labels (validate).

Marked ``load``: CI runs it as a step of its own (`pytest -m load`); the default run leaves it
out. ``python scripts/bench_load.py`` prints the same figures with more runs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import bench_load  # noqa: E402

pytestmark = pytest.mark.load


@pytest.fixture(scope="module")
def hogs():
    procs = bench_load.start_hogs(2)
    yield
    bench_load.stop_hogs(procs)


def test_cpu_verdicts_do_not_move_with_the_load(hogs):
    runs = {"C++ at 92 %": 3, "C++ at 95 %": 2, "C++ at 105 %": 2, "Python at 92 %": 1, "Java at 90 %": 1,
            "Go at 92 %": 1, "exit right after accept (Python)": 2, "exit right after accept (C++)": 2}
    results = []
    for row in bench_load.ROWS:
        results += bench_load.run_rows([row], runs[row.name], progress=lambda *_: None)
    flips = {r["row"]: (r["verdicts"], r["messages"]) for r in results if r["flips"]}
    assert not flips, flips


@pytest.mark.timeout(1800)
def test_known_solutions_keep_their_labels_under_load(hogs):
    # guess-the-number holds every kind of known solution (the JVM's stack overflow whose MLE once
    # turned TLE under load among them); five cases of each keep the lane short
    code, text = bench_load.validate_under_load(["guess-the-number"], cases=5)
    assert code == 0, text
