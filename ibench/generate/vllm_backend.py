"""The ``vllm`` backend: ``vllm.LLM`` engines inside Ray actors, several replicas.

Each replica is one actor holding one engine, placed in its own placement group of
``tensor_parallel_size × pipeline_parallel_size`` GPU bundles (:mod:`.vllm_layout`): one node
(``STRICT_PACK``) without pipeline stages, as few nodes as hold it (``PACK``) with them. With more
than one GPU the actor itself takes none and vLLM's Ray executor starts its workers on the group's
bundles (``placement_group_capture_child_tasks``); with one GPU the actor holds it.

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

Modules: this one is the driver side (placement groups, actors, chunks in flight, completions);
:mod:`.vllm_worker` the actor; :mod:`.vllm_samples` chunks, seeds and failed rows;
:mod:`.vllm_reasoning` reasoning-token counts. Their public names are re-exported here.
"""

from __future__ import annotations

import logging
from dataclasses import asdict
from typing import Any, Iterable, Iterator

from .base import Backend, Completion, GenerationRequest, SamplingSettings
from .vllm_layout import Layout
from .vllm_reasoning import DEFAULT_CLOSE, harmony_reasoning_tokens, think_reasoning_tokens
from .vllm_samples import SEED_MOD, sample_chunks, seed_runs
from .vllm_worker import VLLMWorker, engine_dead

__all__ = ["DEFAULT_CLOSE", "SEED_MOD", "VLLMBackend", "VLLMWorker", "engine_dead", "harmony_reasoning_tokens",
           "sample_chunks", "seed_runs", "think_reasoning_tokens"]

log = logging.getLogger(__name__)


class VLLMBackend(Backend):
    runs_in_ray = True

    def __init__(
        self,
        name: str,
        model: str,
        tensor_parallel_size: int = 1,
        replicas: int = 1,
        pipeline_parallel_size: int = 1,  # stages across nodes; a replica is TP x PP GPUs
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
        self.pp = int(pipeline_parallel_size)
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
        self.layout = Layout(self.tp, self.pp, self.gpus_per_bundle, self.cpus_per_bundle)
        self.actors: list[Any] = []
        self.groups: list[Any] = []
        self.sampling = SamplingSettings()

    # -- lifecycle ----------------------------------------------------------------------------
    @classmethod
    def config_problems(cls, model: Any) -> list[str]:
        return [f"model.{name}: {model[name]!r}; expected at least 1"
                for name in ("tensor_parallel_size", "pipeline_parallel_size", "replicas") if int(model.get(name, 1)) < 1]

    @classmethod
    def readiness_problems(cls, model: Any, cluster: Any, request: bool = True,
                           probed: dict | None = None) -> list[str]:
        """The weights are on this node and the GPUs hold one replica (:func:`~ibench.generate.vllm_layout.replica_problems`)."""
        from .vllm_layout import replica_problems

        return replica_problems(model, cluster)

    def setup(self, sampling: SamplingSettings) -> None:
        import ray
        from ray.util.placement_group import placement_group
        from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

        self.sampling = sampling
        if self.actors:
            return
        layout = self.layout
        engine_kwargs = layout.engine_kwargs(self.engine_kwargs)
        remote_cls = ray.remote(VLLMWorker)
        if self.gpus_per_bundle:
            # Fail fast on a cluster that cannot hold even one replica (say, model=qwen3-32b on
            # a CPU-only machine) instead of waiting out the placement timeout.
            need = layout.gpus_per_replica
            have = ray.cluster_resources().get("GPU", 0.0)
            if have < need:
                raise RuntimeError(
                    f"model {self.name}: one replica needs {need:g} GPU(s) (tensor_parallel_size={self.tp} × "
                    f"pipeline_parallel_size={self.pp}) but the "
                    f"Ray cluster has {have:g}; run it on GPU nodes (cluster=slurm) or choose model=reference / an "
                    f"OpenAI-compatible model")
            if have < need * self.replicas:
                fit = int(have // need)
                log.warning("%s: %d replica(s) of %g GPU(s) requested, the cluster has %g GPU(s): starting %d",
                            self.name, self.replicas, need, have, fit)
                self.replicas = fit
        for r in range(self.replicas):
            pg = placement_group(layout.bundles(), strategy=layout.strategy, name=f"ibench-{self.name}-{r}")
            self.groups.append(pg)
        ready = [pg.ready() for pg in self.groups]
        done, waiting = ray.wait(ready, num_returns=len(ready), timeout=self.placement_timeout_s)
        if waiting:
            raise RuntimeError(
                f"{len(waiting)} of {self.replicas} placement groups of {layout.bundles_per_replica} x "
                f"{layout.bundles()[0]} ({layout.strategy}) could not be "
                f"placed within {self.placement_timeout_s:.0f}s (cluster resources: {ray.cluster_resources()})")
        for pg in self.groups:
            actor = remote_cls.options(
                num_cpus=self.cpus_per_bundle,
                max_concurrency=self.calls_in_flight + 1,  # the queued chunks run together (+ info)
                # one GPU: the actor is the engine and takes it; more: vLLM's Ray workers do.
                num_gpus=layout.actor_gpus,
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
        log.info("%s: %d vLLM replica(s) ready (TP=%d, PP=%d): %s", self.name, len(self.actors), self.tp, self.pp,
                 self.worker_info)

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
