"""The `openai` backend against a local OpenAI-compatible test server (no network)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from pipeline_fixtures import toy_task
from ibench.generate.base import GenerationRequest, SamplingSettings
from ibench.generate.openai_backend import OpenAIBackend
from ibench.judge.verdict import Verdict
from ibench.results.records import make_sample_record, no_code_result, run_keys
from ibench.generate.prompt import PromptTemplate
from ibench.judge.settings import JudgeSettings

CODE = "#include <cstdio>\nint main() { puts(\"1\"); }"


class Server:
    """Scripted replies keyed by the task id found in the user message."""

    def __init__(self):
        self.calls: dict[str, int] = {}
        self.bodies: list[dict] = []
        self.auth: list[str | None] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.bodies.append(body)
                server.auth.append(self.headers.get("Authorization"))
                user = body["messages"][-1]["content"]
                key = next((k for k in ("ratelimited", "reasoning", "nocode", "broken", "inline") if k in user), "x")
                n = server.calls[key] = server.calls.get(key, 0) + 1
                if key == "ratelimited" and n == 1:
                    return self.reply(429, {"error": "slow down"}, {"Retry-After": "0"})
                if key == "broken":
                    return self.reply(503, {"error": "overloaded"})
                message = {"role": "assistant", "content": f"Done.\n```cpp\n{CODE}\n```\n"}
                if key == "ratelimited":
                    message["reasoning_content"] = "thought via reasoning_content"
                if key == "reasoning":
                    message["reasoning"] = "thought via reasoning"
                if key == "nocode":
                    message["content"] = "I am not sure how to solve this."
                if key == "inline":
                    message["content"] = "<think>inline thoughts ```cpp\nint no;\n```</think>\n```c++\n" + CODE + "\n```"
                self.reply(200, {"model": body["model"], "choices": [{"message": message, "finish_reason": "stop"}],
                                 "usage": {"prompt_tokens": 11, "completion_tokens": 22,
                                           "completion_tokens_details": {"reasoning_tokens": 7}}})

            def reply(self, status, payload, headers=None):
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()


@pytest.fixture
def server():
    s = Server()
    yield s
    s.close()


def request(tmp_path, key, indices=(0,)):
    task = toy_task(tmp_path, key)
    return GenerationRequest(task=task, messages=[{"role": "user", "content": f"task {key}"}],
                             indices=list(indices), seed=100)


def test_retries_reasoning_fields_no_code_and_failures(server, tmp_path, monkeypatch):
    monkeypatch.setenv("TEST_KEY", "sk-test")
    backend = OpenAIBackend(name="api", model="m1", base_url=server.url, api_key_env="TEST_KEY", max_concurrency=3,
                            max_retries=2, backoff_base_s=0.01, backoff_max_s=0.05, timeout_s=10,
                            extra_body={"chat_template_kwargs": {"enable_thinking": True}})
    backend.setup(SamplingSettings(n=2, temperature=0.8, max_tokens=100, reasoning_effort="low"))
    reqs = [request(tmp_path, k, idx) for k, idx in
            [("ratelimited", [0]), ("reasoning", [0, 1]), ("nocode", [0]), ("broken", [0]), ("inline", [0])]]
    got = {(c.task_id, c.sample_index): c for c in backend.generate(reqs)}
    assert len(got) == 6  # every requested sample comes back, failed or not

    rl = got[("ratelimited", 0)]
    assert rl.attempts == 2 and not rl.error and rl.reasoning == "thought via reasoning_content"
    assert server.calls["ratelimited"] == 2
    assert got[("reasoning", 1)].reasoning == "thought via reasoning"
    assert got[("reasoning", 0)].prompt_tokens == 11 and got[("reasoning", 0)].reasoning_tokens == 7
    assert got[("reasoning", 0)].seed == 100 and got[("reasoning", 1)].seed == 101
    broken = got[("broken", 0)]
    assert broken.error.startswith("HTTP 503") and broken.attempts == 3 and broken.finish_reason == "error"

    body = server.bodies[0]
    assert body["model"] == "m1" and body["temperature"] == 0.8 and body["max_tokens"] == 100
    assert body["reasoning_effort"] == "low" and body["chat_template_kwargs"] == {"enable_thinking": True}
    assert set(server.auth) == {"Bearer sk-test"}

    keys = run_keys(backend, backend.sampling, PromptTemplate(), "cpp", False, JudgeSettings())
    recs = {k: make_sample_record(c, keys, "api", "cpp") for k, c in got.items()}
    assert recs[("ratelimited", 0)].code.strip() == CODE and recs[("ratelimited", 0)].extract_error == ""
    assert recs[("nocode", 0)].code is None and recs[("nocode", 0)].extract_error == "no code block"
    inline = recs[("inline", 0)]
    assert inline.code.strip() == CODE and "inline thoughts" in inline.reasoning
    failed = recs[("broken", 0)]
    assert failed.code is None and failed.error  # recorded as a failed sample, not dropped
    for rec in (recs[("nocode", 0)], failed):
        result = no_code_result(rec)
        assert result.verdict is Verdict.CE and result.message.startswith("no code block")


def test_openai_model_end_to_end_through_the_launch(ray_session, tmp_path):
    """model=vllm-server against the test server: one good program, one answer without code, one
    request that keeps failing. All three count: OK, CE ("no code block"), CE (generation failed)."""
    import io
    import shutil
    from pathlib import Path

    from hydra import compose, initialize_config_dir
    from rich.console import Console

    from ibench.run.config import CONF_DIR
    from ibench.run.driver import run

    repo = Path(__file__).resolve().parents[2]
    tasks = tmp_path / "tasks"
    shutil.copytree(repo / "tasks" / "rotated-array-minimum", tasks / "rotated-array-minimum")
    good = (tasks / "rotated-array-minimum" / "solutions" / "ok_compare_last.cpp").read_text()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            kind = body["seed"] % 3
            if kind == 2:
                status, payload = 503, {"error": "down"}
            else:
                content = f"```cpp\n{good}\n```" if kind == 0 else "Sorry, no idea."
                status, payload = 200, {"choices": [{"message": {"content": content, "reasoning_content": "hmm"},
                                                     "finish_reason": "stop"}],
                                        "usage": {"prompt_tokens": 5, "completion_tokens": 6}}
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
            cfg = compose("config", overrides=[
                "model=vllm-server", f"model.base_url=http://127.0.0.1:{httpd.server_address[1]}/v1",
                "model.max_retries=1", "model.backoff_base_s=0.01", "sampling.n=3", f"bench.tasks_dir={tasks}",
                "bench.non_adaptive_cases=3", "pipeline.progress=false", "metrics.ks=[1]"])
        summary = run(cfg, tmp_path / "run", console=Console(file=io.StringIO(), width=200))
    finally:
        httpd.shutdown()

    assert summary.n_samples == 3 and summary.n_accepted == 1
    assert summary.overall.pass_at[1] == pytest.approx(1 / 3)
    assert summary.failure_counts["CE"] == 2
    import polars as pl

    v = pl.read_parquet(tmp_path / "run" / "results" / "verdicts.parquet").sort("sample_index")
    s = pl.read_parquet(tmp_path / "run" / "results" / "samples.parquet").sort("sample_index")
    messages = sorted(v.filter(pl.col("verdict") == "CE")["message"].to_list())
    assert messages[0] == "no code block" and messages[1].startswith("no code block (generation failed: HTTP 503")
    assert s.filter(pl.col("error") != "").height == 1 and set(s["reasoning"].to_list()) >= {"hmm"}
