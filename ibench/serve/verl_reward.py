"""A verl reward function that scores programs, interactive ones included, by the ibench judge
service (``python -m ibench.serve``). verl loads this file by path, so it imports only by
absolute names. In verl's config (docs/SERVE.md has the whole example)::

    custom_reward_function:
      path: <site-packages or checkout>/ibench/serve/verl_reward.py
      name: compute_score            # reward_model.reward_manager=naive (one call per sample)
      # name: compute_score_batch    # reward_model.reward_manager=batch (one request per batch)
      reward_kwargs:
        url: http://127.0.0.1:8000
        language: cpp

A sample's ``ground_truth`` names the task: a loaded task's id (``"guess-the-number"``), or a
JSON object ``{"task": <id or inline task>, "language": "cpp", "all_cases": false}``. The
program is the last fenced block of the language in the answer after any ``</think>``; none
is CE (reward 0), as in an evaluation. The token comes from ``token=`` or ``$IBENCH_SERVE_TOKEN``.

Each sample's result is a dict: ``score`` (the service's reward; a judge error SE gets
``se_score``, 0 by default, and ``judge_error`` 1 so it can be masked), plus ``verdict`` (the
label's index in ``VERDICTS``: verl stacks these extras into arrays) and ``acc``.
"""

from __future__ import annotations

import gzip
import json
import os
import time

import httpx

from ibench.generate.extract import extract_code, split_reasoning

VERDICTS = ("OK", "WA", "PE", "QLE", "IDLE", "TLE", "MLE", "RE", "CE", "SE")
TOKEN_ENV = "IBENCH_SERVE_TOKEN"


def _submission(solution_str: str, ground_truth, language: str) -> tuple[dict, dict]:
    spec = ground_truth
    if isinstance(spec, str) and spec.lstrip().startswith("{"):
        spec = json.loads(spec)
    if isinstance(spec, str):
        spec = {"task": spec}
    lang = spec.get("language", language)
    _, final = split_reasoning(solution_str)
    code = extract_code(final, lang, accept_untagged=True).code or ""
    opts = {k: spec[k] for k in ("all_cases", "variant", "cases") if k in spec}
    return {"task": spec["task"], "language": lang, "source": code}, opts


GZIP_OVER = 64 << 10  # a body larger than this goes gzip'd (a batch repeats its inline task in each submission)


def _post(url: str, body: dict, token: str | None, timeout_s: float, max_wait_s: float,
          gzip_over: int = GZIP_OVER) -> dict:
    """POST /v1/judge, waiting out 429s (the service's back-pressure) as Retry-After says."""
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    data = json.dumps(body, separators=(",", ":")).encode()
    if len(data) > gzip_over:
        data, headers = gzip.compress(data, compresslevel=1), {**headers, "Content-Encoding": "gzip"}
    deadline = time.monotonic() + max_wait_s
    with httpx.Client(timeout=timeout_s) as client:
        while True:
            r = client.post(url.rstrip("/") + "/v1/judge", content=data, headers=headers)
            if r.status_code == 429 and time.monotonic() < deadline:
                time.sleep(float(r.headers.get("Retry-After", "1")))
                continue
            r.raise_for_status()
            return r.json()


def _score(res: dict, se_score: float) -> dict:
    se = res["verdict"] == "SE" or res.get("reward") is None
    return {"score": se_score if se else float(res["reward"]), "acc": float(res["verdict"] == "OK"),
            "verdict": VERDICTS.index(res["verdict"]) if res["verdict"] in VERDICTS else len(VERDICTS) - 1,
            "judge_error": float(se)}


def _judge(subs: list[tuple[dict, dict]], url: str, token: str | None, timeout_s: float, max_wait_s: float,
           se_score: float, max_batch: int, gzip_over: int = GZIP_OVER) -> list[dict]:
    """Submissions grouped by their options (one request per group and up to ``max_batch``)."""
    out: list[dict | None] = [None] * len(subs)
    groups: dict[str, list[int]] = {}
    for i, (_, opts) in enumerate(subs):
        groups.setdefault(json.dumps(opts, sort_keys=True), []).append(i)
    for key, idx in groups.items():
        for k in range(0, len(idx), max_batch):
            part = idx[k:k + max_batch]
            body = {"submissions": [subs[i][0] for i in part], **json.loads(key)}
            results = _post(url, body, token, timeout_s, max_wait_s, gzip_over)["results"]
            for i, res in zip(part, results):
                out[i] = _score(res, se_score)
    return [o for o in out if o is not None]


def compute_score(data_source=None, solution_str: str = "", ground_truth=None, extra_info=None, *,
                  url: str = "http://127.0.0.1:8000", language: str = "cpp", token: str | None = None,
                  timeout_s: float = 600.0, max_wait_s: float = 600.0, se_score: float = 0.0) -> dict:
    """verl's per-sample reward (``reward_manager=naive``)."""
    return _judge([_submission(solution_str, ground_truth, language)], url, token or os.environ.get(TOKEN_ENV),
                  timeout_s, max_wait_s, se_score, 1)[0]


def judge_samples(solution_strs, ground_truths, *, url: str = "http://127.0.0.1:8000", language: str = "cpp",
                  token: str | None = None, timeout_s: float = 600.0, max_wait_s: float = 600.0,
                  se_score: float = 0.0, max_batch: int = 256, gzip_over: int = GZIP_OVER) -> list[dict]:
    """Answers judged by the service, one result dict each (``compute_score_batch``'s, which
    the OpenRLHF reward function uses too). A request body over ``gzip_over`` bytes is sent gzip'd."""
    subs = [_submission(s, g, language) for s, g in zip(solution_strs, ground_truths)]
    return _judge(subs, url, token or os.environ.get(TOKEN_ENV), timeout_s, max_wait_s, se_score, max_batch,
                  gzip_over)


def compute_score_batch(data_sources=None, solution_strs=(), ground_truths=(), extra_infos=None, *,
                        url: str = "http://127.0.0.1:8000", language: str = "cpp", token: str | None = None,
                        timeout_s: float = 600.0, max_wait_s: float = 600.0, se_score: float = 0.0,
                        max_batch: int = 256) -> list[dict]:
    """verl's batched reward (``reward_manager=batch``): the whole batch in as few requests as
    its options allow, judged in parallel by the service's replicas."""
    return judge_samples(solution_strs, ground_truths, url=url, language=language, token=token, timeout_s=timeout_s,
                         max_wait_s=max_wait_s, se_score=se_score, max_batch=max_batch)
