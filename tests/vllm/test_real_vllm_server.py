"""The ``openai`` backend against a real vLLM OpenAI-compatible server that this module starts on
127.0.0.1 (the command docs/LAUNCH.md gives, with ``--reasoning-parser qwen3``): the reasoning
text comes from the server's parser, the budget goes in ``thinking_token_budget``, the seed
makes samples reproducible, ``reasoning_tokens`` comes from the usage details, and a prompt
longer than the context is one failed sample."""

from __future__ import annotations

import os
import subprocess
import time

import pytest

from vllm_lane import free_port, make_task, server_command

pytestmark = pytest.mark.vllm_real

MAX_LEN = 2048
START_TIMEOUT_S = 300


@pytest.fixture(scope="module")
def server(tiny_model, tmp_path_factory):
    import httpx

    port = free_port()
    log_path = tmp_path_factory.mktemp("server") / "server.log"
    log = open(log_path, "w")
    proc = subprocess.Popen(server_command(str(tiny_model), port, MAX_LEN), stdout=log, stderr=subprocess.STDOUT,
                            env={**os.environ, "VLLM_NO_USAGE_STATS": "1"}, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"the vLLM server exited with {proc.returncode}:\n{log_path.read_text()[-4000:]}")
            try:
                if httpx.get(url + "/v1/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"the vLLM server did not come up in {START_TIMEOUT_S}s:\n{log_path.read_text()[-4000:]}")
            time.sleep(1)
        yield url + "/v1"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=30)
        log.close()


def backend_for(url, **kw):
    from ibench.generate.openai_backend import OpenAIBackend

    return OpenAIBackend(name="tiny-server", model="tiny", base_url=url, api_key_env=None, max_concurrency=4,
                         max_retries=1, backoff_base_s=0.1, timeout_s=120, budget_field="thinking_token_budget", **kw)


def run(backend, reqs, **sampling):
    from ibench.generate.base import SamplingSettings

    backend.setup(SamplingSettings(**{"n": 1, "temperature": 0.8, "max_tokens": 24, "seed": 0, **sampling}))
    got = list(backend.generate(reqs))
    keys = [(c.task_id, c.sample_index) for c in got]
    assert len(keys) == len(set(keys))
    return dict(zip(keys, got))


def reqs(tmp_path, spec, text="Write a program that guesses the number."):
    from ibench.generate.base import GenerationRequest

    return [GenerationRequest(task=make_task(tmp_path, tid), messages=[{"role": "user", "content": f"{text} ({tid})"}],
                              indices=list(idx), seed=seed) for tid, (idx, seed) in spec.items()]


def test_reasoning_from_the_server_parser_with_the_budget(server, tmp_path):
    thinking = backend_for(server, extra_body={"chat_template_kwargs": {"enable_thinking": True}})
    got = run(thinking, reqs(tmp_path, {"t": (range(3), 5)}), max_tokens=40, reasoning_budget=12)
    assert sorted(got) == [("t", i) for i in range(3)]
    for c in got.values():
        assert not c.error, c.error
        assert c.reasoning.strip() and c.response.strip()  # split by the server's qwen3 parser
        assert "</think>" not in c.response and "</think>" not in c.reasoning
        assert c.completion_tokens == 40 and c.finish_reason == "length"
        assert c.reasoning_tokens == 12 - 1  # as in the offline engine: the template's newline counts
    assert len({c.response for c in got.values()}) == 3


def test_seed_reproduces_and_thinking_off(server, tmp_path):
    b = backend_for(server, extra_body={"chat_template_kwargs": {"enable_thinking": True}})
    spec = {"s": (range(2), 77)}
    first = run(b, reqs(tmp_path, spec), max_tokens=20)
    again = run(b, reqs(tmp_path, spec), max_tokens=20)
    assert {k: c.reasoning for k, c in first.items()} == {k: c.reasoning for k, c in again.items()}
    assert first[("s", 0)].reasoning != first[("s", 1)].reasoning
    assert all(c.seed == 77 + k[1] for k, c in first.items())
    for c in first.values():  # cut inside the thinking block: all reasoning, no answer
        assert c.reasoning.strip() and not c.response.strip() and c.reasoning_tokens == 20
    off = run(backend_for(server, extra_body={"chat_template_kwargs": {"enable_thinking": False}}),
              reqs(tmp_path, spec), max_tokens=20)
    for c in off.values():
        assert not c.error and c.response.strip() and not c.reasoning and not c.reasoning_tokens


def test_prompt_longer_than_the_context_is_one_failed_sample(server, tmp_path):
    from ibench.generate.base import GenerationRequest

    b = backend_for(server)
    rs = reqs(tmp_path, {"short": ([0], 1)})
    rs.append(GenerationRequest(task=make_task(tmp_path, "long"),
                                messages=[{"role": "user", "content": "guess the number " * 1200}], indices=[0],
                                seed=2))
    got = run(b, rs, max_tokens=16)
    assert not got[("short", 0)].error and got[("short", 0)].completion_tokens == 16
    bad = got[("long", 0)]
    assert bad.finish_reason == "error" and bad.error.startswith("HTTP 400") and "context length" in bad.error
    assert bad.attempts == 1  # a 400 is not retried
