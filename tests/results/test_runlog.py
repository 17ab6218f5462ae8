"""RunLog, the one reader of a run folder: the judge's result read back typed, one identity
fallback chain, summary-only folders for the reports, and the errors of folders that are not runs."""

from __future__ import annotations

import json

import pytest

from ibench.judge.outcome import CaseResult, CompileInfo, SampleResult
from ibench.judge.verdict import Verdict
from ibench.results.runlog import ResultsError, RunLog, find_runs, load, parse_result


def _result() -> SampleResult:
    return SampleResult(verdict=Verdict.WA, cases=[
        CaseResult(case="001", verdict=Verdict.OK, cpu_ms=1.5, queries=3, query_limit=10),
        CaseResult(case="002", verdict=Verdict.WA, message="wrong", solver_to_judge_tail="? 1\n")],
        compile=CompileInfo(ok=True, ms=12.3, cached=False, toolchain="g++ 12"), sandbox="ns", score=0.5,
        subtask_scores={"1": 10.0}, warnings=["w"], message="case 002: wrong")


def test_the_stored_result_reads_back_as_the_judges_dataclass():
    stored = _result().to_dict(full=True)
    back = parse_result(json.dumps(stored))
    assert back.to_dict(full=True) == stored
    assert back.cases[1].verdict is Verdict.WA and back.cases[1].solver_to_judge_tail == "? 1\n"
    # rows written by hand or by older code: the row's verdict, no compile record, None scores dropped
    partial = parse_result(json.dumps({"subtask_scores": {"1": 10, "2": None}}), "OK")
    assert partial.verdict is Verdict.OK and partial.subtask_scores == {"1": 10.0} and not partial.compile.ok
    with pytest.raises(ValueError):
        parse_result("not json")


def _summary_only(root, name, summary):
    d = root / name
    d.mkdir(parents=True)
    (d / "summary.json").write_text(json.dumps(summary))
    return d


def test_identity_is_resolved_once_recorded_then_config_then_summary(tmp_path):
    recorded = _summary_only(tmp_path, "a", {"model": "m", "meta": {"identity": {
        "label": "m (id)", "language": "python", "prompt": "few_shot", "variant": "batch",
        "sampling": {"n": 3}, "overrides": ["sampling.n=3"]}}})
    ident = RunLog.open(recorded).identity
    assert (ident.label, ident.language, ident.prompt, ident.variant) == ("m (id)", "python", "few_shot", "batch")
    assert ident.sampling == {"n": 3} and ident.overrides == ("sampling.n=3",)
    old = _summary_only(tmp_path, "b", {"model": "m"})
    (old / "config.resolved.yaml").write_text("bench:\n  language: go\nprompt:\n  name: io_template\n")
    ident = RunLog.open(old).identity
    assert (ident.label, ident.language, ident.prompt, ident.variant) == ("m", "go", "io_template", "interactive")
    assert ident.recorded == {}
    assert RunLog.open(_summary_only(tmp_path, "c", {})).label == "c"  # nothing recorded: the folder's name


def test_a_summary_only_folder_serves_the_reports_but_is_not_a_run_for_load(tmp_path):
    d = _summary_only(tmp_path, "run", {"model": "m", "refine": []})
    log = RunLog.open(d)
    assert log.store is None and log.refine_rows() == [] and log.mean_tokens() is None
    with pytest.raises(ResultsError, match="no results/ store"):
        log.verdicts
    with pytest.raises(ResultsError, match="no results/ store"):
        load(d)
    with pytest.raises(ResultsError, match="not a folder"):
        RunLog.open(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ResultsError, match="no results/ store"):
        RunLog.open(tmp_path / "empty")
    (d / "summary.json").write_text("{")
    with pytest.raises(ResultsError, match="not JSON"):
        RunLog.open(d).summary
    assert find_runs([tmp_path]) == [d.resolve()]


def test_a_stored_run_reads_back_typed(tmp_path):
    from ibench.results.store import RunStore, SampleRecord, VerdictRecord

    run = tmp_path / "run"
    with RunStore(run / "results") as store:
        store.add_sample(SampleRecord(sample_id="s1", gen_key="g", task_id="t", sample_index=0, model="m",
                                      language="cpp", prompt="[]", response="", reasoning="", code="int main(){}",
                                      extract_error="", prompt_tokens=1, completion_tokens=7, reasoning_tokens=0,
                                      finish_reason="stop", seed=0, latency_s=0.1, error="", source="", attempts=1,
                                      created_at=0.0))
        full = _result().to_dict(full=True)
        store.add_verdict(VerdictRecord(sample_id="s1", judge_key="j", gen_key="g", task_id="t", sample_index=0,
                                        model="m", verdict="WA", score=0.5, message="", compile_ok=True, compile_ms=1.0,
                                        compile_cached=False, sandbox="ns", n_cases=2, n_failed_cases=1,
                                        warnings_json="[]", result_json=json.dumps(full), judge_wall_s=0.1,
                                        judge_attempts=1, node="n", judged_at=0.0))
    log = load(run)
    assert [r.code for r in log.records()] == ["int main(){}"] and log.mean_tokens() == 7
    (judged,) = log.judged()
    assert judged.record.verdict == "WA" and judged.result.to_dict(full=True) == full
    assert log.result("s1") == judged.result and log.result("nope") is None
    assert log.sample_table()["compile_message"].to_list() == [""]
