"""Time-limit sensitivity from the stored CPU times (issue 31): a pass survives a fraction of
the limit only when its slowest case fits, the language's time factor counts, failures stay
failures, and at 1.0 it is the run's own pass@1."""

from __future__ import annotations

import csv

import pytest
from analyses_synth import Sample, write_run

from ibench.results.analyses.cli import main
from ibench.results.analyses.common import AnalysisError, open_runs
from ibench.results.analyses.timelimit import timelimit_rows

FIXTURES = "tests/fixtures/runs"


def _run(tmp_path, language="cpp"):
    from analyses_synth import REPO

    tasks = REPO / "tests" / "fixtures" / "runs" / "tasks"  # both cards: cpu_time_limit_ms 1000
    samples = [Sample("fx-guess-a", 0, "OK", 100, 1.0, [10.0, 300.0], "int main(){}"),
               Sample("fx-guess-a", 1, "WA", 100, 1.0, [5.0, 10.0], "int main(){}"),
               Sample("fx-guess-b", 0, "OK", 100, 1.0, [800.0, 20.0], "int main(){}"),
               Sample("fx-guess-b", 1, "TLE", 100, 1.0, [1000.0], "int main(){}")]
    return write_run(tmp_path / f"run_{language}", samples, tasks_dir=tasks, language=language)


def test_a_pass_survives_a_fraction_only_when_its_slowest_case_fits(tmp_path):
    (run,) = open_runs([_run(tmp_path)])
    rows, tasks = timelimit_rows(run)
    got = {r["fraction"]: (r["pass@1"], r["accepted"], r["lost_vs_1.0"]) for r in rows}
    # a: 300 ms fits 0.5 (500) not 0.25 (250); b: 800 ms fits only 1.0; the WA and the TLE never pass
    assert got == {0.25: (0.0, 0, 2), 0.5: (0.25, 1, 1), 0.75: (0.25, 1, 1), 1.0: (0.5, 2, 0)}
    slow = {t["task_id"]: (t["slowest_accepted_ms"], t["share_of_limit"]) for t in tasks}
    assert slow == {"fx-guess-a": (300.0, 0.3), "fx-guess-b": (800.0, 0.8)}


def test_the_languages_time_factor_doubles_pythons_limit(tmp_path):
    (run,) = open_runs([_run(tmp_path, "python")])
    rows, _ = timelimit_rows(run, (0.25, 0.5))
    # the limit is 2000 ms: b's 800 ms fits half of it, a's 300 ms a quarter
    assert [(r["fraction"], r["accepted"]) for r in rows] == [(0.25, 1), (0.5, 2)]


def test_at_the_full_limit_it_is_the_runs_own_pass_at_1():
    runs = open_runs([f"{FIXTURES}/default", f"{FIXTURES}/repeat_n3_judge"])
    for run in runs:
        rows, _ = timelimit_rows(run, (1.0,))
        assert rows[0]["pass@1"] == pytest.approx(run.log.summary["overall"]["pass_at"]["1"])


def test_without_task_cards_it_says_where_it_looked(tmp_path):
    (run,) = open_runs([_run(tmp_path)], tasks_dir=tmp_path / "nowhere")
    with pytest.raises(AnalysisError, match="--tasks"):
        timelimit_rows(run)


def test_the_command_writes_the_table_and_the_figure(tmp_path):
    out = tmp_path / "out"
    assert main(["timelimit", str(_run(tmp_path)), "--out", str(out), "--fractions", "0.5,1"]) == 0
    rows = list(csv.DictReader(open(out / "timelimit.csv")))
    assert [(r["fraction"], r["pass@1"]) for r in rows] == [("0.5", "0.25"), ("1.0", "0.5")]
    assert (out / "timelimit.png").stat().st_size > 0 and (out / "timelimit.pdf").stat().st_size > 0
    assert main(["timelimit", str(tmp_path), "--fractions", "0,1"]) == 2  # a fraction outside (0, 1]


def test_the_tables_and_figures_go_to_a_wandb_run_of_their_own(tmp_path):
    import time

    from ibench.results.wandb_sink import read_offline_run

    out = tmp_path / "out"
    assert main(["timelimit", f"{FIXTURES}/default", "--out", str(out), "--wandb", "offline"]) == 0
    (run,) = list((out / "wandb").glob("offline-run-*"))
    for _ in range(100):  # the run file is written by W&B's own process: it may lag the finish
        history = read_offline_run(run)["history"]
        if history:
            break
        time.sleep(0.1)
    (logged,) = history
    assert logged["analyses/timelimit/_type"] == "table-file" and logged["analyses/timelimit/nrows"] == 4
    assert logged["analyses/timelimit_tasks/nrows"] == 2 and logged["analyses/timelimit_plot/_type"] == "image-file"


def test_python_m_ibench_results_dispatches_the_new_commands(tmp_path):
    import subprocess
    import sys

    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "ibench.results", "analyse", "timelimit", f"{FIXTURES}/default",
                           "--out", str(out), "--no-figures"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (out / "timelimit.csv").is_file() and not (out / "timelimit.png").exists()
    for cmd in (["rejudge", "--times", "0", f"{FIXTURES}/default"], ["familiarity", f"{FIXTURES}/default"]):
        done = subprocess.run([sys.executable, "-m", "ibench.results", *cmd], capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and done.stderr.startswith("error: "), (cmd, done.stderr)


def test_on_tasks_with_subtasks_a_subtask_is_lost_when_one_of_its_tests_is_too_slow(tmp_path):
    # distinct-in-range (limit 1000 ms): subtask 1 (20 points) tests 01-07, 2 (30) 01 02 04 05 08-11, 3 (50) 01-20
    names = [f"{i:02d}" for i in range(1, 21)]
    a = [600.0 if n == "15" else 10.0 for n in names]  # accepted; its one slow test is in subtask 3 only
    b = [300.0 if n == "08" else 10.0 for n in names[:8]]  # TLE, earned 1 and 2; 08 is in subtask 2
    samples = [Sample("distinct-in-range", 0, "OK", 10, 0.1, a, "int main(){}", score=100.0, case_names=names,
                      subtask_scores={"1": 20.0, "2": 30.0, "3": 50.0}),
               Sample("distinct-in-range", 1, "TLE", 10, 0.1, b, "int main(){}", score=50.0, case_names=names[:8],
                      subtask_scores={"1": 20.0, "2": 30.0, "3": 0.0})]
    (run,) = open_runs([write_run(tmp_path / "sub", samples)])
    rows, _ = timelimit_rows(run)
    got = {r["fraction"]: (r["pass@1"], r["relative_score_subtask_tasks"]) for r in rows}
    assert got == {0.25: (0.0, pytest.approx(0.35)), 0.5: (0.0, pytest.approx(0.5)),
                   0.75: (0.5, pytest.approx(0.75)), 1.0: (0.5, pytest.approx(0.75))}
