"""The checks a launch passes before anything starts: no Ray, no W&B, no run folder yet.

Every setting is checked and every problem is named in one :class:`ConfigError` (the launch
prints it and exits 2): sampling, bench filters and language, judge settings, pipeline and
metrics numbers, the tasks themselves; then the model: for an OpenAI-compatible endpoint the
API key's variable is set and one small request succeeds (``model.preflight=false`` skips the
request), for vLLM one replica's GPUs exist.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from typing import Any

from omegaconf import DictConfig, OmegaConf

from ibench.tasks.model import CATEGORIES, DIFFICULTIES

WANDB_MODES = ("auto", "online", "offline", "disabled")


class ConfigError(ValueError):
    """A setting that cannot work; raised before anything starts."""


@dataclass
class Checked:
    """What the preflight built on the way (so the launch does not build it twice)."""

    judge: Any  # JudgeSettings
    tasks: list
    prompt: Any = None  # PromptTemplate, few-shot examples bound


def _kind(cfg: DictConfig) -> str:
    target = str(cfg.model.get("_target_", ""))
    if target.endswith("OpenAIBackend"):
        return "openai"
    if target.endswith("VLLMBackend"):
        return "vllm"
    if target.endswith("ReferenceBackend"):
        return "reference"
    return "other"


def setting_problems(cfg: DictConfig) -> list[str]:
    """Every problem with the settings themselves (no I/O beyond the tasks folder's existence)."""
    out: list[str] = []
    s = cfg.sampling
    if s.n is None or int(s.n) < 1:
        out.append(f"sampling.n: {s.n!r}; expected at least 1 sample per task")
    if s.temperature is None or float(s.temperature) < 0:
        out.append(f"sampling.temperature: {s.temperature!r}; expected zero or more")
    if s.top_p is None or not 0 < float(s.top_p) <= 1:
        out.append(f"sampling.top_p: {s.top_p!r}; expected a number in (0, 1]")
    if s.top_k is not None and int(s.top_k) < 1 and int(s.top_k) != -1:
        out.append(f"sampling.top_k: {s.top_k!r}; expected at least 1 (or -1 / null for no limit)")
    if s.max_tokens is None or int(s.max_tokens) < 1:
        out.append(f"sampling.max_tokens: {s.max_tokens!r}; expected at least 1")
    if s.reasoning_budget is not None and int(s.reasoning_budget) < 0:
        out.append(f"sampling.reasoning_budget: {s.reasoning_budget!r}; expected zero or more, or null")
    if s.reasoning_effort is not None and s.reasoning_effort not in ("low", "medium", "high"):
        out.append(f"sampling.reasoning_effort: {s.reasoning_effort!r}; expected low, medium, high or null")
    if int(s.get("refine_rounds", 1)) < 1:
        out.append(f"sampling.refine_rounds: {s.refine_rounds!r}; expected 1 (no refinement) or more rounds in all, "
                   "the first attempt included")
    if "feedback" in cfg and int(s.get("refine_rounds", 1)) > 1:
        from omegaconf import OmegaConf

        out += OmegaConf.to_object(cfg.feedback).problems()

    b = cfg.bench
    if b.difficulties is not None:
        bad = [d for d in b.difficulties if str(d).capitalize() not in DIFFICULTIES]
        if bad:
            out.append(f"bench.difficulties: unknown {', '.join(map(repr, bad))}; expected any of {', '.join(DIFFICULTIES)}")
    if b.categories is not None:
        known = {c.lower() for c in CATEGORIES}
        bad = [c for c in b.categories if str(c).lower() not in known]
        if bad:
            out.append(f"bench.categories: unknown {', '.join(map(repr, bad))}; expected any of {', '.join(CATEGORIES)}")
    variant = b.get("variant", "interactive")
    if variant not in ("interactive", "batch"):
        out.append(f"bench.variant: {variant!r}; expected interactive (the tasks as stated) or batch "
                   "(InteractBench C.1: each stdio-interactive task's hidden case on stdin first)")
    if b.limit is not None and int(b.limit) < 1:
        out.append(f"bench.limit: {b.limit!r}; expected at least 1 task, or null for all")
    for name in ("non_adaptive_cases", "adaptive_cases"):
        v = b.get(name)
        if v is not None and int(v) < 0:
            out.append(f"bench.{name}: {v!r}; expected a count of cases (0 or more) or null for all")

    p = cfg.pipeline
    if not float(p.judge_cpus) > 0:
        out.append(f"pipeline.judge_cpus: {p.judge_cpus!r}; expected a positive number")
    for name in ("max_inflight", "task_retries", "rejudge_se"):
        if int(p[name]) < 0:
            out.append(f"pipeline.{name}: {p[name]!r}; expected zero or more")
    if int(p.flush_rows) < 1:
        out.append(f"pipeline.flush_rows: {p.flush_rows!r}; expected at least 1")
    if float(p.log_every_s) < 0:
        out.append(f"pipeline.log_every_s: {p.log_every_s!r}; expected zero (never) or more seconds")

    m = cfg.metrics
    if not m.ks or any(int(k) < 1 for k in m.ks):
        out.append(f"metrics.ks: {list(m.ks) if m.ks else m.ks!r}; expected one or more k of at least 1")
    if int(m.bootstrap) < 0:
        out.append(f"metrics.bootstrap: {m.bootstrap!r}; expected zero (no CI) or more resamples")
    if not 0 < float(m.confidence) < 1:
        out.append(f"metrics.confidence: {m.confidence!r}; expected a number in (0, 1)")

    if cfg.wandb.mode not in WANDB_MODES:
        out.append(f"wandb.mode: {cfg.wandb.mode!r}; expected one of {', '.join(WANDB_MODES)}")

    kind = _kind(cfg)
    mc = cfg.model
    if kind == "openai":
        if int(mc.max_concurrency) < 1:
            out.append(f"model.max_concurrency: {mc.max_concurrency!r}; expected at least 1")
        if not str(mc.base_url).startswith(("http://", "https://")):
            out.append(f"model.base_url: {mc.base_url!r}; expected an http:// or https:// URL")
    if kind == "vllm":
        for name in ("tensor_parallel_size", "replicas"):
            if int(mc[name]) < 1:
                out.append(f"model.{name}: {mc[name]!r}; expected at least 1")
    return out


def gpus_available(cfg: DictConfig) -> tuple[float | None, str]:
    """(GPUs this launch can use, where the figure comes from); None when it cannot be known
    before the cluster starts (a Ray cluster joined by address)."""
    c = cfg.cluster
    if c.get("address"):
        return None, f"the Ray cluster at {c.address}"
    if c.get("num_gpus") is not None:
        return float(c.num_gpus), "cluster.num_gpus"
    try:
        import ray

        if ray.is_initialized():
            return float(ray.cluster_resources().get("GPU", 0.0)), "the running Ray instance"
    except ImportError:
        pass
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        ids = [v for v in visible.split(",") if v.strip() and v.strip() != "-1"]
        return float(len(ids)), "CUDA_VISIBLE_DEVICES"
    smi = shutil.which("nvidia-smi")
    if smi:
        try:
            out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=20).stdout
            return float(sum(1 for line in out.splitlines() if line.startswith("GPU "))), "nvidia-smi -L"
        except (OSError, subprocess.SubprocessError):
            pass
    return 0.0, "this machine (no nvidia-smi)"


