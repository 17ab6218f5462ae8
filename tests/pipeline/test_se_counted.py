"""A sample that stays a judge error (SE) after re-judging is a failed sample, not a dropped one
(issue 21): pass@k keeps it in its task's denominator, the SE count is shown in the summary, the
report's tables and files and the W&B summary, and refine@k keeps SE chains as unsolved.

Before the change one accepted sample and three SE samples gave pass@1 = 1.000, and a task whose
only sample was SE left the metrics altogether."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from rich.console import Console

from ibench.results.metrics import refine_rounds, summarize
from ibench.results.report import render, write_files
from ibench.tasks.model import Task, TaskKind

REPO = Path(__file__).resolve().parents[2]


def task(pid: str) -> Task:
    return Task(root=Path("/nonexistent") / pid, task_id=pid, kind=TaskKind.INTERACTIVE, cpu_time_limit_ms=1000,
                memory_limit_mb=256, difficulty="Easy", categories=("Search",), cases=())


def test_one_honest_and_three_se_samples_is_pass_at_1_a_quarter(tmp_path):
    s = summarize("m", [task("a")], {"a": ["OK", "SE", "SE", "SE"]}, ks=[1], bootstrap=50)
    assert s.overall.pass_at[1] == pytest.approx(0.25)
    assert s.n_samples == 4 and s.n_accepted == 1 and s.n_judge_errors == 3 and s.tasks[0].n == 4
    assert s.failure_counts == {k: 0 for k in s.failure_counts} and "SE" not in s.failure_composition
    assert any("count as failed" in w for w in s.warnings)
    assert s.flat()["judge_errors"] == 3

    buf = io.StringIO()
    render(s, Console(file=buf, width=200))
    printed = " ".join(buf.getvalue().split())  # titles wrap to the table's width
    assert "4 samples (3 SE, counted as failed)" in printed
    assert "judge errors (SE, counted as failed in pass@k, not in the composition): 3" in printed
    assert "excluded" not in printed

    files = write_files(s, tmp_path, plots=False)
    assert files["failure_composition_csv"].read_text().strip().splitlines()[-1] == "SE,3,"
    per_task = files["per_task_csv"].read_text().splitlines()
    header = per_task[0].split(",")
    row = dict(zip(header, per_task[1].split(",")))
    assert row["n"] == "4" and row["c"] == "1" and row["judge_errors"] == "3" and row["SE"] == "3"


def test_a_task_whose_every_sample_is_se_scores_zero_not_nothing():
    s = summarize("m", [task("a"), task("b")], {"a": ["OK", "OK"], "b": ["SE", "SE"]}, ks=[1], bootstrap=50)
    assert s.n_tasks == 2 and s.overall.pass_at[1] == pytest.approx(0.5)


def test_refine_keeps_se_chains_unsolved():
    rows = [{"task_id": "a", "chain": 0, "round": 1, "verdict": "WA"},
            {"task_id": "a", "chain": 0, "round": 2, "verdict": "OK"},
            {"task_id": "a", "chain": 1, "round": 1, "verdict": "SE"}]  # an SE chain stops: never solved
    r = {x["round"]: x for x in refine_rounds(rows)}
    assert r[1]["refine@k"] == 0.0 and r[2]["refine@k"] == pytest.approx(0.5)
    assert r[1]["n_unsolved"] == 2 and r[1]["SE"] == pytest.approx(0.5) and r[1]["WA"] == pytest.approx(0.5)


def test_launch_counts_a_sample_that_stays_se_and_its_resume_too(ray_session, tmp_path):
    """End to end: the reference model's correct program on a task whose interactor FAILs is
    re-judged (pipeline.rejudge_se), stays SE and counts as failed; the resumed run, which judges
    the stored SE sample again, reports the same."""
    from hydra import compose, initialize_config_dir

    from ibench.run.config import CONF_DIR
    from ibench.run.driver import run

    tasks = tmp_path / "tasks"
    shutil.copytree(REPO / "tests" / "fixtures" / "tasks" / "broken-interactor", tasks / "broken-interactor")
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose("config", overrides=[f"bench.tasks_dir={tasks}", "pipeline.progress=false",
                                           "wandb.mode=disabled", "sampling.n=1"])
    for attempt in range(2):
        buf = io.StringIO()
        summary = run(cfg, tmp_path / "run", console=Console(file=buf, width=200))
        assert summary.n_judge_errors == 1 and summary.n_samples == 1, attempt
        assert summary.n_tasks == 1 and summary.overall.pass_at[1] == 0.0, attempt
        assert "(1 SE, counted as failed)" in " ".join(buf.getvalue().split())
