"""Rephrased statements (``prompt.rephrase=true``, :mod:`ibench.generate.rephrase`): a model
rewrites each statement once (cached, stored with the run), the run's prompts hold the rewritten
statements, the study pairs the run with the one on the originals. A local OpenAI-compatible
server plays the model: it rephrases a statement as "In other words: ..." and answers a prompt
holding such a statement with an accepted program, any other prompt with a wrong one — so the
paired difference is known (+1). The reference model cannot rephrase: refused by the preflight
without ``prompt.rephrase_model``; with one, its paired difference is exactly 0."""

from __future__ import annotations

import csv
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from ibench.generate.base import Backend, Completion, SamplingSettings
from ibench.generate.prompt import PromptTemplate
from ibench.generate.rephrase import (RECORD_FILE, RephraseError, clean, prepare, read_record,
                                      rephrase_tasks)
from ibench.run.config import compose_model

REPO = Path(__file__).resolve().parents[2]
TASK = "guess-the-number"
GOOD = (REPO / "tasks" / TASK / "solutions" / "ok_binary_search.cpp").read_text()
BAD = (REPO / "tasks" / TASK / "solutions" / "wa_early_stop.cpp").read_text()
MARK = "In other words:"


class RephraseServer:
    """``/v1/chat/completions``: a request whose system message asks to rephrase gets the
    statement back as ``In other words: <statement>`` in a fenced block, after some reasoning (a
    statement holding FAIL-REPHRASE gets an empty answer); any other request gets the accepted
    program when its prompt holds a rephrased statement, else the wrong one."""

    def __init__(self) -> None:
        self.rephrase_calls = 0
        self.model_calls = 0
        self.bodies: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.bodies.append(body)
                msgs = body["messages"]
                if msgs[0]["role"] == "system" and msgs[0]["content"].startswith("Rephrase"):
                    server.rephrase_calls += 1
                    statement = msgs[-1]["content"]
                    content = "" if "FAIL-REPHRASE" in statement else f"```markdown\n{MARK} {statement}\n```"
                    message = {"role": "assistant", "content": content, "reasoning_content": "Let me reword it."}
                else:
                    server.model_calls += 1
                    code = GOOD if MARK in msgs[-1]["content"] else BAD
                    message = {"role": "assistant", "content": f"Here it is.\n```cpp\n{code}\n```\n"}
                data = json.dumps({"model": body["model"], "choices": [{"message": message, "finish_reason": "stop"}],
                                   "usage": {"prompt_tokens": 300, "completion_tokens": 700}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="module")
def server():
    s = RephraseServer()
    yield s
    s.close()


def _tasks(*ids):
    from ibench.tasks.load import load_task

    return [load_task(REPO / "tasks" / t) for t in ids]


def _api_backend(url):
    from ibench.generate.openai_backend import OpenAIBackend

    b = OpenAIBackend(name="api-model", model="m1", base_url=url, api_key_env=None, max_retries=0)
    b.setup(SamplingSettings(n=1, max_tokens=2048, temperature=0.7))
    return b


# -- the module on its own ------------------------------------------------------------------------------
def test_the_answer_is_cleaned_of_reasoning_and_one_fence():
    assert clean("<think>hmm</think>\n```markdown\nA *new* text.\n```\n") == "A *new* text."
    assert clean("Plain words.\n\n```\ncode kept\n```") == "Plain words.\n\n```\ncode kept\n```"
    assert clean("<think>never closed") == ""
    assert clean("```md\nText.\n```\nexample\n```\nmore\n```") == "Text.\n```\nexample\n```\nmore"
    assert clean("```cpp\nint main(){}\n```") == "```cpp\nint main(){}\n```"  # not a statement's wrapper


def test_rephrased_once_cached_and_asked_with_greedy_settings(server, tmp_path):
    backend = _api_backend(server.url)
    tasks = _tasks(TASK, "sort-the-boxes")
    before = server.rephrase_calls
    got = rephrase_tasks(tasks, backend, backend.sampling, tmp_path / "cache")
    assert server.rephrase_calls - before == 2
    for t in tasks:
        r = got[t.task_id]
        assert r.text == f"{MARK} {t.statement().strip()}" and not r.cached and r.rephrased_by == "api-model"
        assert (tmp_path / "cache" / f"{r.key}.json").is_file()
    body = server.bodies[-1]
    assert body["temperature"] == 0.0 and body["messages"][0]["role"] == "system"
    assert backend.sampling.temperature == 0.7  # its own settings back after
    again = rephrase_tasks(tasks, backend, backend.sampling, tmp_path / "cache")
    assert server.rephrase_calls - before == 2 and all(r.cached for r in again.values())  # asked once
    assert {t: r.text for t, r in again.items()} == {t: r.text for t, r in got.items()}
    other = rephrase_tasks(tasks[:1], backend, backend.sampling, tmp_path / "cache", instruction="Rephrase tersely.")
    assert server.rephrase_calls - before == 3 and not other[TASK].cached  # another instruction, another key


def test_a_failed_rephrasing_stops_the_run_and_names_the_task(server, tmp_path):
    from ibench.tasks.load import load_task
    import shutil

    shutil.copytree(REPO / "tasks" / TASK, tmp_path / "t" / TASK)
    desc = tmp_path / "t" / TASK / "desc.md"
    desc.write_text(desc.read_text() + "\nFAIL-REPHRASE\n")
    with pytest.raises(RephraseError, match=f"{TASK}: the answer was empty"):
        rephrase_tasks([load_task(tmp_path / "t" / TASK)], _api_backend(server.url), SamplingSettings(), tmp_path / "c")
    assert not list((tmp_path / "c").glob("*.json"))  # nothing cached


class _Counting(Backend):
    """Rephrases by upper-casing; counts set-ups."""

    name = "counting"
    setups = 0

    def setup(self, sampling):
        type(self).setups += 1
        self.sampling = sampling

    def generate(self, requests):
        for r in requests:
            yield Completion(r.task_id, 0, "", r.messages[-1]["content"].upper())


def test_prepare_binds_records_and_a_resume_needs_no_model(tmp_path):
    tasks = _tasks(TASK)
    prompt = PromptTemplate(rephrase=True)
    plain_fp = PromptTemplate().task_fingerprint(tasks[0])
    calls = []
    got = prepare(prompt, SamplingSettings(), _Counting(), tasks, tmp_path / "run", tmp_path / "cache",
                  lambda: calls.append(1))
    assert calls == [1] and got[TASK].text == tasks[0].statement().strip().upper()
    rendered = prompt.render(tasks[0])[-1]["content"]
    assert got[TASK].text in rendered and tasks[0].statement().strip() not in rendered
    assert prompt.task_fingerprint(tasks[0]) != plain_fp  # the rephrased text keys the task's samples
    assert prompt.record(tasks[0])["rephrased_sha256"] == got[TASK].text_sha256
    rec = read_record(tmp_path / "run")
    assert rec["tasks"][TASK]["text"] == got[TASK].text and rec["instruction"] == prompt.rephrase_instruction
    # the cache gone: the run's own record gives the same text, and the model is not set up
    for f in (tmp_path / "cache").glob("*.json"):
        f.unlink()
    again = PromptTemplate(rephrase=True)
    prepare(again, SamplingSettings(), _Counting(), tasks, tmp_path / "run", tmp_path / "cache", lambda: calls.append(2))
    assert calls == [1] and again.task_fingerprint(tasks[0]) == prompt.task_fingerprint(tasks[0])
    assert not PromptTemplate().bind_rephrased({}).rephrase and prepare(PromptTemplate(), SamplingSettings(),
                                                                      _Counting(), tasks, tmp_path / "x",
                                                                      tmp_path / "c", lambda: None) == {}


def test_a_few_shot_example_keeps_its_own_statement():
    tasks = _tasks(TASK, "kth-of-two-sorted", "rotated-array-minimum")
    prompt = PromptTemplate(examples=1, rephrase=True).bind_examples(tasks)
    prompt.bind_rephrased({t.task_id: f"REPHRASED {t.task_id}" for t in tasks})
    msgs = prompt.render(tasks[0])
    assert msgs[0]["content"].strip() == tasks[0].statement().strip() or "REPHRASED" not in msgs[0]["content"]
    assert f"REPHRASED {TASK}" in msgs[-1]["content"]


def test_the_default_prompt_key_is_unchanged_and_rephrase_is_measured():
    from ibench.roles import MEASURED, left_out_of, mark_of
    from ibench.run.keys import prompt_key

    assert prompt_key(PromptTemplate()) == prompt_key(PromptTemplate(rephrase=False, rephrase_with=[]))
    assert prompt_key(PromptTemplate(rephrase=True)) != prompt_key(PromptTemplate())
    assert prompt_key(PromptTemplate(rephrase=True, rephrase_model="openai-api")) != prompt_key(PromptTemplate(rephrase=True))
    for name in ("rephrase", "rephrase_model", "rephrase_with", "rephrase_instruction"):
        assert mark_of(PromptTemplate, name, strict=True)[0] == MEASURED
    assert "rephrase_with" in left_out_of(PromptTemplate)  # enters through the rephrased texts


def test_compose_model_takes_overrides():
    cfg = compose_model("openai-api", ["base_url=http://127.0.0.1:9/v1", "model=m2"])
    assert cfg["base_url"] == "http://127.0.0.1:9/v1" and cfg["model"] == "m2" and cfg["_target_"].endswith("OpenAIBackend")


def _compose(*overrides):
    from hydra import compose, initialize_config_dir

    from ibench.run.config import CONF_DIR

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return compose("config", overrides=list(overrides))


@pytest.mark.parametrize("extra, says", [
    ((), "model=reference replays each task's known solutions and writes no text"),
    (("prompt.rephrase_model=no-such-model",), "is not a model config of conf/model/"),
    (("prompt.rephrase_model=openai-api", "prompt.rephrase_with=[oops]"), "expected key=value overrides"),
])
def test_the_preflight_refuses_what_cannot_rephrase(extra, says):
    from ibench.run.preflight import ConfigError, preflight

    cfg = _compose(f"bench.ids=[{TASK}]", "prompt.rephrase=true", *extra)
    with pytest.raises(ConfigError, match="prompt.rephrase") as e:
        preflight(cfg, request=False)
    assert says in str(e.value)


# -- launches -------------------------------------------------------------------------------------------
def _launch(run_dir, out, url, *extra, model="api"):
    import io

    from rich.console import Console

    from ibench.launch import run

    wiring = ["model=openai-api", "model.name=api-model", "model.model=m1", f"model.base_url={url}",
              "model.api_key_env=null", "model.preflight=false", "model.max_retries=0"] if model == "api" else []
    cfg = _compose(f"bench.ids=[{TASK}]", "bench.non_adaptive_cases=3", "pipeline.progress=false", "wandb.mode=disabled",
                   f"paths.output_dir={out}", "sampling.n=2", *wiring, *extra)
    run(cfg, run_dir, console=Console(file=io.StringIO(), width=200), overrides=list(extra))
    return run_dir


def test_a_rephrased_run_and_its_original_paired_by_the_study(ray_session, server, tmp_path, monkeypatch):
    from ibench.results.runlog import load
    from ibench.results.study import study

    monkeypatch.setenv("IBENCH_REPHRASE_CACHE", str(tmp_path / "rephrase-cache"))
    out = tmp_path / "outputs"
    orig = _launch(tmp_path / "runs" / "orig", out, server.url)
    calls = server.rephrase_calls
    reph = _launch(tmp_path / "runs" / "reph", out, server.url, "prompt.rephrase=true")
    assert server.rephrase_calls == calls + 1  # one task, rephrased once
    rec = read_record(reph)["tasks"][TASK]
    assert rec["rephrased_by"] == "api-model" and rec["text"].startswith(MARK)
    assert list((tmp_path / "rephrase-cache").glob("*.json"))
    s, _, _ = load(reph).current()
    assert all(MARK in json.loads(p)[-1]["content"] for p in s["prompt"])  # the run's prompts hold it
    assert load(orig).summary["overall"]["pass_at"]["1"] == 0.0 and load(reph).summary["overall"]["pass_at"]["1"] == 1.0
    assert load(reph).summary["meta"]["gen_key"] != load(orig).summary["meta"]["gen_key"]
    # the run again: nothing rephrased or generated again
    model_calls = server.model_calls
    _launch(tmp_path / "runs" / "reph", out, server.url, "prompt.rephrase=true")
    assert server.rephrase_calls == calls + 1 and server.model_calls == model_calls

    files = study([tmp_path / "runs"], tmp_path / "study")
    (row,) = list(csv.DictReader(open(files["rephrase_csv"])))
    assert float(row["pass@1 original"]) == 0.0 and float(row["pass@1 rephrased"]) == 1.0
    assert float(row["difference"]) == 1.0 and row["rephrased_by"] == "api-model"
    assert (Path(files["rephrase_png"])).is_file()
    # cost in the launch's summary: tokens from the server's usage, per sample and per solved task
    cost = load(reph).summary["cost"]
    assert cost["completion_tokens/sample"] == 700 and cost["prompt_tokens"] == 600 and cost["solved_tasks"] == 1
    assert cost["completion_tokens/solved_task"] == 1400 and load(orig).summary["cost"]["solved_tasks"] == 0


def test_the_reference_model_on_statements_another_model_rephrased(ray_session, server, tmp_path, monkeypatch):
    from ibench.results.runlog import load
    from ibench.results.study import study

    monkeypatch.setenv("IBENCH_REPHRASE_CACHE", str(tmp_path / "rephrase-cache"))
    out = tmp_path / "outputs"
    _launch(tmp_path / "runs" / "orig", out, server.url, model="reference")
    with_model = ["prompt.rephrase=true", "prompt.rephrase_model=openai-api",
                  f"prompt.rephrase_with=['base_url={server.url}','model=m1','name=api-model','api_key_env=null','max_retries=0']"]
    reph = _launch(tmp_path / "runs" / "reph", out, server.url, *with_model, model="reference")
    assert read_record(reph)["tasks"][TASK]["rephrased_by"] == "api-model"
    assert (reph / RECORD_FILE).is_file()
    files = study([tmp_path / "runs"], tmp_path / "study")
    (row,) = list(csv.DictReader(open(files["rephrase_csv"])))
    # the same solutions replayed: exactly the same pass@1, a difference of exactly 0
    assert float(row["difference"]) == 0.0 and row["n_tasks"] == "1"
    assert row["ci_low"] == "" == row["ci_high"]  # one task: no interval to draw
    assert load(reph).summary["overall"]["pass_at"]["1"] == load(tmp_path / "runs" / "orig").summary["overall"]["pass_at"]["1"]
