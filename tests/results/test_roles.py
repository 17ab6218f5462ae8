"""Each settings field is marked once with its role (measured, execution, extent, label), and
the run folder's name (exclude_keys), what a resume may change (RESUME_ALLOWED) and what each
key leaves out (Keyed.left_out) are derived from those marks."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from omegaconf import OmegaConf

from ibench import roles as marks
from ibench.roles import EXECUTION, EXTENT, MEASURED, ROLES, UnmarkedField, mark_of
from ibench.run import config, keys


def _schemas() -> list[tuple[str, type]]:
    return [("", config.Config)] + [(g, cls) for g, classes in config.GROUP_SCHEMAS.items() for cls in classes]


def test_every_field_of_every_config_group_is_marked_once():
    """Each field carries its role in its own dataclass (``field(metadata=...)`` through
    ibench.roles.role): one mark, where the field is declared; nothing marks it elsewhere."""
    unmarked = []
    for group, cls in _schemas():
        for f in dataclasses.fields(cls):
            try:
                r, _ = mark_of(cls, f.name, strict=True)
            except UnmarkedField:
                unmarked.append(f"{group}.{f.name} ({cls.__name__})")
                continue
            assert r in ROLES and f.metadata["role"] == r
    assert unmarked == [], f"settings fields without a role: {unmarked}"
    assert not hasattr(marks, "MARKS_ELSEWHERE")  # the marks live in the dataclasses only
    config.setting_roles()  # no field two model schemas mark differently


def test_every_schema_in_the_config_store_is_walked():
    from hydra.core.config_store import ConfigStore

    walked = {cls for _, cls in _schemas()}
    repo = ConfigStore.instance().repo
    stored = set()
    for group in ("model", "sampling", "prompt", "feedback", "judge", "bench", "wandb", "cluster"):
        for node in repo[group].values():
            stored.add(OmegaConf.get_type(node.node))
    assert stored <= walked, f"schemas no roles test walks: {stored - walked}"


def test_an_unmarked_field_fails():
    @dataclasses.dataclass
    class NewSettings:
        marked: int = marks.role(MEASURED, 1)
        forgotten: int = 2

    assert mark_of(NewSettings, "marked") == (MEASURED, True)
    with pytest.raises(UnmarkedField, match="NewSettings.forgotten has no role"):
        mark_of(NewSettings, "forgotten", strict=True)
    assert mark_of(NewSettings, "forgotten") == (MEASURED, True)  # a launch meanwhile: the safe side
    with pytest.raises(ValueError):
        marks.role("sometimes", 1)


def test_key_rules_are_derived_from_the_marks_and_keep_their_history():
    for name, (cls, rule) in keys.rules().items():
        hashed = {f.name for f in dataclasses.fields(cls) if mark_of(cls, f.name)[1]}
        assert set(rule.base) <= hashed, f"{name}: base fields not measured: {set(rule.base) - hashed}"
        assert set(rule.left_out) == {f.name for f in dataclasses.fields(cls)} - hashed
    # what each key left out before the marks (issue 34): unchanged, so no existing key moves
    r = keys.rules()
    assert set(r["sampling"][1].left_out) == {"name", "refine_rounds"}
    assert set(r["judge"][1].left_out) == set()
    # (rephrase_with came later: a new field is hashed only off its default, so leaving it out moves no key)
    assert set(r["prompt"][1].left_out) == {"name", "example_pool", "rephrase_with"}
    assert set(r["feedback"][1].left_out) == {"name"}
    assert "name" in r["reference"][1].left_out


def test_resume_allowed_and_exclude_keys_are_the_execution_settings():
    from ibench.run.resume import RESUME_ALLOWED, resume_allowed

    roles = config.setting_roles()
    for key, r in roles.items():
        assert resume_allowed(key) == (r in (EXECUTION, EXTENT)), key
        assert (key in config.execution_keys()) == (r == EXECUTION or key in config.CHOICE_IN_PATH), key
    assert "hydra." in RESUME_ALLOWED
    # the two examples: each now both out of the folder name and accepted by a resume
    for key in ("pipeline.flush_rows", "model.timeout_s"):
        assert resume_allowed(key) and key in config.execution_keys()
    assert resume_allowed("cluster.wait_s")  # a cluster option no schema declares: its group's role
    assert not resume_allowed("sampling.n") and not resume_allowed("model.extra_body.x")


def _composed(overrides: list[str]):
    from hydra import compose, initialize_config_dir
    from hydra.core.hydra_config import HydraConfig

    with initialize_config_dir(config_dir=str(config.CONF_DIR), version_base="1.3", job_name="ibench"):
        cfg = compose("config", overrides=overrides, return_hydra_config=True)
        HydraConfig.instance().set_config(cfg)
        return cfg, Path(str(cfg.hydra.run.dir)).name


def test_the_folder_name_leaves_out_execution_settings():
    cfg, plain = _composed(["model=vllm-server"])
    assert list(cfg.hydra.job.config.override_dirname.exclude_keys) == config.execution_keys()
    _, same = _composed(["model=vllm-server", "pipeline.flush_rows=10", "model.timeout_s=100",
                         "cluster.num_cpus=2", "metrics.seed=3"])
    assert same == plain == config.DEFAULT_LEAF
    _, other = _composed(["model=vllm-server", "sampling.n=3"])
    assert other == "sampling.n=3"


@pytest.fixture
def vllm_server_run(tmp_path):
    """A run folder made with model=vllm-server sampling.n=3 (its saved settings only)."""
    cfg, _ = _composed(["model=vllm-server", "sampling.n=3"])
    saved = OmegaConf.to_container(cfg, resolve=False)
    saved.pop("hydra")
    run = tmp_path / "run"
    (run / ".hydra").mkdir(parents=True)
    (run / ".hydra" / "config.yaml").write_text(OmegaConf.to_yaml(saved))
    return run


def _adopt(run: Path, overrides: list[str]):
    from ibench.run.overrides import CommandLine
    from ibench.run.resume import adopt_resume

    with CommandLine() as cmd:
        current = cmd.compose([f"resume={run}", "model=vllm-server", *overrides])
        return adopt_resume(current, run, overrides, cmd)


def test_resume_accepts_an_execution_change_and_refuses_a_measured_one(vllm_server_run):
    from ibench.run.preflight import ConfigError

    cfg, kept, _ = _adopt(vllm_server_run, ["pipeline.flush_rows=10", "model.timeout_s=100"])
    assert kept == ["pipeline.flush_rows=10", "model.timeout_s=100"]
    assert cfg.pipeline.flush_rows == 10 and cfg.model.timeout_s == 100 and cfg.sampling.n == 3
    with pytest.raises(ConfigError) as err:
        _adopt(vllm_server_run, ["sampling.n=5", "model.send_seed=false", "pipeline.flush_rows=10"])
    text = str(err.value)
    assert "sampling.n=5: the folder's run has sampling.n=3" in text
    assert "model.send_seed=false: the folder's run has model.send_seed=True" in text
    measured_part = text.split("A resume may change")[0]
    assert "flush_rows" not in measured_part
    assert "pipeline.*" in text and "model.timeout_s" in text and "sampling.refine_rounds" in text


def test_resume_reads_the_folders_spec_and_refuses_other_keys(vllm_server_run):
    import json

    from ibench.run.preflight import ConfigError
    from ibench.results import runspec

    record = {"file_version": runspec.FILE_VERSION, "key_version": keys.KEY_VERSION, "keys": {"gen_key": "g1"},
              "tasks": [{"id": "t", "fingerprint": "f"}], "code_version": "v0.1-test"}
    (vllm_server_run / "spec.json").write_text(json.dumps(record))
    _, _, notes = _adopt(vllm_server_run, [])
    assert "resume: its spec.json: 1 task(s), gen key g1, made by v0.1-test" in notes
    (vllm_server_run / "spec.json").write_text(json.dumps({**record, "key_version": keys.KEY_VERSION + 1}))
    with pytest.raises(ConfigError, match="nothing stored would be reused"):
        _adopt(vllm_server_run, [])
