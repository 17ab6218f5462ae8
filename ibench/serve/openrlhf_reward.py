"""An OpenRLHF reward function that scores programs, interactive ones included, by the ibench
judge service (``python -m ibench.serve``). OpenRLHF loads a ``--remote_rm_url`` that ends in
``.py`` by path and calls its ``reward_func(queries, prompts, labels)``, one sample a call, in
threads (``openrlhf/utils/agent.py``, ``SingleTurnAgentExecutor``)::

    python -m openrlhf.cli.train_ppo_ray ... \\
        --remote_rm_url <site-packages or checkout>/ibench/serve/openrlhf_reward.py \\
        --label_key ground_truth          # the dataset field that names the task (below)

OpenRLHF passes no arguments of its own, so the service is named by the environment:
``IBENCH_SERVE_URL`` (default ``http://127.0.0.1:8000``), ``IBENCH_SERVE_TOKEN``,
``IBENCH_LANGUAGE`` (default ``cpp``). A label names the task as verl's ``ground_truth`` does
(``verl_reward.py``): a loaded task's id, or JSON ``{"task": <id or inline task>, "language":
..., "all_cases": ..., "cases": ...}``. A query is the prompt and the response decoded
together; the program is the last fenced block of the language in the response (the text after
the prompt) after any ``</think>``; none is CE (reward 0).

It returns OpenRLHF's dict: ``rewards`` (the service's reward; a judge error SE gets 0: OpenRLHF
has no mask, so ``extra_logs.ibench_judge_error`` counts them), ``scores`` (the same, in
[0, 1], for dynamic filtering) and ``extra_logs`` (``ibench_accepted``, ``ibench_judge_error``),
as tensors when torch is importable (it is in OpenRLHF), else lists.
"""

from __future__ import annotations

import os

from ibench.serve.verl_reward import TOKEN_ENV, judge_samples

URL_ENV = "IBENCH_SERVE_URL"
LANGUAGE_ENV = "IBENCH_LANGUAGE"


def _response(query: str, prompt: str) -> str:
    """The response: the query after its prompt (a code block in the prompt is never taken)."""
    return query[len(prompt):] if prompt and query.startswith(prompt) else query


def _as_tensor(values: list[float]):
    import importlib

    try:
        torch = importlib.import_module("torch")  # OpenRLHF's own; not an ibench dependency
    except ImportError:
        return values
    return torch.tensor(values, dtype=torch.float32)


def reward_func(queries, prompts, labels, **kwargs) -> dict:
    url = kwargs.get("url") or os.environ.get(URL_ENV, "http://127.0.0.1:8000")
    token = kwargs.get("token") or os.environ.get(TOKEN_ENV)
    language = kwargs.get("language") or os.environ.get(LANGUAGE_ENV, "cpp")
    texts = [_response(q, p) for q, p in zip(queries, prompts)]
    out = judge_samples(texts, list(labels), url=url, language=language, token=token)
    rewards = [o["score"] for o in out]
    return {"rewards": _as_tensor(rewards), "scores": _as_tensor(rewards),
            "extra_logs": {"ibench_accepted": _as_tensor([o["acc"] for o in out]),
                           "ibench_judge_error": _as_tensor([o["judge_error"] for o in out])}}
