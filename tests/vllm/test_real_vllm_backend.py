"""The ``vllm`` backend against the real engine, in its Ray actor: n, per-sample seeds,
enable_thinking, the reasoning budget (native and stop mode) with reasoning_tokens, a prompt
longer than the context window, and an engine that dies under a live actor.

The tiny model never ends a turn or a thinking block on its own (scripts/make_tiny_model.py),
so every count below is exact: a sample runs to max_tokens, and a thinking block closes exactly
where a budget closed it.
"""

from __future__ import annotations

import pytest

from vllm_lane import engine_kwargs, make_task

pytestmark = pytest.mark.vllm_real

MAX_LEN = 2048


@pytest.fixture(scope="module")
def backend(tiny_model, ray_lane):
    from ibench.generate.base import SamplingSettings
    from ibench.generate.vllm_backend import VLLMBackend
    from vllm_lane import device

    b = VLLMBackend(name="tiny", model=str(tiny_model), replicas=1, enable_thinking=True,
                    engine_kwargs=engine_kwargs(MAX_LEN), tasks_per_call=4, calls_in_flight=2,
                    gpus_per_bundle=1.0 if device() == "cuda" else 0.0, cpus_per_bundle=1.0,
                    placement_timeout_s=120, max_restarts=2)
    try:
        b.setup(SamplingSettings(n=1, max_tokens=16))
        yield b
    finally:
        b.close()


def run(backend, reqs, **sampling):
    from ibench.generate.base import SamplingSettings

    backend.sampling = SamplingSettings(**{"n": 1, "temperature": 0.8, "top_p": 1.0, "max_tokens": 24,
                                           "seed": 0, **sampling})
    got = list(backend.generate(reqs))
    keys = [(c.task_id, c.sample_index) for c in got]
    assert len(keys) == len(set(keys)), "a sample was returned twice"
    return {k: c for k, c in zip(keys, got)}


def requests(tmp_path, spec, text="Write a program that guesses the number."):
    """spec: {task_id: (indices, seed)}"""
    from ibench.generate.base import GenerationRequest

    return [GenerationRequest(task=make_task(tmp_path, tid), messages=[{"role": "user", "content": f"{text} ({tid})"}],
                              indices=list(idx), seed=seed) for tid, (idx, seed) in spec.items()]


def test_engine_started_with_the_reasoning_parser(backend):
    info = backend.worker_info[0]
    assert info["native_budget"] is True and info["reasoning_parser"] == "qwen3"
    assert info["max_model_len"] == MAX_LEN


def test_n_samples_seeded_per_sample_and_reproducible(backend, tmp_path):
    spec = {"a": (range(3), 11), "b": (range(3), 500)}
    first = run(backend, requests(tmp_path, spec), max_tokens=24)
    assert sorted(first) == [(t, i) for t in "ab" for i in range(3)]
    for (tid, i), c in first.items():
        assert not c.error and c.finish_reason == "length" and c.completion_tokens == 24
        assert c.seed == spec[tid][1] + i  # GenerationRequest.sample_seed
        assert c.prompt_tokens and c.prompt_tokens > 10
    assert len({c.response for c in first.values()}) == 6  # every sample its own
    again = run(backend, requests(tmp_path, spec), max_tokens=24)
    assert {k: c.response for k, c in again.items()} == {k: c.response for k, c in first.items()}
    # A resumed run that lacks samples 1 and 2 only gets the very same samples 1 and 2.
    resumed = run(backend, requests(tmp_path, {"a": ([1, 2], 11), "b": ([2], 500)}), max_tokens=24)
    assert sorted(resumed) == [("a", 1), ("a", 2), ("b", 2)]
    assert all(resumed[k].response == first[k].response for k in resumed)
    other = run(backend, requests(tmp_path, {"a": (range(3), 12)}), max_tokens=24)
    assert other[("a", 0)].response == first[("a", 1)].response  # seed 12 is a's sample 1 under base 11
    assert other[("a", 2)].response not in {c.response for c in first.values()}


