"""A launch reports the isolation of every node that judges, and `judge.require_isolation=true`
refuses to start where a node cannot build the box: before anything is generated or judged."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from rich.console import Console

REPO = Path(__file__).resolve().parents[2]


def compose(tasks_dir: Path, *extra: str):
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    from ibench.run.config import CONF_DIR

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return hydra_compose("config", overrides=[f"bench.tasks_dir={tasks_dir}", "bench.non_adaptive_cases=2",
                                                  "pipeline.progress=false", "wandb.mode=disabled", *extra])


@pytest.fixture(scope="module")
def one_task(tmp_path_factory):
    root = tmp_path_factory.mktemp("tasks")
    shutil.copytree(REPO / "tasks" / "guess-the-number", root / "guess-the-number")
    return root


def test_require_isolation_refuses_a_node_without_the_box(ray_session, one_task, tmp_path):
    from ibench.judge.judge import IsolationError
    from ibench.run.driver import run

    buf = io.StringIO()
    with pytest.raises(IsolationError, match="require_isolation=true.*rlimit\\+seccomp"):
        run(compose(one_task, "judge.isolation=rlimit", "judge.require_isolation=true"), tmp_path / "run",
            console=Console(file=buf, width=200))
    assert "sandbox rlimit+seccomp" in buf.getvalue()
    assert not (tmp_path / "run" / "results" / "samples.parquet").exists()
    assert not list((tmp_path / "run").rglob("part-*.parquet")), "nothing may be generated or judged"


def test_each_node_isolation_is_printed_at_start(ray_session, one_task, tmp_path):
    from ibench.judge import Judge, JudgeSettings
    from ibench.run.driver import run

    buf = io.StringIO()
    run(compose(one_task, "bench.ids=[guess-the-number]", "sampling.n=1"), tmp_path / "run",
        console=Console(file=buf, width=200))
    label = Judge(JudgeSettings()).sandbox.label
    assert f"sandbox {label}" in buf.getvalue(), buf.getvalue()[:2000]