def model_problems(cfg: DictConfig, request: bool = True) -> list[str]:
    """The model can run: an API key and a reachable endpoint, or enough GPUs for one replica."""
    kind = _kind(cfg)
    mc = cfg.model
    out: list[str] = []
    if kind == "openai":
        key = None
        if mc.get("api_key_env"):
            key = os.environ.get(mc.api_key_env)
            if not key:
                out.append(f"model.api_key_env: the environment variable {mc.api_key_env} (the API key for "
                           f"{mc.base_url}) is not set; export it, or set model.api_key_env=null for a server "
                           "without a key")
                return out
        if request and mc.get("preflight", True):
            problem = probe_endpoint(mc, key)
            if problem:
                out.append(problem)
    elif kind == "vllm":
        tp = int(mc.tensor_parallel_size)
        need = tp * float(mc.get("gpus_per_bundle", 1.0))
        have, where = gpus_available(cfg)
        if have is not None and need > 0 and have < need:
            out.append(f"model.tensor_parallel_size: one replica of {mc.name} needs {need:g} GPU(s) "
                       f"(tensor_parallel_size={tp}) but {where} has {have:g}; run it on GPU nodes "
                       "(cluster=slurm), or choose model=reference or an OpenAI-compatible server")
    return out


def _plain(node: Any) -> dict:
    if node is None:
        return {}
    if OmegaConf.is_config(node):
        return dict(OmegaConf.to_container(node, resolve=True))  # type: ignore[arg-type]
    return dict(node)


