"""spec.json: the whole RunSpec, versioned, at the head of a run log; RunLog and the reports read
it; a folder made before it is migrated once, with a message."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from ibench.run.keys import KEY_VERSION
from ibench.results import runspec
from ibench.results.runlog import ResultsError, RunLog
from ibench.run.spec import SPEC_VERSION

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "runs"


def _spec():
    from hydra import compose, initialize_config_dir

    from ibench.run.config import CONF_DIR
    from ibench.run.spec import RunSpec

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3", job_name="ibench"):
        cfg = compose("config", overrides=[f"bench.tasks_dir={FIXTURES / 'tasks'}", "sampling.n=3"])
    spec, problems = RunSpec.from_config(cfg)
    assert spec is not None and not problems, problems
    return spec


def _tasks(root: Path):
    return [SimpleNamespace(task_id=p.name, root=p) for p in sorted(root.iterdir()) if p.is_dir()]


def test_the_record_holds_versions_keys_tasks_code_and_toolchains(tmp_path):
    spec = _spec()
    record = runspec.build(spec, spec.identity("reference", ["sampling.n=3"]),
                           {"gen_key": "g", "judge_key": "j"}, _tasks(FIXTURES / "tasks"), ["sampling.n=3"])
    path = runspec.write(tmp_path, record)
    back = json.loads(path.read_text())
    assert back["file_version"] == runspec.FILE_VERSION and back["spec_version"] == SPEC_VERSION
    assert back["key_version"] == KEY_VERSION and back["keys"] == {"gen_key": "g", "judge_key": "j"}
    assert back["spec"]["sampling"]["n"] == 3 and back["spec"]["judge"]["compiler"] == "g++"
    assert back["spec"]["variant"] == "interactive" and back["spec"]["tasks"]["tasks_dir"].endswith("tasks")
    assert [t["id"] for t in back["tasks"]] == ["fx-guess-a", "fx-guess-b"]
    assert all(len(t["fingerprint"]) == 16 for t in back["tasks"])
    assert back["code_version"] and back["code_version"] != "unknown"
    assert set(back["toolchains"]) >= {"g++", "java", "go", "python"}
    assert back["toolchains"]["g++"] and "g++" in back["toolchains"]["g++"]
    assert back["overrides"] == ["sampling.n=3"] and back["identity"]["label"] == "reference"


def test_a_task_fingerprint_follows_its_files_not_its_solutions(tmp_path):
    task = tmp_path / "fx-guess-a"
    shutil.copytree(FIXTURES / "tasks" / "fx-guess-a", task)
    before = runspec.task_fingerprint(task)
    (task / "solutions" / "extra.cpp").write_text("int main(){}\n")
    assert runspec.task_fingerprint(task) == before
    (task / "desc.md").write_text((task / "desc.md").read_text() + "\nOne more line.\n")
    assert runspec.task_fingerprint(task) != before


def _copy_run(name: str, tmp_path: Path) -> Path:
    run = tmp_path / name
    shutil.copytree(FIXTURES / name, run, ignore=shutil.ignore_patterns("spec.json"))
    return run


def test_runlog_reads_the_spec_first(tmp_path):
    run = _copy_run("default", tmp_path)
    record = json.loads(json.dumps(runspec.migrate(run, {}, {}, persist=False)))
    record.update(migrated=False, tasks=[{"id": "fx-guess-a", "fingerprint": "x"}],
                  identity={"label": "from-the-spec", "language": "python", "prompt": "few_shot",
                            "variant": "batch", "sampling": {"n": 9}, "overrides": ["sampling.n=9"]})
    runspec.write(run, record)
    log = RunLog.open(run)
    assert log.label == "from-the-spec" and log.identity.language == "python"
    assert log.identity.variant == "batch" and log.identity.sampling == {"n": 9}
    assert log.task_ids == ("fx-guess-a",)


def test_an_older_folder_is_migrated_once_with_a_message(tmp_path, caplog):
    run = _copy_run("default", tmp_path)
    assert not (run / "spec.json").exists()
    with caplog.at_level(logging.WARNING, logger="ibench.results.runspec"):
        log = RunLog.open(run)
        assert log.spec["migrated"] is True
        assert log.task_ids == ("fx-guess-a", "fx-guess-b") and log.label == "reference"
    assert (run / "spec.json").is_file()
    assert sum("migrated once" in r.getMessage() for r in caplog.records) == 1
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="ibench.results.runspec"):
        again = RunLog.open(run)
        assert again.spec["migrated"] is True and again.spec["spec"]["sampling"]["n"] == 10
    assert not caplog.records  # once


def test_a_newer_spec_file_is_refused(tmp_path):
    run = _copy_run("default", tmp_path)
    (run / "spec.json").write_text(json.dumps({"file_version": runspec.FILE_VERSION + 1}))
    with pytest.raises(ResultsError, match="newer than this ibench reads"):
        RunLog.open(run).spec


def test_a_resume_keeps_the_code_the_run_was_made_with(tmp_path):
    first = {"file_version": runspec.FILE_VERSION, "code_version": "v1", "toolchains": {"g++": "g++ 12"}}
    runspec.write(tmp_path, first)
    runspec.write(tmp_path, {**first, "code_version": "v2", "toolchains": {"g++": "g++ 13"}})
    back = runspec.read(tmp_path)
    assert back["code_version"] == "v1" and back["toolchains"] == {"g++": "g++ 12"}
    assert back["resumed_with"] == [{"code_version": "v2", "toolchains": {"g++": "g++ 13"}}]
