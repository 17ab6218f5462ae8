"""A launch with one honest and three SE-forging programs (issue 21, must show): the forging
programs flood a slow but correct interactor and then wait, so that at the wall-clock cap the
judge is busy and the program idle. They must be judged the program's failure (IDLE), never a
judge error; pass@1 is 0.25 with no SE. (Before the change the three were SE, which the metrics
dropped: pass@1 = 1.000.)"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "judge"))
from judge_fixtures import build_guess_task, solver  # noqa: E402
from test_forgery import FLOOD, SLOW_INTERACTOR  # noqa: E402


def test_one_honest_and_three_flooding_programs_is_a_quarter_and_no_se(ray_session, tmp_path):
    from hydra import compose, initialize_config_dir

    from ibench.run.config import CONF_DIR
    from ibench.run.driver import run

    root = build_guess_task(tmp_path / "tasks")
    (root / "interactor" / "non_adaptive.cpp").write_text(SLOW_INTERACTOR)
    sols = root / "solutions"
    (sols / "ok.cpp").write_text(solver())
    expected = {"ok.cpp": {"expected": "OK"}}
    for i, pause in enumerate(("100", "50", "1000")):
        (sols / f"flood_{i}.cpp").write_text(FLOOD.replace("sleep(100)", f"sleep({pause})"))
        expected[f"flood_{i}.cpp"] = {"expected": "IDLE"}
    (sols / "expected.json").write_text(json.dumps(expected))
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose("config", overrides=[f"bench.tasks_dir={tmp_path / 'tasks'}", "pipeline.progress=false",
                                           "wandb.mode=disabled", "judge.wall_factor=1.0", "judge.wall_extra_s=0.5",
                                           "judge.wall_hard_factor=1.2"])
    summary = run(cfg, tmp_path / "run", console=Console(file=io.StringIO(), width=200))
    assert summary.n_samples == 4 and summary.n_judge_errors == 0
    assert summary.overall.pass_at[1] == 0.25
    assert summary.failure_counts["IDLE"] == 3
