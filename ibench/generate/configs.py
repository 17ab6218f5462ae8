"""The model configs' schemas (``conf/model/*.yaml`` extend one of these through their defaults
list): one per backend, each field marked with its role (:mod:`ibench.roles`). The run's schema
(:mod:`ibench.run.config`) registers them; the reference model's key rule reads its marks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from omegaconf import MISSING

from ibench.roles import EXECUTION, LABEL, MEASURED, role


@dataclass
class ModelConfig:
    _target_: str = role(MEASURED, MISSING)
    name: str = role(LABEL, MISSING)  # display name; W&B group; part of the resume key
    reasoning: bool = role(LABEL, False)  # table grouping: reasoning vs non-reasoning configurations


@dataclass
class ReferenceModelConfig(ModelConfig):
    _target_: str = role(MEASURED, "ibench.generate.reference.ReferenceBackend")
    name: str = role(LABEL, "reference")
    language: str = role(MEASURED, "${bench.language}")
    repeat_to_n: bool = role(MEASURED, False)  # True: cycle the known solutions up to sampling.n samples
    variant: str = role(MEASURED, "${bench.variant}")  # replays the known solutions of this variant


@dataclass
class OpenAIModelConfig(ModelConfig):
    _target_: str = role(MEASURED, "ibench.generate.openai_backend.OpenAIBackend")
    model: str = role(MEASURED, MISSING)  # the model id the endpoint expects
    base_url: str = role(EXECUTION, "http://localhost:8000/v1")
    api_key_env: Optional[str] = role(EXECUTION, "OPENAI_API_KEY")  # name of the environment variable holding the key
    max_concurrency: int = role(EXECUTION, 16)
    max_retries: int = role(EXECUTION, 6)
    timeout_s: float = role(EXECUTION, 1800.0)
    backoff_base_s: float = role(EXECUTION, 1.0)
    backoff_max_s: float = role(EXECUTION, 60.0)
    max_tokens_field: str = role(MEASURED, "max_tokens")
    budget_field: Optional[str] = role(MEASURED, None)
    send_seed: bool = role(MEASURED, True)
    extra_body: dict[str, Any] = role(MEASURED, factory=dict)
    headers: dict[str, str] = role(EXECUTION, factory=dict)
    reasoning_format: str = role(MEASURED, "think")
    preflight: bool = role(EXECUTION, True)  # one small request before the run starts (false: skip it)


@dataclass
class VLLMModelConfig(ModelConfig):
    _target_: str = role(MEASURED, "ibench.generate.vllm_backend.VLLMBackend")
    model: str = role(MEASURED, MISSING)  # Hugging Face id or local path of the weights
    tensor_parallel_size: int = role(MEASURED, 1)  # GPUs per pipeline stage, within one node
    pipeline_parallel_size: int = role(MEASURED, 1)  # stages per replica, across nodes (a replica = TP x PP GPUs)
    replicas: int = role(EXECUTION, 1)
    enable_thinking: Optional[bool] = role(MEASURED, None)
    chat_template_kwargs: dict[str, Any] = role(MEASURED, factory=dict)
    engine_kwargs: dict[str, Any] = role(MEASURED, factory=dict)
    reasoning_format: str = role(MEASURED, "think")  # think | harmony | none
    tasks_per_call: int = role(EXECUTION, 8)
    calls_in_flight: int = role(EXECUTION, 2)
    gpus_per_bundle: float = role(EXECUTION, 1.0)
    cpus_per_bundle: float = role(EXECUTION, 1.0)
    budget_mode: str = role(MEASURED, "auto")  # auto | native | stop
    think_close: str = role(MEASURED, "</think>")
    engine_module: str = role(MEASURED, "vllm")
    placement_timeout_s: float = role(EXECUTION, 1800.0)
    max_restarts: int = role(EXECUTION, 1)
    max_task_retries: int = role(EXECUTION, 2)


def plain_mapping(node: Any) -> dict:
    """A model config's mapping field (headers, extra_body, engine_kwargs) as a plain dict,
    resolved; {} when unset."""
    if node is None:
        return {}
    from omegaconf import OmegaConf

    if OmegaConf.is_config(node):
        return dict(OmegaConf.to_container(node, resolve=True))  # type: ignore[arg-type]
    return dict(node)
