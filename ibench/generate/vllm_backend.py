"""The ``vllm`` backend: ``vllm.LLM`` engines inside Ray actors, several replicas.

Each replica is one actor holding one engine, placed in its own ``STRICT_PACK`` placement group
of ``tensor_parallel_size`` GPU bundles (one node per tensor-parallel group). With TP > 1 the
actor itself takes no GPU and vLLM's Ray executor starts its workers on the group's bundles
(``placement_group_capture_child_tasks``); with TP = 1 the actor holds the GPU.

Work goes to the replicas in chunks of ``tasks_per_call`` tasks (each task with ``n`` samples in
one ``SamplingParams(n=…)``), at most ``calls_in_flight`` chunks queued per replica, so the
engines batch continuously while finished chunks stream on to judging.

Reasoning budget: where the installed vLLM has ``SamplingParams.thinking_token_budget`` it is
used (the engine must be started with a reasoning config; pass it in ``engine_kwargs``).
Otherwise generation stops at the budget (or at ``</think>``), the thinking block is closed
with ``budget_close_text`` and generation continues from there for the rest of ``max_tokens``.

vLLM is imported only inside the actor (``engine_module``, normally ``"vllm"``), so this module
imports on machines without it.
"""

from __future__ import annotations

import importlib
import inspect
import logging
import time
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
        self.native_budget = _has_param(self.engine.SamplingParams, "thinking_token_budget")
        try:  # the context window, to keep prompt + max_tokens inside it (a request over it fails)
            self.max_model_len = int(self.llm.llm_engine.model_config.max_model_len)
        except Exception:  # noqa: BLE001 - engines without this attribute path: no clamping
            self.max_model_len = None

    def _room(self, messages: list[dict], ctk: dict, max_tokens: int) -> int:
        """``max_tokens`` clamped to what the context window leaves after the prompt."""
        if not self.max_model_len:
            return max_tokens
        try:
            ids = self.llm.get_tokenizer().apply_chat_template(messages, tokenize=True, add_generation_prompt=True,
                                                               **ctk)
        except Exception:  # noqa: BLE001
            return max_tokens
        return max(16, min(max_tokens, self.max_model_len - len(ids)))

    def info(self) -> dict[str, Any]:
        import os

        return {"native_budget": self.native_budget, "pid": os.getpid(),
                "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES", "")}

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
        start = time.perf_counter()
        budget = sampling.get("reasoning_budget")
        mode = options.get("budget_mode", "auto")
        ctk = dict(options.get("chat_template_kwargs") or {})
        if sampling.get("reasoning_effort"):
            ctk.setdefault("reasoning_effort", sampling["reasoning_effort"])
        if budget and options.get("thinking", True) and (mode == "stop" or (mode == "auto" and not self.native_budget)):
            results = self._generate_with_stop(batch, sampling, options, ctk, int(budget))
        else:
            extra = {}
            if budget and self.native_budget and mode in ("auto", "native") and options.get("thinking", True):
                extra["thinking_token_budget"] = int(budget)
            if options.get("skip_special_tokens") is not None:
                extra["skip_special_tokens"] = options["skip_special_tokens"]
            params = [self._params(sampling, len(b["indices"]), b["seed"],
                                   self._room(b["messages"], ctk, int(sampling["max_tokens"])), **extra)
                      for b in batch]
            outs = self.llm.chat([b["messages"] for b in batch], params, use_tqdm=False,
                                 chat_template_kwargs=ctk or None)
            results = []
            for b, out in zip(batch, outs):
                ptoks = len(getattr(out, "prompt_token_ids", None) or [])
                for idx, o in zip(b["indices"], out.outputs):
                    results.append(dict(task_id=b["task_id"], sample_index=idx, response=o.text,
                                        prompt_tokens=ptoks, completion_tokens=len(o.token_ids),
                                        finish_reason=str(o.finish_reason or ""), seed=b["seed"]))
        elapsed = time.perf_counter() - start
        for r in results:
            r["latency_s"] = elapsed
        return results

    def _generate_with_stop(self, batch, sampling, options, ctk, budget) -> list[dict]:
        """Budget without engine support: think up to ``budget`` tokens, close, continue."""
        tok = self.llm.get_tokenizer()
        close_tag = options.get("think_close", "</think>")
        close_text = options.get("budget_close_text", DEFAULT_CLOSE)
        prompts = [tok.apply_chat_template(b["messages"], tokenize=False, add_generation_prompt=True, **ctk)
                   for b in batch]
        max_tokens = min(self._room(b["messages"], ctk, int(sampling["max_tokens"])) for b in batch)
        first = [self._params(sampling, len(b["indices"]), b["seed"], min(budget, max_tokens),
                              stop=[close_tag], include_stop_str_in_output=True) for b in batch]
        outs = self.llm.generate(prompts, first, use_tqdm=False)
        pending: list[tuple[dict, str]] = []  # (result, continuation prompt)
        results: list[dict] = []
        for b, prompt, out in zip(batch, prompts, outs):
            ptoks = len(getattr(out, "prompt_token_ids", None) or [])
            for j, (idx, o) in enumerate(zip(b["indices"], out.outputs)):
                text, used = o.text, len(o.token_ids)
                r = dict(task_id=b["task_id"], sample_index=idx, response=text, prompt_tokens=ptoks,
                         completion_tokens=used, reasoning_tokens=used, finish_reason=str(o.finish_reason or ""),
                         seed=b["seed"], budget_forced=False)
                results.append(r)
                if o.finish_reason == "length" and used < max_tokens:
                    r["response"] = text + close_text  # budget spent mid-thought: close the block
                    r["budget_forced"] = True
                elif not (o.finish_reason == "stop" and text.rstrip().endswith(close_tag)):
                    continue  # ended without thinking (EOS) or out of tokens altogether
                if max_tokens - used > 0:
                    r["seed_continue"] = (b["seed"] or 0) + j + 1
                    pending.append((r, prompt + r["response"]))
        if pending:
            second = [self._params(sampling, 1, r["seed_continue"], max_tokens - r["completion_tokens"])
                      for r, _ in pending]
            outs2 = self.llm.generate([p for _, p in pending], second, use_tqdm=False)
            for (r, _), out in zip(pending, outs2):
                o = out.outputs[0]
                r["response"] += o.text
                r["completion_tokens"] += len(o.token_ids)
                r["finish_reason"] = str(o.finish_reason or "")
        return results


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
                "thinking": thinking}
        if self.reasoning_format == "harmony":
            opts["skip_special_tokens"] = False  # keep the channel markers to split on
        return opts

    def generate(self, requests: Iterable[GenerationRequest]) -> Iterator[Completion]:
        import ray

        if not self.actors:
            self.setup(self.sampling)
        reqs = [r for r in requests if r.indices]
        by_task = {r.task_id: r for r in reqs}
        chunks = [reqs[i:i + self.tasks_per_call] for i in range(0, len(reqs), self.tasks_per_call)]
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
                                     finish_reason="error", seed=r.seed,
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
                req = by_task[row["task_id"]]
                extra = {k: row[k] for k in ("budget_forced",) if k in row}
                yield Completion(
                    task_id=row["task_id"], sample_index=row["sample_index"], prompt=_prompt(req),
                    response=row["response"], prompt_tokens=row.get("prompt_tokens"),
                    completion_tokens=row.get("completion_tokens"), reasoning_tokens=row.get("reasoning_tokens"),
                    finish_reason=row.get("finish_reason", ""), seed=row.get("seed"),
                    latency_s=row.get("latency_s", 0.0), extra=extra)

    def identity(self) -> dict:
        return {**super().identity(), "model": self.model, "chat_template_kwargs": self.chat_template_kwargs,
                "reasoning_format": self.reasoning_format, "budget_mode": self.budget_mode}


def _prompt(req: GenerationRequest) -> str:
    import json

    return json.dumps(req.messages, ensure_ascii=False)