def probe_endpoint(mc: DictConfig, key: str | None, timeout_s: float = 30.0) -> str | None:
    """One chat-completion request of one token; a message naming the URL and the HTTP status
    when it fails, None when it succeeds."""
    import httpx

    url = str(mc.base_url).rstrip("/") + "/chat/completions"
    headers = {"Content-Type": "application/json", **_plain(mc.get("headers"))}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    body: dict[str, Any] = {"model": mc.model, "messages": [{"role": "user", "content": "Reply with OK."}],
                            str(mc.get("max_tokens_field") or "max_tokens"): 1, "temperature": 0.0}
    if mc.get("send_seed", True):
        body["seed"] = 0
    body.update(_plain(mc.get("extra_body")))
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


def preflight(cfg: DictConfig, request: bool = True) -> Checked:
    """Check everything; raise one :class:`ConfigError` naming every problem, or return what
    was built (judge settings with the case pools applied; the selected tasks)."""
    from ibench.judge.executors import executor_class
    from ibench.judge.settings import JudgeSettings
    from ibench.tasks.errors import TaskError

    problems = setting_problems(cfg)
    judge = None
    try:
        judge = OmegaConf.to_object(cfg.judge)
        assert isinstance(judge, JudgeSettings)
        if cfg.bench.non_adaptive_cases is not None:
            judge.non_adaptive_cases = int(cfg.bench.non_adaptive_cases)
        if cfg.bench.adaptive_cases is not None:
            judge.adaptive_cases = int(cfg.bench.adaptive_cases)
        # bench.variant is checked above, under its own name (judge.variant follows it)
        problems += [p for p in judge.problems() if not p.startswith("judge.variant:")]
    except Exception as exc:  # noqa: BLE001 - a judge setting of the wrong type
        problems.append(f"judge: {exc}")
    try:
        # One spelling from here on: prompts, code extraction and the reference model key on it.
        cfg.bench.language = executor_class(cfg.bench.language).language
    except ValueError as e:
        problems.append(f"bench.language: {e}")

    tasks: list = []
    filters_ok = not any(p.startswith(("bench.difficulties", "bench.categories", "bench.language"))
                         for p in problems)
    if filters_ok:
        try:
            from ibench.launch import load_bench

            tasks = load_bench(cfg)
        except TaskError as e:
            problems.append(f"bench.tasks_dir: {e}")
        except SystemExit as e:  # no task selected
            problems.append(f"bench: {e}")
    prompt = None
    if not any(p.startswith("bench.language") for p in problems):
        prompt, more = prompt_problems(cfg, tasks)
        problems += more
    # The key's variable and the GPUs always; the request only when everything else is right.
    problems += model_problems(cfg, request=request and not problems)
    if problems:
        raise ConfigError("invalid settings:\n  " + "\n  ".join(problems))
    return Checked(judge, tasks, prompt)


def prompt_problems(cfg: DictConfig, tasks: list) -> tuple[Any, list[str]]:
    """(the prompt with its few-shot example pool bound, problems): an I/O template for the
    language, and a solved example for every selected task."""
    from ibench.generate.prompt import PromptError, PromptTemplate
    from ibench.tasks.errors import TaskError

    try:
        prompt = OmegaConf.to_object(cfg.prompt)
    except Exception as exc:  # noqa: BLE001 - a prompt setting of the wrong type
        return None, [f"prompt: {exc}"]
    assert isinstance(prompt, PromptTemplate)
    language = str(cfg.bench.language)
    out = [p for p in prompt.problems(language) if not p.startswith("bench.variant:")]  # reported once, above
    if out or prompt.examples <= 0:
        return prompt, out
    pool_dir = prompt.example_pool or str(cfg.bench.tasks_dir)
    try:
        prompt.bind_examples(example_pool(pool_dir))
    except TaskError as e:
        return prompt, [f"prompt.example_pool: {e}"]
    missing = []
    for t in tasks:
        try:
            prompt.example_for(t, language)
        except PromptError:
            missing.append(t.problem_id)
    if missing:
        out.append(f"prompt.examples: prompt={prompt.name} shows each task a solved example of another task, but "
                   f"no other task in {pool_dir} has an accepted {language} solution of the same kind for: "
                   f"{', '.join(missing)}; set prompt.example_pool to a folder of tasks that has one")
    return prompt, out


def example_pool(root: str) -> list:
    """The tasks of ``root`` that load cleanly (a broken one is never shown as an example; the
    selected tasks themselves are checked strictly elsewhere)."""
    from ibench.tasks.load import inspect_tasks

    return [r.task for r in inspect_tasks(root) if r.ok and r.task is not None]