def test_enable_thinking_on_and_off(backend, tmp_path):
    from ibench.generate.extract import split_reasoning

    spec = {"t": (range(2), 7)}
    on = run(backend, requests(tmp_path, spec), max_tokens=20)
    saved = dict(backend.chat_template_kwargs)
    try:
        backend.chat_template_kwargs = {"enable_thinking": False}
        off = run(backend, requests(tmp_path, spec), max_tokens=20)
    finally:
        backend.chat_template_kwargs = saved
    for k in on:
        # Thinking on: the template opened <think> and the model never closed it (cut by
        # max_tokens): all of it is reasoning, none of it an answer.
        assert on[k].reasoning_tokens == on[k].completion_tokens == 20
        assert on[k].response.startswith("<think>") and "</think>" not in on[k].response
        reasoning, final = split_reasoning(on[k].response)
        assert reasoning and final == ""
        # Thinking off: the template wrote an empty block; nothing generated is reasoning.
        assert off[k].reasoning_tokens == 0 and off[k].completion_tokens == 20
        assert off[k].prompt_tokens > on[k].prompt_tokens
        assert "<think>" not in off[k].response and split_reasoning(off[k].response) == ("", off[k].response)
        assert off[k].response != on[k].response[len("<think>"):]  # another prompt, another text


def test_native_reasoning_budget_closes_the_block_and_counts(backend, tmp_path):
    from ibench.generate.extract import split_reasoning

    got = run(backend, requests(tmp_path, {"t": (range(3), 3)}), max_tokens=40, reasoning_budget=12)
    for c in got.values():
        assert not c.error, c.error
        # thinking_token_budget forced </think> after 12 thinking tokens; vLLM counts the newline
        # the template wrote after <think> as the first, so the model generated 11 of them.
        assert c.reasoning_tokens == 12 - 1
        assert c.completion_tokens == 40 and c.finish_reason == "length"
        assert c.response.count("</think>") == 1 and "budget_forced" not in c.extra
        reasoning, final = split_reasoning(c.response)
        assert reasoning.strip() and final.strip()


def test_stop_mode_budget_closes_continues_and_counts(backend, tmp_path):
    from ibench.generate.vllm_backend import DEFAULT_CLOSE

    saved = backend.budget_mode
    backend.budget_mode = "stop"
    try:
        got = run(backend, requests(tmp_path, {"t": (range(2), 3), "u": ([4], 9)}), max_tokens=40,
                  reasoning_budget=12)
    finally:
        backend.budget_mode = saved
    assert sorted(got) == [("t", 0), ("t", 1), ("u", 4)]
    for c in got.values():
        assert not c.error, c.error
        assert c.reasoning_tokens == 12 and c.extra["budget_forced"] is True
        assert DEFAULT_CLOSE in c.response and c.response.index(DEFAULT_CLOSE) > 0
        assert c.completion_tokens == 40  # 12 thinking + 28 after the closed block
        assert c.response.split(DEFAULT_CLOSE, 1)[1].strip()


def test_prompt_longer_than_the_context_fails_alone(backend, tmp_path):
    from ibench.generate.base import GenerationRequest

    reqs = requests(tmp_path, {"short1": (range(2), 1)})
    reqs.append(GenerationRequest(task=make_task(tmp_path, "long"),
                                  messages=[{"role": "user", "content": "guess the number " * 1200}],
                                  indices=[0, 1], seed=5))
    reqs += requests(tmp_path, {"short2": ([0], 2)})
    got = run(backend, reqs, max_tokens=16)  # all three tasks in one chunk (tasks_per_call=4)
    assert sorted(got) == [("long", 0), ("long", 1), ("short1", 0), ("short1", 1), ("short2", 0)]
    for i in range(2):
        c = got[("long", i)]
        assert c.finish_reason == "error" and "prompt too long" in c.error and f"is {MAX_LEN}" in c.error
        assert c.prompt_tokens > MAX_LEN and c.response == "" and c.seed == 5 + i
    for k in [("short1", 0), ("short1", 1), ("short2", 0)]:
        assert not got[k].error and got[k].completion_tokens == 16


def test_engine_dies_actor_restarts_and_reruns_the_call(backend, tmp_path, ray_lane):
    """Last in this module: it leaves the backend on a restarted actor."""
    import psutil

    pid = backend.worker_info[0]["pid"]
    engines = [p for p in psutil.Process(pid).children(recursive=True) if "EngineCore" in p.name()]
    assert engines, "no EngineCore process under the actor"
    for p in engines:
        p.kill()
    psutil.wait_procs(engines, timeout=30)
    spec = {"a": (range(2), 20), "b": (range(2), 30), "c": ([0], 40), "d": ([0], 50), "e": (range(2), 60)}
    got = run(backend, requests(tmp_path, spec), max_tokens=16)  # two chunks, both queued on the dead engine
    assert sorted(got) == sorted((t, i) for t, (idx, _) in spec.items() for i in idx)
    assert all(not c.error and c.completion_tokens == 16 for c in got.values()), [c.error for c in got.values()]
    new = ray_lane.get(backend.actors[0].info.remote())
    assert new["pid"] != pid and new["native_budget"] is True
