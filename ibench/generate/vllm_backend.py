"""The ``vllm`` backend: ``vllm.LLM`` engines inside Ray actors, several replicas.

Each replica is one actor holding one engine, placed in its own ``STRICT_PACK`` placement group
of ``tensor_parallel_size`` GPU bundles (one node per tensor-parallel group). With TP > 1 the
actor itself takes no GPU and vLLM's Ray executor starts its workers on the group's bundles
(``placement_group_capture_child_tasks``); with TP = 1 the actor holds the GPU.

Work goes to the replicas in chunks of about ``tasks_per_call`` × ``n`` samples (``tasks_per_call``
tasks of ``n`` samples in one ``SamplingParams(n=…)`` each; in a refinement round, whose requests
hold one sample each, as many samples), at most ``calls_in_flight`` chunks queued per replica, so
the engines batch continuously while finished chunks stream on to judging.

Reasoning: ``engine_kwargs.reasoning_parser`` (vLLM's names: ``qwen3``, ``deepseek_r1``,
``openai_gptoss``) starts the engine with a reasoning config. ``sampling.reasoning_budget`` then
goes to vLLM as ``SamplingParams.thinking_token_budget`` (``budget_mode=auto|native``); without a
parser, or on a vLLM without that field, or with ``budget_mode=stop``, generation stops at the
budget (or at ``</think>``), the thinking block is closed with ``budget_close_text`` and
generation continues from there for the rest of ``max_tokens``. Every sample records
``reasoning_tokens``: the generated tokens inside the thinking block, counted on token ids.

Each sample is seeded with :meth:`GenerationRequest.sample_seed` (vLLM seeds the j-th of ``n``
samples with ``seed + j``; runs of consecutive indices share one request). A prompt longer than
the context window becomes failed samples with that reason, never failing the rest of its
chunk. An engine that dies inside a live actor (``EngineDeadError``) ends the actor, so that Ray
restarts it and re-runs the call; once restarts are spent, the prompts go to other replicas.

vLLM is imported only inside the actor (``engine_module``, normally ``"vllm"``), so this module
imports on machines without it.
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import logging
import threading
import time
from concurrent.futures import Future
from dataclasses import asdict
from typing import Any, Iterable, Iterator

from .base import Backend, Completion, GenerationRequest, SamplingSettings

log = logging.getLogger(__name__)

DEFAULT_CLOSE = "\n\nThe thinking budget is spent; I will now write the final solution.\n</think>\n\n"


def _has_param(cls: Any, name: str) -> bool:
    fields = getattr(cls, "__struct_fields__", None) or getattr(cls, "__dataclass_fields__", None)
    if fields and name in fields:
        return True
    try:
        return name in inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return False


class VLLMWorker:
    """The actor body (wrapped with ``ray.remote`` at setup). Holds one ``vllm.LLM``."""

    def __init__(self, engine_module: str, model: str, engine_kwargs: dict[str, Any]) -> None:
        self.engine = importlib.import_module(engine_module)
        self.llm = self.engine.LLM(model=model, **engine_kwargs)
        self.reasoning_parser = engine_kwargs.get("reasoning_parser") or ""
        self.native_budget = _has_param(self.engine.SamplingParams, "thinking_token_budget") and self._reasoning_on()
        try:  # the context window, to keep prompt + max_tokens inside it (a request over it fails)
            self.max_model_len = int(self.llm.llm_engine.model_config.max_model_len)
        except Exception:  # noqa: BLE001 - engines without this attribute path: no clamping
            self.max_model_len = None
        self._markers: dict[str, Any] = {}
        # Continuous batching: calls run in threads of this actor (max_concurrency > 1) and hand
        # their requests to one loop that owns the engine, so the engine holds every queued
        # chunk at once and refills its batch as samples finish (a chunk's long tail overlaps
        # the next chunk). Engines without LLMEngine.add_request/step: one call at a time.
        self._engine = getattr(self.llm, "llm_engine", None)
        self.continuous = all(callable(getattr(self._engine, a, None))
                              for a in ("add_request", "step", "has_unfinished_requests"))
        self._serial = threading.Lock()
        if self.continuous:
            self._cv = threading.Condition()
            self._incoming: list[tuple[Any, Any, Future]] = []
            self._waiting: dict[str, Future] = {}
            self._dead: BaseException | None = None
            self._ids = itertools.count()
            try:
                from importlib import import_module

                self._final_only = import_module(f"{engine_module}.sampling_params").RequestOutputKind.FINAL_ONLY
            except Exception:  # noqa: BLE001
                self._final_only = None
            threading.Thread(target=self._loop, name="ibench-vllm-engine", daemon=True).start()

    # -- the engine loop (continuous batching) -----------------------------------------------
    def _loop(self) -> None:
        while True:
            with self._cv:
                while not self._incoming and not self._waiting:
                    self._cv.wait()
                incoming, self._incoming = self._incoming, []
            for prompt, params, fut in incoming:
                rid = f"ibench-{next(self._ids)}"  # RequestOutput.request_id is this (external) id
                try:
                    self._engine.add_request(rid, prompt, params)
                    self._waiting[rid] = fut
                except Exception as exc:  # noqa: BLE001 - a request the engine refuses fails alone
                    if engine_dead(exc):
                        return self._die(exc, [fut])
                    fut.set_exception(exc)
            if not self._waiting:
                continue
            try:
                if not self._engine.has_unfinished_requests():
                    raise RuntimeError("the engine lost requests it had accepted")
                outs = self._engine.step()
            except Exception as exc:  # noqa: BLE001 - the engine is gone: fail everything waiting
                return self._die(exc, [])
            for out in outs:
                if getattr(out, "finished", False):
                    fut = self._waiting.pop(str(out.request_id), None)
                    if fut is not None:
                        fut.set_result(out)

    def _die(self, exc: BaseException, extra: list[Future]) -> None:
        with self._cv:
            self._dead = exc
            futs = extra + list(self._waiting.values()) + [f for _, _, f in self._incoming]
            self._waiting, self._incoming = {}, []
        for fut in futs:
            if not fut.done():
                fut.set_exception(exc)

    def _run(self, prompts: list[Any], params: list[Any]) -> list[Any]:
        """Each prompt's ``RequestOutput``, or the exception that failed it; raises when the
        engine died."""
        futs = []
        with self._cv:
            if self._dead is not None:
                raise self._dead
            for prompt, p in zip(prompts, params):
                if self._final_only is not None:
                    p.output_kind = self._final_only
                fut: Future = Future()
                self._incoming.append((prompt, p, fut))
                futs.append(fut)
            self._cv.notify()
        outs = []
        for fut in futs:
            exc = fut.exception()
            if exc is not None and engine_dead(exc):
                raise exc
            outs.append(exc if exc is not None else fut.result())
        return outs

    def _reasoning_on(self) -> bool:
        """Whether the engine was started with a reasoning config (vLLM refuses
        ``thinking_token_budget`` otherwise). Engines without the attribute path: assumed on."""
        config = getattr(getattr(self.llm, "llm_engine", None), "vllm_config", None)
        if config is None:
            return True
        rc = getattr(config, "reasoning_config", None)
        return bool(rc is not None and getattr(rc, "enabled", True))

    def info(self) -> dict[str, Any]:
        import os

        return {"native_budget": self.native_budget, "pid": os.getpid(), "max_model_len": self.max_model_len,
                "reasoning_parser": self.reasoning_parser,
                "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES", "")}

    # -- tokens ------------------------------------------------------------------------------
    def _prompt_ids(self, messages: list[dict], ctk: dict) -> list[int] | None:
        """The prompt's token ids, through the model's chat template (None: unknown)."""
        if not self.max_model_len and not self.continuous:
            return None
        try:
            ids = self.llm.get_tokenizer().apply_chat_template(messages, tokenize=True, add_generation_prompt=True,
                                                               **ctk)
        except Exception:  # noqa: BLE001 - no tokenizer: no check here (the engine still validates)
            return None
        if isinstance(ids, dict) or hasattr(ids, "keys"):  # a BatchEncoding
            ids = ids["input_ids"]
        return [int(t) for t in ids] if isinstance(ids, (list, tuple)) else None

    def _marker_ids(self, options: dict[str, Any]) -> dict[str, Any]:
        """Token ids that delimit the reasoning: ``<think>`` / ``</think>`` (think format) or the
        harmony final-channel marker. A marker that is not exactly one token is left out."""
        key = options.get("reasoning_format", "think")
        if key in self._markers:
            return self._markers[key]
        ids: dict[str, Any] = {}
        try:
            tok = self.llm.get_tokenizer()
            if key == "harmony":
                seq = tok.encode("<|channel|>final", add_special_tokens=False)
                ids["final"] = list(seq) if seq else None
            else:
                for name, tag in (("open", options.get("think_open", "<think>")),
                                  ("close", options.get("think_close", "</think>"))):
                    seq = tok.encode(tag, add_special_tokens=False)
                    ids[name] = seq[0] if len(seq) == 1 else None
        except Exception:  # noqa: BLE001 - no tokenizer: counts unknown
            ids = {}
        self._markers[key] = ids
        return ids

    def _reasoning_tokens(self, prompt_ids: Any, out_ids: Any, options: dict[str, Any]) -> int | None:
        m = self._marker_ids(options)
        if options.get("reasoning_format", "think") == "none":
            return 0
        if options.get("reasoning_format") == "harmony":
            return harmony_reasoning_tokens(list(out_ids or []), m.get("final"))
        if m.get("open") is None or m.get("close") is None:
            return None
        return think_reasoning_tokens(list(prompt_ids or []), list(out_ids or []), m["open"], m["close"])

    # -- sampling params --------------------------------------------------------------------
    def _params(self, s: dict[str, Any], n: int, seed: int | None, max_tokens: int, **extra: Any) -> Any:
        kw: dict[str, Any] = dict(n=n, temperature=s["temperature"], top_p=s["top_p"], max_tokens=max_tokens,
                                  seed=seed)
        if s.get("top_k") is not None:
            kw["top_k"] = s["top_k"]
        kw.update(extra)
        return self.engine.SamplingParams(**kw)

    # -- one chunk ----------------------------------------------------------------------------
    def generate(self, batch: list[dict[str, Any]], sampling: dict[str, Any], options: dict[str, Any]) -> list[dict]:
        try:
            return self._generate(batch, sampling, options)
        except Exception as exc:
            if engine_dead(exc):
                # The engine process is gone but this actor lives on: every later call would fail
                # the same way. End the actor, so that Ray restarts it (a fresh engine) and
                # re-runs this call there; once restarts are spent the backend re-queues its
                # prompts to the other replicas.
                import os
                import sys

                print(f"ibench: vLLM engine died in actor {os.getpid()} ({type(exc).__name__}: {exc}); "
                      "ending the actor so that Ray restarts it", file=sys.stderr, flush=True)
                os._exit(75)
            raise

    def _generate(self, batch: list[dict[str, Any]], sampling: dict[str, Any], options: dict[str, Any]) -> list[dict]:
        start = time.perf_counter()
        thinking = options.get("thinking", True)
        budget = int(sampling.get("reasoning_budget") or 0) if thinking else 0
        mode = options.get("budget_mode", "auto")
        if budget and mode == "native" and not self.native_budget:
            raise ValueError("budget_mode=native, but this engine cannot apply thinking_token_budget: start it "
                             "with a reasoning parser (model.engine_kwargs.reasoning_parser) on a vLLM that has it")
        use_stop = bool(budget) and (mode == "stop" or (mode == "auto" and not self.native_budget))
        ctk = dict(options.get("chat_template_kwargs") or {})
        if sampling.get("reasoning_effort"):
            ctk.setdefault("reasoning_effort", sampling["reasoning_effort"])
        max_tokens = int(sampling["max_tokens"])
        results: list[dict] = []
        items: list[dict] = []  # one engine request per run of consecutive sample indices
        for b in batch:
            ids = self._prompt_ids(b["messages"], ctk)
            plen = None if ids is None else len(ids)
            room = max_tokens if plen is None or not self.max_model_len else min(max_tokens, self.max_model_len - plen)
            if room < 1:
                results.extend(_failed_rows(b, b["indices"], plen, _too_long(plen, self.max_model_len)))
                continue
            for run, seed in seed_runs(b["indices"], b["seed"]):
                items.append({"b": b, "indices": run, "seed": seed, "max_tokens": room, "ids": ids})
        if items:
            if use_stop:
                results.extend(self._generate_with_stop(items, sampling, options, ctk, budget))
            else:
                extra: dict[str, Any] = {}
                if budget and self.native_budget and mode in ("auto", "native"):
                    extra["thinking_token_budget"] = budget
                if options.get("skip_special_tokens") is not None:
                    extra["skip_special_tokens"] = options["skip_special_tokens"]
                results.extend(self._generate_plain(items, sampling, options, ctk, extra))
        elapsed = time.perf_counter() - start
        opener = options.get("think_open", "<think>")
        for r in results:
            r["latency_s"] = elapsed
            if r.pop("opened_in_prompt", False) and not r["response"].lstrip().startswith(opener):
                # The chat template opened the thinking block (DeepSeek-R1, Qwen3-Thinking-2507):
                # the response starts inside it. Give it its opener, so that a block cut by
                # max_tokens reads as reasoning, never as an answer.
                r["response"] = opener + r["response"]
        return results

    def _opened(self, prompt_ids: Any, options: dict[str, Any]) -> bool:
        """Whether the prompt ends inside an open thinking block (think format)."""
        m = self._marker_ids(options)
        if options.get("reasoning_format", "think") != "think" or m.get("open") is None or m.get("close") is None:
            return False
        ids = list(prompt_ids or [])
        last_open = max((i for i, t in enumerate(ids) if t == m["open"]), default=-1)
        return last_open > max((i for i, t in enumerate(ids) if t == m["close"]), default=-1)

    def _chat_each(self, items: list[dict], params: list[Any], ctk: dict) -> list[Any]:
        """``LLM.chat`` over the items; when the engine refuses the batch (a request it judges
        invalid), each item again on its own, so that only the bad one fails (its slot holds
        the exception)."""
        if self.continuous and all(it["ids"] is not None for it in items):
            return self._run([{"prompt_token_ids": it["ids"]} for it in items], params)
        with self._serial:
            return self._chat_serial(items, params, ctk)

    def _chat_serial(self, items: list[dict], params: list[Any], ctk: dict) -> list[Any]:
        convs = [it["b"]["messages"] for it in items]
        try:
            return self.llm.chat(convs, params, use_tqdm=False, chat_template_kwargs=ctk or None)
        except Exception as exc:
            if engine_dead(exc):
                raise
            if len(items) == 1:
                return [exc]
        outs: list[Any] = []
        for conv, p in zip(convs, params):
            try:
                outs.append(self.llm.chat([conv], [p], use_tqdm=False, chat_template_kwargs=ctk or None)[0])
            except Exception as exc:
                if engine_dead(exc):
                    raise
                outs.append(exc)
        return outs

    def _generate_prompts(self, prompts: list[Any], params: list[Any]) -> list[Any]:
        if self.continuous:
            return self._run(prompts, params)
        with self._serial:
            return self.llm.generate(prompts, params, use_tqdm=False)

    def _generate_plain(self, items, sampling, options, ctk, extra) -> list[dict]:
        params = [self._params(sampling, len(it["indices"]), it["seed"], it["max_tokens"], **extra) for it in items]
        results = []
        for it, out in zip(items, self._chat_each(items, params, ctk)):
            b = it["b"]
            if isinstance(out, BaseException):
                results.extend(_failed_rows(b, it["indices"], None, f"{type(out).__name__}: {str(out)[:500]}"))
                continue
            pids = getattr(out, "prompt_token_ids", None) or []
            for j, (idx, o) in enumerate(zip(it["indices"], out.outputs)):
                results.append(dict(task_id=b["task_id"], sample_index=idx, response=o.text, prompt_tokens=len(pids),
                                    completion_tokens=len(o.token_ids),
                                    reasoning_tokens=self._reasoning_tokens(pids, o.token_ids, options),
                                    finish_reason=str(o.finish_reason or ""), seed=_add_seed(it["seed"], j),
                                    opened_in_prompt=self._opened(pids, options)))
        return results

    def _generate_with_stop(self, items, sampling, options, ctk, budget) -> list[dict]:
        """Budget without engine support: think up to ``budget`` tokens, close, continue."""
        tok = self.llm.get_tokenizer()
        close_tag = options.get("think_close", "</think>")
        close_text = options.get("budget_close_text", DEFAULT_CLOSE)
        close_id = self._marker_ids(options).get("close")
        tokens = self.continuous and all(it["ids"] is not None for it in items)
        if tokens:  # token ids throughout: the continuation is exactly prompt + what was generated
            prompts = [{"prompt_token_ids": it["ids"]} for it in items]
            close_ids = list(tok.encode(close_text, add_special_tokens=False))
        else:
            prompts = [tok.apply_chat_template(it["b"]["messages"], tokenize=False, add_generation_prompt=True,
                                               **ctk) for it in items]
        stop_kw: dict[str, Any] = {"stop": [close_tag], "include_stop_str_in_output": True}
        if close_id is not None:
            stop_kw["stop_token_ids"] = [close_id]  # also when the tag is a special (hidden) token
        first = [self._params(sampling, len(it["indices"]), it["seed"], min(budget, it["max_tokens"]), **stop_kw)
                 for it in items]
        outs = self._generate_prompts(prompts, first)
        pending: list[tuple[dict, str, int]] = []  # (result, continuation prompt, room left)
        results: list[dict] = []
        for it, prompt, out in zip(items, prompts, outs):
            b = it["b"]
            if isinstance(out, BaseException):
                results.extend(_failed_rows(b, it["indices"], None, f"{type(out).__name__}: {str(out)[:500]}"))
                continue
            pids = getattr(out, "prompt_token_ids", None) or []
            for j, (idx, o) in enumerate(zip(it["indices"], out.outputs)):
                text, used = o.text, len(o.token_ids)
                counted = self._reasoning_tokens(pids, o.token_ids, options)
                r = dict(task_id=b["task_id"], sample_index=idx, response=text, prompt_tokens=len(pids),
                         completion_tokens=used, reasoning_tokens=used if counted is None else counted,
                         finish_reason=str(o.finish_reason or ""), seed=_add_seed(it["seed"], j),
                         budget_forced=False, opened_in_prompt=self._opened(pids, options))
                results.append(r)
                closed = (o.finish_reason == "stop" and (text.rstrip().endswith(close_tag)
                                                         or (close_id is not None and list(o.token_ids)[-1:] == [close_id])))
                if o.finish_reason == "length" and used < it["max_tokens"]:
                    r["response"] = text + close_text  # budget spent mid-thought: close the block
                    r["budget_forced"] = True
                elif closed and not text.rstrip().endswith(close_tag):
                    r["response"] = text + close_tag  # the tag was a hidden special token
                elif not closed:
                    continue  # ended without thinking (EOS) or out of tokens altogether
                if it["max_tokens"] - used > 0:
                    r["seed_continue"] = (_add_seed(it["seed"], j) or 0) + 1
                    if tokens:
                        added = close_ids if r["budget_forced"] else []  # a natural close is in o.token_ids
                        nxt = {"prompt_token_ids": list(prompt["prompt_token_ids"]) + list(o.token_ids) + added}
                    else:
                        nxt = prompt + r["response"]
                    pending.append((r, nxt, it["max_tokens"] - used))
        if pending:
            second = [self._params(sampling, 1, r["seed_continue"], room) for r, _, room in pending]
            outs2 = self._generate_prompts([p for _, p, _ in pending], second)
            for (r, _, _), out in zip(pending, outs2):
                if isinstance(out, BaseException):
                    r["error"] = f"continuation failed: {type(out).__name__}: {str(out)[:400]}"
                    r["finish_reason"] = "error"
                    continue
                o = out.outputs[0]
                r["response"] += o.text
                r["completion_tokens"] += len(o.token_ids)
                r["finish_reason"] = str(o.finish_reason or "")
        return results


def engine_dead(exc: BaseException) -> bool:
    """Whether ``exc`` (or what caused it) says the vLLM engine process has died."""
    seen = 0
    while exc is not None and seen < 8:
        if any(c.__name__ == "EngineDeadError" for c in type(exc).__mro__):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def sample_chunks(reqs: list[GenerationRequest], samples: int) -> list[list[GenerationRequest]]:
    """Requests in order, cut into chunks of about ``samples`` samples each: ``tasks_per_call``
    tasks of ``n`` samples in a first round, and as many samples again in a refinement round,
    whose requests carry one sample each (a chunk per 8 one-sample requests would starve the
    engine's batch)."""
    chunks: list[list[GenerationRequest]] = []
    size = 0
    for r in reqs:
        if not chunks or size + len(r.indices) > samples:
            chunks.append([])
            size = 0
        chunks[-1].append(r)
        size += len(r.indices)
    return chunks


def seed_runs(indices: list[int], seed: int | None) -> list[tuple[list[int], int | None]]:
    """Split sample indices into runs that one request with ``n = len(run)`` can serve: vLLM
    seeds the j-th of n samples with ``seed + j``, so a run of consecutive indices starting at
    ``i`` sent with the seed of sample ``i`` gives every sample the seed
    :meth:`GenerationRequest.sample_seed` names — the same as the ``openai`` backend, and
    independent of which samples a resumed run still lacks."""
    runs: list[tuple[list[int], int | None]] = []
    for idx in indices:
        s = None if seed is None else (seed + idx) % SEED_MOD
        if runs and runs[-1][0][-1] + 1 == idx and (s is None or s == _add_seed(runs[-1][1], len(runs[-1][0]))):
            runs[-1][0].append(idx)
        else:
            runs.append(([idx], s))
    return runs


SEED_MOD = 2**31 - 1


def _add_seed(seed: int | None, j: int) -> int | None:
    return None if seed is None else seed + j


def think_reasoning_tokens(prompt_ids: list[int], out_ids: list[int], open_id: int, close_id: int) -> int:
    """Generated tokens inside ``<think>`` … ``</think>`` (the tags themselves not counted). A
    prompt that ends inside an open thinking block (templates that open it for the model)
    starts the count inside it."""
    last_open = max((i for i, t in enumerate(prompt_ids) if t == open_id), default=-1)
    last_close = max((i for i, t in enumerate(prompt_ids) if t == close_id), default=-1)
    depth = 1 if last_open > last_close else 0
    count = 0
    for t in out_ids:
        if t == open_id:
            depth += 1
        elif t == close_id:
            depth = max(0, depth - 1)
        elif depth:
            count += 1
    return count


def harmony_reasoning_tokens(out_ids: list[int], final_marker: list[int] | None) -> int | None:
    """gpt-oss (harmony): the tokens before the last ``<|channel|>final`` marker (all of them
    when the answer never reached the final channel)."""
    if not final_marker:
        return None
    k = len(final_marker)
    for i in range(len(out_ids) - k, -1, -1):
        if out_ids[i:i + k] == final_marker:
            return i
    return len(out_ids)


def _too_long(plen: int | None, limit: int | None) -> str:
    return (f"prompt too long: {plen} tokens, the context window (max_model_len) is {limit}; "
            "nothing was generated")


def _failed_rows(b: dict, indices: list[int], plen: int | None, error: str) -> list[dict]:
    return [dict(task_id=b["task_id"], sample_index=idx, response="", prompt_tokens=plen, completion_tokens=0,
                 reasoning_tokens=None, finish_reason="error", error=error,
                 seed=None if b["seed"] is None else (b["seed"] + idx) % SEED_MOD) for idx in indices]


class VLLMBackend(Backend):
    def __init__(
        self,
        name: str,
        model: str,
        tensor_parallel_size: int = 1,
        replicas: int = 1,
        enable_thinking: bool | None = None,  # Qwen3: passed to the chat template
        chat_template_kwargs: dict[str, Any] | None = None,
        engine_kwargs: dict[str, Any] | None = None,
        reasoning_format: str = "think",  # think | harmony | none (see extract.split_reasoning)
        tasks_per_call: int = 8,
        calls_in_flight: int = 2,
        gpus_per_bundle: float = 1.0,
        cpus_per_bundle: float = 1.0,
        budget_mode: str = "auto",  # auto | native | stop
        budget_close_text: str = DEFAULT_CLOSE,
        think_close: str = "</think>",
        think_open: str = "<think>",
        engine_module: str = "vllm",
        placement_timeout_s: float = 1800.0,
        max_restarts: int = 1,
        max_task_retries: int = 2,
        **_: object,
    ) -> None:
        self.name = name
        self.model = model
        self.tp = int(tensor_parallel_size)
        self.replicas = int(replicas)
        self.enable_thinking = enable_thinking
        self.chat_template_kwargs = dict(chat_template_kwargs or {})
        if enable_thinking is not None:
            self.chat_template_kwargs.setdefault("enable_thinking", bool(enable_thinking))
        self.engine_kwargs = dict(engine_kwargs or {})
        self.reasoning_format = reasoning_format
        self.tasks_per_call = max(1, int(tasks_per_call))
        self.calls_in_flight = max(1, int(calls_in_flight))
        self.gpus_per_bundle = float(gpus_per_bundle)
        self.cpus_per_bundle = float(cpus_per_bundle)
        self.budget_mode = budget_mode
        self.budget_close_text = budget_close_text
        self.think_close = think_close
        self.think_open = think_open
        self.engine_module = engine_module
        self.placement_timeout_s = float(placement_timeout_s)
        self.max_restarts = int(max_restarts)
        self.max_task_retries = int(max_task_retries)
        self.actors: list[Any] = []
        self.groups: list[Any] = []
        self.sampling = SamplingSettings()

    # -- lifecycle ----------------------------------------------------------------------------
    def setup(self, sampling: SamplingSettings) -> None:
        import ray
        from ray.util.placement_group import placement_group
        from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

        self.sampling = sampling
        if self.actors:
            return
        engine_kwargs = {"tensor_parallel_size": self.tp, **self.engine_kwargs}
        if self.tp > 1:
            engine_kwargs.setdefault("distributed_executor_backend", "ray")
        remote_cls = ray.remote(VLLMWorker)
        bundle = {"CPU": self.cpus_per_bundle}
        if self.gpus_per_bundle:
            bundle["GPU"] = self.gpus_per_bundle
        if self.gpus_per_bundle:
            # Fail fast on a cluster that cannot hold even one replica (say, model=qwen3-32b on
            # a CPU-only machine) instead of waiting out the placement timeout.
            need = self.tp * self.gpus_per_bundle
            have = ray.cluster_resources().get("GPU", 0.0)
            if have < need:
                raise RuntimeError(
                    f"model {self.name}: one replica needs {need:g} GPU(s) (tensor_parallel_size={self.tp}) but the "
                    f"Ray cluster has {have:g}; run it on GPU nodes (cluster=slurm) or choose model=reference / an "
                    f"OpenAI-compatible model")
            if have < need * self.replicas:
                fit = int(have // need)
                log.warning("%s: %d replica(s) of %g GPU(s) requested, the cluster has %g GPU(s): starting %d",
                            self.name, self.replicas, need, have, fit)
                self.replicas = fit
        for r in range(self.replicas):
            pg = placement_group([dict(bundle) for _ in range(self.tp)], strategy="STRICT_PACK",
                                 name=f"ibench-{self.name}-{r}")
            self.groups.append(pg)
        ready = [pg.ready() for pg in self.groups]
        done, waiting = ray.wait(ready, num_returns=len(ready), timeout=self.placement_timeout_s)
        if waiting:
            raise RuntimeError(
                f"{len(waiting)} of {self.replicas} placement groups of {self.tp} x {bundle} could not be "
                f"placed within {self.placement_timeout_s:.0f}s (cluster resources: {ray.cluster_resources()})")
        for pg in self.groups:
            actor = remote_cls.options(
                num_cpus=self.cpus_per_bundle,
                max_concurrency=self.calls_in_flight + 1,  # the queued chunks run together (+ info)
                # TP = 1: the actor is the engine and takes the GPU; TP > 1: vLLM's Ray workers do.
                num_gpus=self.gpus_per_bundle if self.tp == 1 else 0,
                max_restarts=self.max_restarts,
                max_task_retries=self.max_task_retries,
                scheduling_strategy=PlacementGroupSchedulingStrategy(
                    placement_group=pg, placement_group_bundle_index=0,
                    placement_group_capture_child_tasks=True),
            ).remote(self.engine_module, self.model, engine_kwargs)
            self.actors.append(actor)
        self.worker_info = ray.get([a.info.remote() for a in self.actors])
        if sampling.reasoning_budget and self.budget_mode == "auto" and not all(
                i.get("native_budget") for i in self.worker_info):
            log.warning("%s: sampling.reasoning_budget=%s without the engine's native budget (set "
                        "model.engine_kwargs.reasoning_parser): stopping at the budget and continuing",
                        self.name, sampling.reasoning_budget)
        log.info("%s: %d vLLM replica(s) ready (TP=%d): %s", self.name, len(self.actors), self.tp, self.worker_info)

    def close(self) -> None:
        if not (self.actors or self.groups):
            return
        import ray
        from ray.util.placement_group import remove_placement_group

        for actor in self.actors:
            try:
                ray.kill(actor)
            except Exception:  # noqa: BLE001 - best effort clean-up
                pass
        for pg in self.groups:
            try:
                remove_placement_group(pg)
            except Exception:  # noqa: BLE001
                pass
        self.actors, self.groups = [], []

    # -- generation ---------------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        thinking = self.chat_template_kwargs.get("enable_thinking", True) is not False
        opts = {"chat_template_kwargs": self.chat_template_kwargs, "budget_mode": self.budget_mode,
                "budget_close_text": self.budget_close_text, "think_close": self.think_close,
                "think_open": self.think_open, "thinking": thinking, "reasoning_format": self.reasoning_format}
        if self.reasoning_format == "harmony":
            opts["skip_special_tokens"] = False  # keep the channel markers to split on
        return opts

    def generate(self, requests: Iterable[GenerationRequest]) -> Iterator[Completion]:
        import ray

        if not self.actors:
            self.setup(self.sampling)
        reqs = [r for r in requests if r.indices]
        # (task, sample index) -> its request: refinement rounds send one request per sample
        # of a task, each with its own conversation.
        by_sample = {(r.task_id, i): r for r in reqs for i in r.indices}
        chunks = sample_chunks(reqs, self.tasks_per_call * max(1, int(getattr(self.sampling, "n", 1) or 1)))
        chunks.reverse()  # pop() from the end keeps the original order
        sampling = asdict(self.sampling)
        options = self.options()
        inflight: dict[Any, tuple[int, list[GenerationRequest]]] = {}
        load = [0] * len(self.actors)
        dead: set[int] = set()  # replicas whose actor died for good (after Ray's restarts)

        def submit() -> None:
            while chunks:
                alive = [i for i in range(len(self.actors)) if i not in dead]
                if not alive:
                    return
                replica = min(alive, key=load.__getitem__)
                if load[replica] >= self.calls_in_flight:
                    return
                chunk = chunks.pop()
                batch = [{"task_id": r.task_id, "indices": list(r.indices), "messages": r.messages,
                          "seed": r.seed} for r in chunk]
                ref = self.actors[replica].generate.remote(batch, sampling, options)
                inflight[ref] = (replica, chunk)
                load[replica] += 1

        def failed(chunk: list[GenerationRequest], exc: BaseException) -> Iterator[Completion]:
            for r in chunk:
                for idx in r.indices:
                    yield Completion(task_id=r.task_id, sample_index=idx, prompt=_prompt(r), response="",
                                     finish_reason="error", seed=r.sample_seed(idx),
                                     error=f"{type(exc).__name__}: {str(exc)[:500]}")

        submit()
        while inflight:
            done, _ = ray.wait(list(inflight), num_returns=1)
            ref = done[0]
            replica, chunk = inflight.pop(ref)
            load[replica] -= 1
            try:
                rows = ray.get(ref)
            except ray.exceptions.RayActorError as exc:
                # The replica is gone for good: its unfinished prompts go back on the queue for
                # the surviving replicas; only when none is left are they recorded as failed.
                dead.add(replica)
                log.error("%s: replica %d died (%s); re-queueing %d prompts", self.name, replica, exc, len(chunk))
                chunks.append(chunk)
                if len(dead) == len(self.actors):
                    while chunks:
                        yield from failed(chunks.pop(), exc)
                submit()
                continue
            except Exception as exc:  # noqa: BLE001 - this call failed after retries: record, don't drop
                log.error("%s: generation call failed after retries: %s", self.name, exc)
                submit()
                yield from failed(chunk, exc)
                continue
            submit()
            for row in rows:
                req = by_sample[(row["task_id"], row["sample_index"])]
                extra = {k: row[k] for k in ("budget_forced",) if k in row}
                yield Completion(
                    task_id=row["task_id"], sample_index=row["sample_index"], prompt=_prompt(req),
                    response=row["response"], prompt_tokens=row.get("prompt_tokens"),
                    completion_tokens=row.get("completion_tokens"), reasoning_tokens=row.get("reasoning_tokens"),
                    finish_reason=row.get("finish_reason", ""), seed=row.get("seed"),
                    latency_s=row.get("latency_s", 0.0), error=row.get("error", ""), extra=extra)

    def identity(self) -> dict:
        return {**super().identity(), "model": self.model, "chat_template_kwargs": self.chat_template_kwargs,
                "reasoning_format": self.reasoning_format, "budget_mode": self.budget_mode}


def _prompt(req: GenerationRequest) -> str:
    import json

    return json.dumps(req.messages, ensure_ascii=False)
