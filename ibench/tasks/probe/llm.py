"""LLM mutants (``--model CONFIG``): the paper's two categories, asked of a model through
ibench's own backends (``conf/model/<CONFIG>.yaml``, Hydra overrides allowed), with the prompt
wording in ``conf/probe/llm_mutants.yaml``. Each answer is compiled and judged like any other
mutant, labelled by the category it was asked for (LLM-A, LLM-B), and recorded with the
fingerprint of its prompt and model."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Sequence

from ..model import Task
from .run import Mutant, probe_solutions

CONF = Path(__file__).resolve().parents[3] / "conf"


def load_prompts(path: Path | None = None) -> dict[str, str]:
    from omegaconf import OmegaConf

    cfg = OmegaConf.to_container(OmegaConf.load(path or CONF / "probe" / "llm_mutants.yaml"), resolve=True)
    if not isinstance(cfg, dict):
        raise ValueError("conf/probe/llm_mutants.yaml: expected a mapping")
    missing = [k for k in ("system", "category_a", "category_b") if not isinstance(cfg.get(k), str)]
    if missing:
        raise ValueError(f"conf/probe/llm_mutants.yaml: missing {', '.join(missing)}")
    return {str(k): str(v) for k, v in cfg.items()}


def build_backend(model: str, overrides: Sequence[str] = ()):
    """The backend of the model config ``model`` (``conf/model/<model>.yaml``, with ``overrides``)."""
    from ibench.generate.backends import build_backend as from_config
    from ibench.run.config import compose

    return from_config(compose([f"model={model}", *overrides]).model)


def llm_mutants(tasks: Sequence[Task], model: str, overrides: Sequence[str] = (), samples: int = 1,
                backend=None) -> tuple[dict[str, list[Mutant]], dict]:
    """Ask the model for ``samples`` mutants per category and accepted solution of each task."""
    from ibench.generate import GenerationRequest, SamplingSettings, extract_code, split_reasoning, stable_seed

    prompts = load_prompts()
    backend = backend or build_backend(model, overrides)
    backend.setup(SamplingSettings(n=samples, temperature=0.8))
    identity = json.dumps(backend.identity(), sort_keys=True, default=str)
    # One request per task and category; the categories get disjoint sample indices, so a
    # completion (task id, sample index) names its request.
    requests: list = []
    meta: dict[tuple[str, int], tuple] = {}
    for task in tasks:
        for sol in probe_solutions(task)[:1]:  # the first accepted solution of each task
            for k, (cat, key) in enumerate((("LLM-A", "category_a"), ("LLM-B", "category_b"))):
                user = prompts[key].format(statement=task.statement(), solution=sol.path.read_text(encoding="utf-8"))
                messages = [{"role": "system", "content": prompts["system"]}, {"role": "user", "content": user}]
                fp = hashlib.sha256((identity + json.dumps(messages)).encode()).hexdigest()[:16]
                indices = list(range(k * samples, (k + 1) * samples))
                req = GenerationRequest(task, messages, indices, stable_seed("probe", task.task_id, cat))
                requests.append(req)
                for i in indices:
                    meta[(task.task_id, i)] = (req, cat, sol.path.name, fp)
    by_task: dict[str, list[Mutant]] = {}
    try:
        for c in backend.generate(requests):
            req, cat, sol_name, fp = meta[(c.task_id, c.sample_index)]
            _, final = split_reasoning(c.response, getattr(backend, "reasoning_format", "think"))
            code = extract_code(final, "cpp").code or ""
            mid = f"{cat}:{sol_name}:{fp[:8]}:{c.sample_index}"
            why = "no code in the answer" if not code else (c.error or "model answer")
            by_task.setdefault(c.task_id, []).append(
                Mutant(mid, req.task, cat, cat.split("-")[1].lower(), sol_name, code,
                       f"asked for a Category {cat[-1]} mutant ({why})", fingerprint=fp))
    finally:
        backend.close()
    return by_task, {"model": model, "overrides": list(overrides), "identity": json.loads(identity), "samples": samples}
