"""The service's parts without Ray: the reward mapping, the settings' checks and their Hydra
config, the metrics' text, inline tasks refused or written once, the application's options."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ibench.judge import CompileInfo, SampleResult, Verdict
from ibench.serve.core import reward_for
from ibench.serve.metrics import Metrics, percentile
from ibench.serve.settings import LimitSettings, RewardSettings, ServeSettings
from ibench.tasks.load import load_task

ROOT = Path(__file__).resolve().parents[2]


def _result(verdict: Verdict, score: float | None = None) -> SampleResult:
    return SampleResult(verdict, [], CompileInfo(True, 0.0, True), "test", score=score)


def test_reward_mapping_defaults_and_overrides():
    plain = load_task(ROOT / "tasks" / "guess-the-number")
    scored = load_task(ROOT / "tasks" / "distinct-in-range")
    rs = RewardSettings()
    assert reward_for(_result(Verdict.OK), plain, rs) == 1.0
    assert {reward_for(_result(v), plain, rs) for v in Verdict if v not in (Verdict.OK, Verdict.SE)} == {0.0}
    assert reward_for(_result(Verdict.SE), plain, rs) is None  # never charged to the model
    assert reward_for(_result(Verdict.TLE, score=50), scored, rs) == 0.5  # score / max score
    assert reward_for(_result(Verdict.TLE, score=50), scored, RewardSettings(use_score=False)) == 0.0
    shaped = RewardSettings(by_verdict={"OK": 1.0, "QLE": 0.25}, judge_error=0.0)
    assert reward_for(_result(Verdict.QLE), plain, shaped) == 0.25
    assert reward_for(_result(Verdict.WA), plain, shaped) == 0.0  # not listed: 0
    assert reward_for(_result(Verdict.SE), plain, shaped) == 0.0


def test_settings_problems_name_the_field():
    assert ServeSettings().problems() == []
    bad = ServeSettings(port=0, replicas="many", reward=RewardSettings(by_verdict={"OK": 2.0, "AC": 1.0}),
                        limits=LimitSettings(max_batch=600, max_pending=512))
    text = "\n".join(bad.problems())
    for key in ("serve.port", "serve.replicas", "by_verdict.OK", "unknown verdict 'AC'", "serve.limits.max_batch"):
        assert key in text, key


def test_conf_serve_composes_to_the_typed_settings():
    from ibench.serve.__main__ import compose

    s = compose(["serve.limits.max_pending=8", "serve.judge.isolation=rlimit", "serve.reward.by_verdict.QLE=0.5"])
    assert isinstance(s, ServeSettings) and s.host == "127.0.0.1" and s.limits.max_pending == 8
    assert s.judge.isolation == "rlimit" and s.judge.variant == "interactive" and s.reward.by_verdict["QLE"] == 0.5
    assert Path(s.tasks_dir) == ROOT / "tasks"
    with pytest.raises(Exception, match="serve.hots"):
        compose(["serve.hots=1"])


def test_main_refuses_a_public_bind_without_a_token(capsys, monkeypatch):
    from ibench.serve.__main__ import main

    monkeypatch.delenv("IBENCH_SERVE_TOKEN", raising=False)
    assert main(["serve.host=0.0.0.0"]) == 2
    assert "token" in capsys.readouterr().err


def test_metrics_text_and_percentiles():
    assert percentile([], 99) == 0.0
    assert percentile([1, 2, 3, 4], 50) == 2 and percentile([1, 2, 3, 4], 99) == 4
    m = Metrics()
    m.pending = 3
    m.verdict("OK", 0.1)
    m.verdict("SE", 0.3)
    text = m.prometheus()
    assert "ibench_serve_queue_depth 3" in text and 'ibench_serve_verdicts_total{verdict="OK"} 1' in text
    assert "ibench_serve_judge_errors_total 1" in text and 'quantile="0.99"} 0.300000' in text


def test_inline_tasks_refuse_programs_unless_allowed(tmp_path):
    from ibench.serve.core import JudgeCore, SubmissionError

    core = JudgeCore(ServeSettings(tasks_dir="", inline_dir=str(tmp_path)))
    spec = {"kind": "interactive", "cases": [{"input": "1\n"}], "interactor": "int main(){}"}
    with pytest.raises(SubmissionError, match="allow_inline_programs"):
        core.task(spec)
    batch = {"kind": "batch", "cases": [{"input": "1 2", "output": "3"}]}
    t1, t2 = core.task(batch), core.task(dict(batch, cpu_time_limit_ms=1000))  # defaults: the same task
    assert t1.task_id == t2.task_id and len(list(tmp_path.iterdir())) == 1
    with pytest.raises(SubmissionError, match="expected output"):
        core.task({"kind": "batch", "cases": [{"input": "1"}]})


def test_build_app_with_fixed_and_autoscaled_replicas():
    pytest.importorskip("ray.serve")
    from ibench.serve.app import build_app

    build_app(ServeSettings(replicas="2"))
    build_app(ServeSettings(replicas="2", autoscale=True, max_replicas=4))


def test_an_allowed_inline_interactive_task_is_judged_by_its_interactor(tmp_path):
    from ibench.serve.core import JudgeCore

    guess = ROOT / "tasks" / "guess-the-number"
    core = JudgeCore(ServeSettings(tasks_dir="", inline_dir=str(tmp_path), allow_inline_programs=True))
    spec = {"kind": "interactive", "cases": [{"input": (guess / "cases" / "022.in").read_text()}],
            "interactor": (guess / "interactor" / "non_adaptive.cpp").read_text()}
    ok = core.judge({"task": spec, "source": (guess / "solutions" / "ok_binary_search.cpp").read_text()}, {})
    assert (ok["verdict"], ok["reward"], ok["queries"], ok["query_limit"]) == ("OK", 1.0, 12, 13)
    qle = core.judge({"task": spec, "source": (guess / "solutions" / "qle_linear_scan.cpp").read_text()}, {})
    assert qle["verdict"] == "QLE" and qle["max_query_ratio"] > 1.0 and qle["reward"] == 0.0


def test_a_local_ray_gets_serves_throughput_mode_and_a_joined_cluster_is_left_alone(monkeypatch):
    from ibench.serve.__main__ import SERVE_THROUGHPUT_ENV, local_ray_env

    for name in [*SERVE_THROUGHPUT_ENV, "RAY_worker_niceness"]:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("RAY_SERVE_ENABLE_DIRECT_INGRESS", "1")  # the operator's own choice stays
    assert local_ray_env(ServeSettings(address="auto")) == {}
    set_here = local_ray_env(ServeSettings())
    assert set_here == {"RAY_SERVE_THROUGHPUT_OPTIMIZED": "1", "RAY_worker_niceness": "0"}
    assert os.environ["RAY_SERVE_ENABLE_DIRECT_INGRESS"] == "1"
    monkeypatch.delenv("RAY_SERVE_THROUGHPUT_OPTIMIZED")
    monkeypatch.delenv("RAY_worker_niceness")
    assert local_ray_env(ServeSettings(throughput_mode=False, judge_nice=None)) == {}


def test_an_inline_task_sent_again_is_not_checked_again_and_a_changed_one_is(tmp_path):
    """A batch carries its inline task with every submission: the replica checks and writes it
    once. The same content in a new dict finds the same task; a changed limit, or the same
    number as another JSON type, is a task of its own (or the loader's refusal)."""
    import copy

    from ibench.serve import core as core_mod
    from ibench.serve.core import JudgeCore, SubmissionError

    guess = ROOT / "tasks" / "guess-the-number"
    core = JudgeCore(ServeSettings(tasks_dir="", inline_dir=str(tmp_path), allow_inline_programs=True))
    spec = {"kind": "interactive", "cases": [{"input": (guess / "cases" / "022.in").read_text()}],
            "interactor": (guess / "interactor" / "non_adaptive.cpp").read_text()}
    first = core.task(spec)
    checked = []
    real = core_mod.inline_task
    core_mod.inline_task = lambda *a: checked.append(a) or real(*a)
    try:
        assert core.task(copy.deepcopy(spec)) is first and checked == []
        slower = core.task({**copy.deepcopy(spec), "cpu_time_limit_ms": 2000})
        assert slower is not first and slower.cpu_time_limit_ms == 2000 and len(checked) == 1
        assert core.task({**copy.deepcopy(spec), "cpu_time_limit_ms": 2000.0}) is slower  # the same task once checked
        assert len(core._inline_seen) == 3
        with pytest.raises(SubmissionError):
            core.task({**copy.deepcopy(spec), "cases": []})
    finally:
        core_mod.inline_task = real


def test_the_openapi_schema_in_docs_is_the_services():
    """docs/serve-openapi.json (python -m ibench.serve --openapi > docs/serve-openapi.json) says
    what the service takes and sends: every path, and every schema's fields and required ones
    (compared field by field: another FastAPI or pydantic version words the rest its own way)."""
    import json

    pytest.importorskip("fastapi")
    from ibench.serve.app import api

    def shape(doc: dict) -> dict:
        return {"paths": {p: sorted(ops) for p, ops in doc["paths"].items()},
                "schemas": {name: (sorted(sch.get("properties", {})), sorted(sch.get("required", [])))
                            for name, sch in doc["components"]["schemas"].items()}}

    docs = json.loads((ROOT / "docs" / "serve-openapi.json").read_text())
    assert shape(docs) == shape(json.loads(json.dumps(api.openapi()))), \
        "docs/serve-openapi.json is stale: python -m ibench.serve --openapi > docs/serve-openapi.json"
