"""Run folders made before the keys moved into one module (``tests/fixtures/runs``) keep their keys.

Each folder was made by ``python -m ibench.launch bench.tasks_dir=tests/fixtures/runs/tasks
paths.output_dir=... wandb.mode=disabled pipeline.progress=false [its overrides]`` with the code of
commit 5c52160 (keys then computed in results/store.py, results/records.py, plan.py, prompt.py,
reference.py): the default settings, the batch variant, a few-shot prompt with two refinement
rounds, and the reference model cycled to ``sampling.n=3`` with non-default judge settings. Only
``.hydra/``, ``results/`` and the summary (the keys it ran under) are kept. Resuming a copy with
today's code must find every sample and every verdict: nothing generated, nothing judged.
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from omegaconf import OmegaConf
from rich.console import Console

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "runs"
RUNS = ("default", "batch_variant", "few_shot_refine2", "repeat_n3_judge")
# Samples a resume must make again, and why: few_shot_refine2's round-2 samples answered feedback
# of FORMAT_VERSION 2 (exact CPU time, memory and exit code); version 3's default shows coarse
# figures (issue 28), another feedback turn, so its 2 round-2 samples are new (round 1's 4 reused).
REMADE = {"few_shot_refine2": 2}
WHERE = ("bench.tasks_dir=", "paths.output_dir=", "wandb.mode=", "pipeline.progress=")  # where, not what


def compose_folder(run_dir: Path):
    """The folder's own settings: its overrides, with the tasks and outputs where they are now."""
    from hydra import compose, initialize_config_dir

    from ibench.run.config import CONF_DIR

    overrides = [str(o) for o in OmegaConf.load(run_dir / ".hydra" / "overrides.yaml") if not str(o).startswith(WHERE)]
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return compose("config", overrides=[f"bench.tasks_dir={FIXTURES / 'tasks'}", "wandb.mode=disabled",
                                            "pipeline.progress=false", *overrides])


@pytest.mark.parametrize("name", RUNS)
def test_an_existing_run_folder_resumes_with_nothing_generated_or_judged(ray_session, tmp_path, name):
    from ibench.run.driver import run

    run_dir = tmp_path / name
    shutil.copytree(FIXTURES / name, run_dir)
    before = json.loads((FIXTURES / name / "summary.json").read_text())["meta"]
    summary = run(compose_folder(run_dir), run_dir, console=Console(file=io.StringIO(), width=200))
    meta = summary.meta
    again = REMADE.get(name, 0)
    assert (meta["gen_key"], meta["judge_key"]) == (before["gen_key"], before["judge_key"])
    assert meta["generated"] == again and meta["judged_now"] == again, meta
    assert meta["reused_samples"] == before["generated"] - again
    assert meta["reused_verdicts"] == before["generated"] - again
    assert summary.overall.pass_at[1] == pytest.approx(json.loads((FIXTURES / name / "summary.json").read_text())
                                                       ["overall"]["pass_at"]["1"])


def test_a_setting_added_to_the_spec_changes_no_existing_key():
    """A field added to RunSpec (here test-only, one for each key) leaves every key of a run that
    keeps its default as it was; setting it gives that key, and only that one, a new value."""
    import dataclasses

    from hydra.utils import instantiate

    from ibench.run.keys import spec_feedback_key, spec_keys
    from ibench.run.spec import RunSpec

    @dataclasses.dataclass(frozen=True)
    class Extended(RunSpec):
        min_p: float = dataclasses.field(default=0.0, metadata={"key": "gen"})
        sandbox_flavour: str = dataclasses.field(default="plain", metadata={"key": "judge"})
        feedback_tone: str = dataclasses.field(default="neutral", metadata={"key": "round"})

    cfg = compose_folder(FIXTURES / "few_shot_refine2")
    spec, problems = RunSpec.from_config(cfg)
    assert spec is not None and not problems
    backend = instantiate(cfg.model, _convert_="all")
    before = json.loads((FIXTURES / "few_shot_refine2" / "summary.json").read_text())["meta"]
    same = Extended(**{f.name: getattr(spec, f.name) for f in dataclasses.fields(spec)})
    keys = spec_keys(same, backend)
    assert (keys.gen_key, keys.judge_key) == (before["gen_key"], before["judge_key"])
    assert spec_feedback_key(same) == spec_feedback_key(spec) == spec.feedback.fingerprint()

    gen = spec_keys(dataclasses.replace(same, min_p=0.05), backend)
    assert gen.gen_key != keys.gen_key and gen.judge_key == keys.judge_key
    jud = spec_keys(dataclasses.replace(same, sandbox_flavour="gvisor"), backend)
    assert jud.judge_key != keys.judge_key and jud.gen_key == keys.gen_key
    assert spec_feedback_key(dataclasses.replace(same, feedback_tone="terse")) != spec_feedback_key(same)
