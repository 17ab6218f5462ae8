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

from ibench.run.spec import Problem, RunSpec

WANDB_MODES = ("auto", "online", "offline", "disabled")


class ConfigError(ValueError):
    """A setting that cannot work; raised before anything starts."""


@dataclass(frozen=True)
class Checked:
    """What the preflight built on the way (so the launch does not build it twice)."""

    spec: RunSpec  # few-shot examples bound to its prompt
    tasks: list


def _kind(cfg: DictConfig) -> str:
    target = str(cfg.model.get("_target_", ""))
    if target.endswith("OpenAIBackend"):
        return "openai"
    if target.endswith("VLLMBackend"):
        return "vllm"
    if target.endswith("ReferenceBackend"):
        return "reference"
    return "other"


def setting_problems(cfg: DictConfig) -> list[Problem]:
    """How the run executes and reports: pipeline, metrics, W&B and the model's own numbers (what
    it measures is the spec's to check, :meth:`~ibench.run.spec.RunSpec.problems`)."""
    out: list[Problem] = []
    p = cfg.pipeline
    if not float(p.judge_cpus) > 0:
        out.append(Problem("pipeline.judge_cpus", f"{p.judge_cpus!r}; expected a positive number"))
    for name in ("max_inflight", "task_retries", "rejudge_se"):
        if int(p[name]) < 0:
            out.append(Problem(f"pipeline.{name}", f"{p[name]!r}; expected zero or more"))
    if int(p.flush_rows) < 1:
        out.append(Problem("pipeline.flush_rows", f"{p.flush_rows!r}; expected at least 1"))
    if float(p.log_every_s) < 0:
        out.append(Problem("pipeline.log_every_s", f"{p.log_every_s!r}; expected zero (never) or more seconds"))

    m = cfg.metrics
    if not m.ks or any(int(k) < 1 for k in m.ks):
        out.append(Problem("metrics.ks", f"{list(m.ks) if m.ks else m.ks!r}; expected one or more k of at least 1"))
    if int(m.bootstrap) < 0:
        out.append(Problem("metrics.bootstrap", f"{m.bootstrap!r}; expected zero (no CI) or more resamples"))
    if not 0 < float(m.confidence) < 1:
        out.append(Problem("metrics.confidence", f"{m.confidence!r}; expected a number in (0, 1)"))

    if cfg.wandb.mode not in WANDB_MODES:
        out.append(Problem("wandb.mode", f"{cfg.wandb.mode!r}; expected one of {', '.join(WANDB_MODES)}"))

    kind = _kind(cfg)
    mc = cfg.model
    if kind == "openai":
        if int(mc.max_concurrency) < 1:
            out.append(Problem("model.max_concurrency", f"{mc.max_concurrency!r}; expected at least 1"))
        if not str(mc.base_url).startswith(("http://", "https://")):
            out.append(Problem("model.base_url", f"{mc.base_url!r}; expected an http:// or https:// URL"))
    if kind == "vllm":
        for name in ("tensor_parallel_size", "pipeline_parallel_size", "replicas"):
            if int(mc.get(name, 1)) < 1:
                out.append(Problem(f"model.{name}", f"{mc[name]!r}; expected at least 1"))
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


def model_problems(cfg: DictConfig, request: bool = True, probed: dict | None = None) -> list[str]:
    """The model can run: an API key and a reachable endpoint, or enough GPUs for one replica.
    ``probed`` remembers each endpoint's answer (the jobs of a sweep ask once)."""
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
            memo = (str(mc.base_url), str(mc.get("model")), key)
            if probed is not None and memo in probed:
                problem = probed[memo]
            else:
                problem = probe_endpoint(mc, key)
                if probed is not None:
                    probed[memo] = problem
            if problem:
                out.append(problem)
    elif kind == "vllm":
        out += vllm_problems(cfg)
    return out


def vllm_problems(cfg: DictConfig) -> list[str]:
    """The weights are on this node, and the GPUs hold the replica: in a Slurm job, the GPUs it
    asked for divide as TP × PP (:func:`ibench.generate.vllm_layout.layout_problems`); elsewhere
    this machine has one replica's GPUs."""
    from ibench.generate.vllm_layout import Layout, layout_problems, slurm_gpus, weights_problem

    mc = cfg.model
    out: list[str] = []
    if str(mc.get("engine_module", "vllm")) == "vllm":  # a stand-in engine (tests) loads no weights
        problem = weights_problem(str(mc.model), _plain(mc.get("engine_kwargs")))
        if problem:
            out.append(problem)
    tp, pp = int(mc.tensor_parallel_size), int(mc.get("pipeline_parallel_size", 1))
    layout = Layout(tp, pp, float(mc.get("gpus_per_bundle", 1.0)))
    if tp < 1 or pp < 1 or layout.gpus_per_replica <= 0:
        return out
    job = slurm_gpus() if str(cfg.cluster.get("_target_", "")).endswith("SlurmCluster") else None
    if job is not None:
        return out + layout_problems(layout, *job, name=str(mc.name))
    need = layout.gpus_per_replica
    have, where = gpus_available(cfg)
    if have is not None and have < need:
        out.append(f"model.tensor_parallel_size: one replica of {mc.name} needs {need:g} GPU(s) "
                   f"(tensor_parallel_size={tp} × pipeline_parallel_size={pp}) but {where} has {have:g}; run it on "
                   "GPU nodes (cluster=slurm), or choose model=reference or an OpenAI-compatible server")
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


