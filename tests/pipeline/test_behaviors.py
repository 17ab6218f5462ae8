"""Reasoning-behavior analysis (``python -m ibench.results behaviors``) end to end: a launch whose
model (a local OpenAI-compatible server) returns reasoning, then the same server as the judge model
answering with labels — or with nonsense for some segments."""

from __future__ import annotations

import json
import shutil
import time

import polars as pl
import pytest

from viewer_fixtures import REPO, TASK, ApiServer, api_model_overrides, launch


def judge_args(url: str) -> list[str]:
    return ["judge_model=openai-api", f"judge_model.base_url={url}", "judge_model.api_key_env=null", "judge_model.model=judge",
            "judge_model.name=judge", "judge_model.preflight=false", "judge_model.max_retries=0"]


def test_segments_and_answers():
    from ibench.results.behaviors import load_settings, parse_answer, segment

    text = ("word " * 11 + "\n\n") * 60
    spans = segment(text, 400)
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:])) and all(e - s <= 400 for s, e in spans)
    assert all(text[e - 2:e] == "\n\n" for _, e in spans[:-1])  # cut at paragraph ends
    assert segment("", 10) == [] and segment("x" * 25, 10) == [(0, 10), (10, 20), (20, 25)]
    s = load_settings()
    labels = s.labels
    assert len(labels) == 8 and set(labels.values()) == {"Analysis", "Planning", "Exploration", "Implementation",
                                                         "Verification"}
    assert parse_answer('{"behavior": "backtracking"}', labels) == "backtracking"
    assert parse_answer('<think>maybe subgoal_setting</think>```json\n{"behavior": "Test case verification"}\n```',
                        labels) == "test_case_verification"
    assert parse_answer("This is mostly complexity analysis.", labels) == "complexity_analysis"
    assert parse_answer("backtracking or subgoal setting", labels) is None  # two: no answer
    assert parse_answer("banana", labels) is None and parse_answer("", labels) is None
    msgs = s.messages("SEGMENT TEXT", 2, 3)
    assert msgs[0]["role"] == "system" and "SEGMENT TEXT" in msgs[1]["content"] and "segment 2 of 3" in msgs[1]["content"]
    assert '{"behavior": "<one of: algorithm_analysis' in msgs[1]["content"]


@pytest.fixture
def api():
    s = ApiServer()
    yield s
    s.close()


def test_behaviors_end_to_end(ray_session, api, tmp_path, capsys):
    from ibench.results.behaviors import main, read_labels
    from ibench.results.viewer import build_site
    from ibench.results.wandb_sink import read_offline_run

    shutil.copytree(REPO / "tasks" / TASK, tmp_path / "tasks" / TASK)
    run = launch(tmp_path / "run", tmp_path / "tasks", *api_model_overrides(api.url), "sampling.n=4")
    samples = pl.read_parquet(run / "results" / "samples.parquet")
    with_reasoning = samples.filter(pl.col("reasoning") != "")
    assert with_reasoning.height == 3  # seed % 4 == 0 comes without reasoning

    assert main([str(run), *judge_args(api.url), "--wandb", "offline"]) == 0
    first_calls = api.judge_calls
    assert first_calls == 6  # three traces of ~26k chars: two segments each at 5000 tokens x 4
    labels = read_labels(run)
    assert len(labels) == 6 and (run / "behaviors" / "labels.parquet").is_file()
    assert pl.read_parquet(run / "behaviors" / "labels.parquet").height == 6
    unparsed = [r for r in labels if not r["parsed"]]
    assert len(unparsed) == 2 and all(r["behavior"] == "" and r["answer"].startswith("banana") for r in unparsed)
    assert {r["group"] for r in labels if r["parsed"]} <= {"Analysis", "Planning", "Exploration", "Implementation",
                                                            "Verification"}
    summary = json.loads((run / "behaviors" / "behaviors.json").read_text())
    c = summary["counts"]
    assert (c["samples"], c["no_reasoning"], c["classified"], c["unparsed"], c["failed"]) == (4, 1, 6, 2, 0)
    rows = pl.read_csv(run / "behaviors" / "shares.csv")
    overall = rows.filter(pl.col("difficulty") == "all")
    assert set(overall["outcome"]) == {"solved", "unsolved"}
    groups = ["Analysis", "Planning", "Exploration", "Implementation", "Verification"]
    for r in overall.iter_rows(named=True):
        if r["segments"] > r["unparsed"]:
            assert sum(r[g] for g in groups) == pytest.approx(1.0)
    assert (run / "behaviors" / "behaviors.png").stat().st_size > 0
    out = capsys.readouterr().out
    assert "2 unparseable answer(s)" in out and "1 sample(s) without reasoning skipped" in out

    # W&B: a run of job type "behaviors" with the table and the chart
    off = sorted((run / "behaviors" / "wandb").glob("offline-run-*"))[-1]
    for _ in range(100):
        wb = read_offline_run(off)
        if any("behaviors/shares/_type" in h for h in wb["history"]):
            break
        time.sleep(0.1)
    hist = next(h for h in wb["history"] if "behaviors/shares/_type" in h)
    assert hist["behaviors/shares/_type"] == "table-file" and "behaviors/chart_table/_type" in hist
    assert wb["run"]["job_type"] == "behaviors" and wb["summary"]["behaviors/unparsed"] == 2

    # the analysis's files do not make its folder look like a run (runlog.find_runs)
    from ibench.results.runlog import find_runs

    assert find_runs([tmp_path]) == [run.resolve()]

    # a re-run classifies nothing new
    assert main([str(run), *judge_args(api.url), "--wandb", "disabled"]) == 0
    assert api.judge_calls == first_calls
    again = json.loads((run / "behaviors" / "behaviors.json").read_text())["counts"]
    assert again["classified"] == 0 and again["reused"] == 6 and again["unparsed"] == 2

    # the viewer shows the segments and the report
    index = build_site([run], tmp_path / "site", progress=False)
    text = (index.parent / "data" / "index.js").read_text()
    assert '"behaviors":{"note":"judge model judge' in text

    # a vLLM judge model (the stand-in engine of tests/pipeline/fake_vllm.py in Ray actors): its
    # answers name no behavior → every segment counted as unparseable, and the run completes
    assert main([str(run), "judge_model=tiny-cpu", "judge_model.engine_module=fake_vllm", "judge_model.model=x",
                 "judge_model.cpus_per_bundle=0.25", "judge_model.placement_timeout_s=60", "--wandb", "disabled"]) == 0
    nonsense = json.loads((run / "behaviors" / "behaviors.json").read_text())
    assert nonsense["judge_model"] == "tiny-cpu" and nonsense["counts"]["classified"] == 6
    assert nonsense["counts"]["unparsed"] == 6 and nonsense["counts"]["failed"] == 0
    assert len(read_labels(run)) == 12  # the first judge's labels stay, keyed apart

    # bad input: one line, exit 2
    assert main([str(run)]) == 2
    assert main([str(run), "judge_model=no-such-model"]) == 2
    assert main([str(run), "judge_model=reference"]) == 2
    assert "error:" in capsys.readouterr().err
