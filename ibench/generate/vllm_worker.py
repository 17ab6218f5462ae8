"""The actor side of the ``vllm`` backend: :class:`VLLMWorker` holds one ``vllm.LLM``.

The backend wraps the class with ``ray.remote`` and starts one actor per replica. Inside, calls
run in threads (``max_concurrency > 1``) and hand their requests to one loop that owns the
engine (continuous batching), so that a chunk's long tail overlaps the next chunk; engines
without ``LLMEngine.add_request``/``step`` run one call at a time through ``LLM.chat``.

A reasoning budget is applied natively (``SamplingParams.thinking_token_budget``) when the
engine has a reasoning config, or else by stopping at the budget, closing the thinking block and
continuing (:meth:`VLLMWorker._generate_with_stop`). An engine that dies (``EngineDeadError``)
ends the actor, so that Ray restarts it.

vLLM is imported only in the actor (``engine_module``, normally ``"vllm"``).
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import threading
import time
from concurrent.futures import Future
from typing import Any

from .vllm_reasoning import DEFAULT_CLOSE, harmony_reasoning_tokens, think_reasoning_tokens
from .vllm_samples import add_seed, failed_rows, seed_runs, too_long


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
        self.max_model_len: int | None
        try:  # the context window, to keep prompt + max_tokens inside it (a request over it fails)
            self.max_model_len = int(self.llm.llm_engine.model_config.max_model_len)
        except Exception:  # noqa: BLE001 - engines without this attribute path: no clamping
            self.max_model_len = None
        self._markers: dict[str, Any] = {}
        # Continuous batching: calls run in threads of this actor (max_concurrency > 1) and hand
        # their requests to one loop that owns the engine, so the engine holds every queued
        # chunk at once and refills its batch as samples finish (a chunk's long tail overlaps
        # the next chunk). Engines without LLMEngine.add_request/step: one call at a time.
        self._engine: Any = getattr(self.llm, "llm_engine", None)
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
                    finished = self._waiting.pop(str(out.request_id), None)
                    if finished is not None:
                        finished.set_result(out)

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
                results.extend(failed_rows(b, b["indices"], plen, too_long(plen, self.max_model_len)))
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
                results.extend(failed_rows(b, it["indices"], None, f"{type(out).__name__}: {str(out)[:500]}"))
                continue
            pids = getattr(out, "prompt_token_ids", None) or []
            for j, (idx, o) in enumerate(zip(it["indices"], out.outputs)):
                results.append(dict(task_id=b["task_id"], sample_index=idx, response=o.text, prompt_tokens=len(pids),
                                    completion_tokens=len(o.token_ids),
                                    reasoning_tokens=self._reasoning_tokens(pids, o.token_ids, options),
                                    finish_reason=str(o.finish_reason or ""), seed=add_seed(it["seed"], j),
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
        pending: list[tuple[dict, Any, int]] = []  # (result, continuation prompt (text or token ids), room left)
        results: list[dict] = []
        for it, prompt, out in zip(items, prompts, outs):
            b = it["b"]
            if isinstance(out, BaseException):
                results.extend(failed_rows(b, it["indices"], None, f"{type(out).__name__}: {str(out)[:500]}"))
                continue
            pids = getattr(out, "prompt_token_ids", None) or []
            for j, (idx, o) in enumerate(zip(it["indices"], out.outputs)):
                text, used = o.text, len(o.token_ids)
                counted = self._reasoning_tokens(pids, o.token_ids, options)
                r = dict(task_id=b["task_id"], sample_index=idx, response=text, prompt_tokens=len(pids),
                         completion_tokens=used, reasoning_tokens=used if counted is None else counted,
                         finish_reason=str(o.finish_reason or ""), seed=add_seed(it["seed"], j),
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
                    r["seed_continue"] = (add_seed(it["seed"], j) or 0) + 1
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


def engine_dead(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what caused it) says the vLLM engine process has died."""
    seen = 0
    while exc is not None and seen < 8:
        if any(c.__name__ == "EngineDeadError" for c in type(exc).__mro__):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False
