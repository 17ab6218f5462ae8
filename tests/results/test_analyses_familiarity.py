"""Familiarity (issue 31): prompt log-probabilities from an OpenAI-compatible server with echo
(a local stand-in here), a clear refusal from one without, the vLLM path's reading of
``prompt_logprobs``, and the correlation with pass@1."""

from __future__ import annotations

import json
import math
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace

import pytest
from analyses_synth import Sample, write_run

from ibench.results.analyses.familiarity import (FamiliarityRefused, correlations, fisher_ci, main, measure,
                                                 openai_logprobs, vllm_logprobs)

CODE = "int main(){}"


def _logprob(token: str) -> float:
    return -0.1 * len(token)


class Server:
    """/v1/completions: with echo, the prompt's whitespace-split tokens (log p = -0.1 x length)
    and one generated token after them; ``mode`` "refuse" answers 400, "bare" 200 without them."""

    def __init__(self, mode: str = "echo"):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.bodies.append(body)
                if mode == "refuse":
                    return self.reply(400, {"error": {"message": "echo is not supported"}})
                if mode == "bare":
                    return self.reply(200, {"choices": [{"text": "x", "logprobs": None}]})
                toks = [(m.start(), m.group()) for m in re.finditer(r"\S+", body["prompt"])]
                lps = [None] + [_logprob(t) for _, t in toks[1:]] + [-5.0]
                offs = [o for o, _ in toks] + [len(body["prompt"])]
                self.reply(200, {"choices": [{"text": body["prompt"] + " x",
                                              "logprobs": {"token_logprobs": lps, "text_offset": offs}}]})

            def reply(self, status, payload):
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.bodies: list[dict] = []
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


def test_the_prompts_log_probabilities_come_back_without_the_generated_token(server):
    ask = openai_logprobs(server.url, "m")
    assert ask("int main ( )") == [None, -0.4, -0.1, -0.1]
    assert server.bodies[0]["echo"] is True and server.bodies[0]["model"] == "m"
    m = measure(ask("aa bbbb cc"))
    assert m["tokens"] == 2 and m["mean_logprob"] == pytest.approx(-0.3)
    assert m["mean_prob"] == pytest.approx((math.exp(-0.4) + math.exp(-0.2)) / 2)


@pytest.mark.parametrize("mode, says", [("refuse", "HTTP 400"), ("bare", "without the prompt's token")])
def test_a_server_without_prompt_log_probabilities_is_a_clear_refusal(mode, says):
    s = Server(mode)
    try:
        with pytest.raises(FamiliarityRefused, match=says):
            openai_logprobs(s.url, "m")("some text")
    finally:
        s.close()


def test_the_vllm_path_reads_each_prompt_tokens_own_log_probability():
    class LLM:
        calls: list[int] = []

        def generate(self, prompts, params, use_tqdm=False):
            self.calls.append(len(prompts))
            lp = [None, {7: SimpleNamespace(logprob=-0.5), 9: SimpleNamespace(logprob=-3.0)},
                  {9: SimpleNamespace(logprob=-1.5)}]
            return [SimpleNamespace(prompt_token_ids=[1, 7, 9], prompt_logprobs=lp) for _ in prompts]

    llm = LLM()
    ask = vllm_logprobs(llm, sampling_params=object())
    got = ask("abc")
    assert got[0] != got[0] and got[1:] == [-0.5, -1.5]  # the first token has no context: NaN
    assert len(ask.many(["a", "b", "c"])) == 3 and llm.calls == [1, 3]  # many texts: one batch


def test_correlations_and_their_intervals():
    xs = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
    c = correlations(xs, [2 * x + 0.01 * (-1) ** i for i, x in enumerate(xs)], resamples=200)
    assert c["pearson"] > 0.99 and c["spearman"] == pytest.approx(1.0)
    assert c["pearson_low"] < c["pearson"] < c["pearson_high"]
    assert c["spearman_low"] is not None
    assert fisher_ci(0.5, 3) is None  # too few pairs for an interval
    assert correlations([1, 2, 3], [3, 2, 1], resamples=0)["pearson"] == pytest.approx(-1.0)


def test_the_command_stores_the_figures_beside_the_run_and_reuses_them(server, tmp_path):
    samples = [Sample(t, i, "OK" if i < k else "WA", 10, 0.1, [1.0], CODE)
               for t, k in (("guess-the-number", 2), ("sort-the-boxes", 1), ("kth-of-two-sorted", 0)) for i in range(2)]
    run = write_run(tmp_path / "run", samples)
    out = tmp_path / "out"
    assert main([str(run), "--backend", "openai", "--base-url", server.url, "--model", "m", "--out", str(out)]) == 0
    stored = (run / "familiarity.csv").read_text()
    assert "statement" in stored and "solution:" in stored
    asked = len(server.bodies)
    assert asked >= 6  # a statement and at least one solution per task
    for name in ("familiarity_tasks.csv", "familiarity_correlation.csv", "familiarity.png", "familiarity.pdf"):
        assert (out / name).is_file()
    assert main([str(run), "--reuse", "--out", str(tmp_path / "again"), "--no-figures"]) == 0
    assert len(server.bodies) == asked  # nothing asked again
    assert main([str(run)]) == 2  # the synthetic run's model has no backend to ask: refused, exit 2
