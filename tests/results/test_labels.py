"""Labels name only what differs between the runs shown, from normalised values: no Hydra
escapes, never an endpoint or a credential."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from ibench.results.labels import differing, is_secret, labelled, plain_value
from ibench.results.runlog import RunLog

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "runs"


def _run(tmp_path: Path, name: str, overrides: list[str]) -> Path:
    run = tmp_path / name
    shutil.copytree(FIXTURES / "default", run)
    for path, where in ((run / "spec.json", ("identity",)), (run / "summary.json", ("meta", "identity"))):
        data = json.loads(path.read_text())
        node = data
        for k in where:
            node = node.setdefault(k, {})
        node["overrides"] = overrides
        path.write_text(json.dumps(data))
    return run


def test_labelled_drops_execution_settings_endpoints_and_credentials():
    got = labelled(["model.base_url=http\\://host\\:8000/v1", "+model.api_key_env=MY_KEY", "sampling.n=5",
                    "model.headers.Authorization=Bearer\\ x", "pipeline.flush_rows=10", "model.timeout_s=100",
                    "sampling.max_tokens=2048", "bench.ids=[a,b]", "model.extra_body.url=https://x",
                    "hydra.job.chdir=true"])
    assert got == {"sampling.n": "5", "sampling.max_tokens": "2048", "bench.ids": "[a,b]"}


def test_values_are_normalised():
    assert plain_value("http\\://host\\:8000/v1") == "http://host:8000/v1"
    assert plain_value("'a b'") == "a b"
    assert is_secret("model.base_url", "x") and is_secret("model.anything", "https://h/v1")
    assert not is_secret("sampling.max_tokens", "2048")
    assert differing([{"a": 1, "b": 2}, {"a": 1, "b": 3}, {"a": 1}]) == ["b"]


def test_compare_labels_show_only_what_differs_never_the_endpoint(tmp_path):
    from ibench.results.runs import _labels

    escaped = "model.base_url=http\\://very-long-host.example.com\\:8000/v1"
    plain = "model.base_url=http://very-long-host.example.com:8000/v1"
    a = _run(tmp_path, "a", [escaped, "sampling.n=5", "pipeline.flush_rows=10"])
    b = _run(tmp_path, "b", [plain, "sampling.n=8"])
    labels = _labels([RunLog.open(a), RunLog.open(b)])
    assert labels == ["reference [sampling.n=5]", "reference [sampling.n=8]"]
    assert not any("http" in lab or "flush" in lab for lab in labels)


def test_study_does_not_split_runs_by_an_escape(tmp_path):
    from ibench.results.study_runs import StudyRun, distinguish

    a = _run(tmp_path, "a", ["model.base_url=http\\://h\\:8000/v1", "bench.ids=[fx-guess-a,fx-guess-b]"])
    b = _run(tmp_path, "b", ["model.base_url=http://h:8000/v1", "bench.ids=[fx-guess-a,fx-guess-b]"])
    runs = [StudyRun.of(RunLog.open(a)), StudyRun.of(RunLog.open(b))]
    assert distinguish(runs) == []
    assert all("http" not in json.dumps(r.other) for r in runs)
    c = _run(tmp_path, "c", ["model.base_url=http://h:8000/v1", "bench.ids=[fx-guess-a]"])
    notes = distinguish([StudyRun.of(RunLog.open(x)) for x in (a, c)])
    assert notes == ["reference: runs differ in bench.ids; grouped apart by them"]


def test_a_study_label_shows_a_setting_a_run_did_not_override_by_its_own_value():
    from ibench.results.study_runs import StudyRun, distinguish

    runs = [StudyRun.of(RunLog.open(FIXTURES / n)) for n in ("default", "repeat_n3_judge")]
    distinguish(runs)
    assert runs[0].label == "reference [all_cases=false, transcript_bytes=16384, repeat_to_n=false, n=10]"
    assert runs[1].label == "reference [all_cases=true, transcript_bytes=1024, repeat_to_n=true, n=3]"