def preflight(cfg: DictConfig, request: bool = True, model: bool = True, probed: dict | None = None,
              tasks_cache: dict | None = None) -> Checked:
    """Check everything; raise one :class:`ConfigError` naming every problem, or return what
    was built (the run's spec; the selected tasks). ``model=False`` leaves the model's GPUs and
    endpoint to the machine the run goes to (a Slurm launcher)."""
    from ibench.run.selection import NoTasks
    from ibench.tasks.errors import TaskError

    spec, problems = RunSpec.from_config(cfg)
    problems += setting_problems(cfg)
    bad = {p.field for p in problems}
    tasks: list = []
    if spec is not None and not bad & {"bench.difficulties", "bench.categories", "bench.language"}:
        unknown = task_id_problems(cfg)
        problems += unknown
        try:
            if not unknown:
                tasks = _load(spec, tasks_cache)
        except TaskError as e:
            problems.append(Problem("bench.tasks_dir", str(e)))
        except NoTasks as e:
            problems.append(Problem("bench", str(e)))
    if spec is not None and "bench.language" not in bad:
        problems += example_problems(spec, tasks)
    # The key's variable and the GPUs always; the request only when everything else is right.
    if model:
        problems += [Problem.parse(p) for p in model_problems(cfg, request=request and not problems, probed=probed)]
    if problems or spec is None:
        raise ConfigError("invalid settings:\n  " + "\n  ".join(map(str, problems)))
    return Checked(spec, tasks)


def _load(spec: RunSpec, cache: dict | None) -> list:
    from ibench.run.selection import select_tasks

    key = (spec.tasks, spec.language, spec.variant)
    if cache is not None and key in cache:  # the jobs of a sweep: one load per selection
        return cache[key]
    tasks = select_tasks(spec)
    if cache is not None:
        cache[key] = tasks
    return tasks


def task_id_problems(cfg: DictConfig) -> list[Problem]:
    """``bench.ids`` names task folders of ``bench.tasks_dir``: one line per unknown id, with the
    nearest ids (the loader's own message lists every id on one line)."""
    from pathlib import Path

    from ibench.tasks.load import find_task_dirs

    b = cfg.bench
    root = Path(str(b.tasks_dir))
    if b.ids is None or not root.exists():
        return []  # no filter; a missing folder is the loader's to report
    try:
        known = sorted(d.name for d in find_task_dirs(root))
    except Exception:  # noqa: BLE001 - the loader reports it
        return []
    out = []
    for i in dict.fromkeys(str(x) for x in b.ids):
        if i not in known:
            out.append(Problem("bench.ids", f"unknown task id {i!r}{did_you_mean(i, known)} ({len(known)} task(s) in "
                               f"{root}; `python -m ibench.tasks check {root}` lists them)"))
    return out


def example_problems(spec: RunSpec, tasks: list) -> list[Problem]:
    """A few-shot prompt has a solved example for every selected task (its example pool is bound
    to the spec's prompt here)."""
    from ibench.generate.prompt import PromptError
    from ibench.tasks.errors import TaskError

    prompt, language = spec.prompt, spec.language
    if prompt.examples <= 0 or prompt.problems(language):  # those are the spec's to report
        return []
    pool_dir = prompt.example_pool or spec.tasks.tasks_dir
    try:
        prompt.bind_examples(example_pool(pool_dir))
    except TaskError as e:
        return [Problem("prompt.example_pool", str(e))]
    missing = []
    for t in tasks:
        try:
            prompt.example_for(t, language)
        except PromptError:
            missing.append(t.task_id)
    if missing:
        return [Problem("prompt.examples", f"prompt={prompt.name} shows each task a solved example of another task, "
                        f"but no other task in {pool_dir} has an accepted {language} solution of the same kind for: "
                        f"{', '.join(missing)}; set prompt.example_pool to a folder of tasks that has one")]
    return []


def example_pool(root: str) -> list:
    """The tasks of ``root`` that load cleanly (a broken one is never shown as an example; the
    selected tasks themselves are checked strictly elsewhere)."""
    from ibench.tasks.load import inspect_tasks

    return [r.task for r in inspect_tasks(root) if r.ok and r.task is not None]


def did_you_mean(word: str, options: Any, n: int = 3, prefix: str = "") -> str:
    """``; did you mean X?`` with the nearest of ``options`` (difflib), or ``""``."""
    import difflib

    close = difflib.get_close_matches(str(word), [str(o) for o in options], n=n, cutoff=0.6)
    return f"; did you mean {' or '.join(prefix + c for c in close)}?" if close else ""
