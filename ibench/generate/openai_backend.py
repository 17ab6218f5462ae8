"""The ``openai`` backend: any OpenAI-compatible chat-completions endpoint.

A vLLM or SGLang server, or a provider. Requests run concurrently (bounded by
``max_concurrency``) on an asyncio loop in a background thread; completions are yielded as they
arrive. 429, 5xx, timeouts and dropped connections are retried with exponential backoff (and
``Retry-After`` when the server sends it); a request that still fails becomes a sample with
``error`` set and no code — recorded and counted, never dropped.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import queue
import random
import threading
import time
from typing import Any, Iterable, Iterator

import httpx

from .base import Backend, Completion, GenerationRequest, SamplingSettings
from .configs import plain_mapping

log = logging.getLogger(__name__)

RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529}


class OpenAIBackend(Backend):
    def __init__(
        self,
        name: str,
        model: str,
        base_url: str = "http://localhost:8000/v1",
        api_key_env: str | None = "OPENAI_API_KEY",
        max_concurrency: int = 16,
        max_retries: int = 6,
        timeout_s: float = 1800.0,
        backoff_base_s: float = 1.0,
        backoff_max_s: float = 60.0,
        max_tokens_field: str = "max_tokens",  # "max_completion_tokens" for OpenAI reasoning models
        budget_field: str | None = None,  # e.g. "thinking_token_budget" (vLLM server)
        send_seed: bool = True,
        extra_body: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        reasoning_format: str = "think",  # how reasoning shows in the content (extract.split_reasoning)
        **_: object,
    ) -> None:
        self.name = name
        self.reasoning_format = reasoning_format
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.api_key_env = api_key_env
        self.max_concurrency = max(1, int(max_concurrency))
        self.max_retries = int(max_retries)
        self.timeout_s = float(timeout_s)
        self.backoff_base_s = float(backoff_base_s)
        self.backoff_max_s = float(backoff_max_s)
        self.max_tokens_field = max_tokens_field
        self.budget_field = budget_field
        self.send_seed = send_seed
        self.extra_body = dict(extra_body or {})
        self.headers = dict(headers or {})
        self.sampling = SamplingSettings()

    # -- request building -------------------------------------------------------------------
    @classmethod
    def config_problems(cls, model: Any) -> list[str]:
        out = []
        if int(model.max_concurrency) < 1:
            out.append(f"model.max_concurrency: {model.max_concurrency!r}; expected at least 1")
        if not str(model.base_url).startswith(("http://", "https://")):
            out.append(f"model.base_url: {model.base_url!r}; expected an http:// or https:// URL")
        return out

    @classmethod
    def readiness_problems(cls, model: Any, cluster: Any, request: bool = True,
                           probed: dict | None = None) -> list[str]:
        """The API key's variable is set, and one request of one token succeeds
        (``model.preflight=false`` skips the request)."""
        key = None
        if model.get("api_key_env"):
            key = os.environ.get(model.api_key_env)
            if not key:
                return [f"model.api_key_env: the environment variable {model.api_key_env} (the API key for "
                        f"{model.base_url}) is not set; export it, or set model.api_key_env=null for a server "
                        "without a key"]
        if not (request and model.get("preflight", True)):
            return []
        memo = (str(model.base_url), str(model.get("model")), key)
        if probed is not None and memo in probed:
            problem = probed[memo]
        else:
            problem = probe_endpoint(model, key)
            if probed is not None:
                probed[memo] = problem
        return [problem] if problem else []

    def _api_key(self) -> str | None:
        if not self.api_key_env:
            return None
        key = os.environ.get(self.api_key_env)
        if key is None:
            log.warning("environment variable %s (the API key for %s) is not set", self.api_key_env, self.name)
        return key

    def body(self, messages: list[dict[str, str]], seed: int | None) -> dict[str, Any]:
        s = self.sampling
        body: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "temperature": s.temperature,
            "top_p": s.top_p,
            self.max_tokens_field: s.max_tokens,
        }
        if s.top_k is not None:
            body["top_k"] = s.top_k
        if self.send_seed and seed is not None:
            body["seed"] = seed
        if s.reasoning_effort:
            body["reasoning_effort"] = s.reasoning_effort
        if s.reasoning_budget and self.budget_field:
            body[self.budget_field] = s.reasoning_budget
        for key, value in self.extra_body.items():
            if isinstance(value, dict) and isinstance(body.get(key), dict):
                body[key] = {**body[key], **value}
            else:
                body[key] = value
        return body

    # -- one request with retries -----------------------------------------------------------
    async def _one(self, client: httpx.AsyncClient, sem: asyncio.Semaphore, req: GenerationRequest,
                   index: int) -> Completion:
        seed = req.sample_seed(index)
        body = self.body(req.messages, seed)
        prompt = json.dumps(req.messages, ensure_ascii=False)
        start = time.perf_counter()
        last_error = ""
        attempts = 0
        async with sem:
            for attempt in range(self.max_retries + 1):
                attempts = attempt + 1
                delay = min(self.backoff_max_s, self.backoff_base_s * 2**attempt) * (0.5 + random.random() / 2)
                try:
                    resp = await client.post("/chat/completions", json=body)
                except (httpx.TimeoutException, httpx.TransportError) as exc:
                    last_error = f"{type(exc).__name__}: {exc}"
                else:
                    if resp.status_code == 200:
                        try:
                            return self._parse(resp.json(), req, index, prompt, seed, start, attempts)
                        except (ValueError, KeyError, IndexError, TypeError) as exc:
                            last_error = f"malformed response: {exc}"
                    else:
                        last_error = f"HTTP {resp.status_code}: {resp.text[:300]}"
                        if resp.status_code not in RETRY_STATUS:
                            break  # 400/401/403/404...: retrying will not help
                        retry_after = resp.headers.get("retry-after")
                        if retry_after:
                            try:
                                delay = min(self.backoff_max_s, max(0.0, float(retry_after)))
                            except ValueError:
                                pass
                if attempt < self.max_retries:
                    log.info("%s: %s sample %d attempt %d failed (%s); retrying in %.1fs",
                             self.name, req.task_id, index, attempts, last_error, delay)
                    await asyncio.sleep(delay)
        log.warning("%s: %s sample %d failed after %d attempts: %s", self.name, req.task_id, index,
                    attempts, last_error)
        return Completion(task_id=req.task_id, sample_index=index, prompt=prompt, response="",
                          finish_reason="error", seed=seed, latency_s=time.perf_counter() - start,
                          error=last_error or "request failed", attempts=attempts)

    def _parse(self, data: dict, req: GenerationRequest, index: int, prompt: str, seed: int,
               start: float, attempts: int) -> Completion:
        choice = data["choices"][0]
        message = choice.get("message") or {}
        content = message.get("content") or ""
        reasoning = message.get("reasoning") or message.get("reasoning_content") or ""
        usage = data.get("usage") or {}
        details = usage.get("completion_tokens_details") or {}
        return Completion(
            task_id=req.task_id,
            sample_index=index,
            prompt=prompt,
            response=content,
            reasoning=reasoning,
            prompt_tokens=usage.get("prompt_tokens"),
            completion_tokens=usage.get("completion_tokens"),
            reasoning_tokens=details.get("reasoning_tokens"),
            finish_reason=choice.get("finish_reason") or "",
            seed=seed,
            latency_s=time.perf_counter() - start,
            attempts=attempts,
            extra={"response_model": data.get("model", "")},
        )

    # -- driving the loop -------------------------------------------------------------------
    async def _run_all(self, requests: list[GenerationRequest], out: "queue.Queue[object]") -> None:
        headers = dict(self.headers)
        key = self._api_key()
        if key:
            headers["Authorization"] = f"Bearer {key}"
        limits = httpx.Limits(max_connections=self.max_concurrency, max_keepalive_connections=self.max_concurrency)
        async with httpx.AsyncClient(base_url=self.base_url, headers=headers, limits=limits,
                                     timeout=httpx.Timeout(self.timeout_s, connect=30.0)) as client:
            sem = asyncio.Semaphore(self.max_concurrency)

            async def run(req: GenerationRequest, index: int) -> None:
                try:
                    out.put(await self._one(client, sem, req, index))
                except Exception as exc:  # never lose a sample, whatever went wrong
                    out.put(Completion(task_id=req.task_id, sample_index=index, prompt="", response="",
                                       finish_reason="error", seed=req.sample_seed(index),
                                       error=f"{type(exc).__name__}: {exc}"))

            await asyncio.gather(*(run(r, i) for r in requests for i in r.indices))

    def generate(self, requests: Iterable[GenerationRequest]) -> Iterator[Completion]:
        reqs = list(requests)
        total = sum(len(r.indices) for r in reqs)
        if not total:
            return
        out: queue.Queue[object] = queue.Queue()
        done = object()

        def worker() -> None:
            try:
                asyncio.run(self._run_all(reqs, out))
            except BaseException as exc:  # surfaced to the consumer below
                out.put(exc)
            finally:
                out.put(done)

        thread = threading.Thread(target=worker, name=f"ibench-openai-{self.name}", daemon=True)
        thread.start()
        while True:
            item = out.get()
            if item is done:
                break
            if isinstance(item, BaseException):
                raise item
            yield item  # type: ignore[misc]
        thread.join()

    def identity(self) -> dict:
        # The endpoint's address is left out: the same model served elsewhere is the same model.
        return {**super().identity(), "model": self.model, "extra_body": self.extra_body,
                "budget_field": self.budget_field, "max_tokens_field": self.max_tokens_field}


def probe_endpoint(model: Any, key: str | None, timeout_s: float = 30.0) -> str | None:
    """One chat-completion request of one token to the model config's endpoint; a message naming
    the URL and the HTTP status when it fails, None when it succeeds."""
    url = str(model.base_url).rstrip("/") + "/chat/completions"
    headers = {"Content-Type": "application/json", **plain_mapping(model.get("headers"))}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    body: dict[str, Any] = {"model": model.model, "messages": [{"role": "user", "content": "Reply with OK."}],
                            str(model.get("max_tokens_field") or "max_tokens"): 1, "temperature": 0.0}
    if model.get("send_seed", True):
        body["seed"] = 0
    body.update(plain_mapping(model.get("extra_body")))
    hint = "; model.preflight=false skips this check"
    try:
        with httpx.Client(timeout=timeout_s) as client:
            r = client.post(url, json=body, headers=headers)
    except httpx.HTTPError as exc:
        return f"model.base_url: POST {url} failed: {type(exc).__name__}: {exc}{hint}"
    if r.status_code >= 400:
        text = r.text.strip().replace("\n", " ")[:300]
        return f"model: POST {url} answered HTTP {r.status_code} {r.reason_phrase}: {text}{hint}"
    try:
        r.json()["choices"]
    except (ValueError, KeyError, TypeError):
        return f"model: POST {url} answered HTTP {r.status_code} without a chat completion{hint}"
    return None
