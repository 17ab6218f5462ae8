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


def preflight(cfg: DictConfig, request: bool = True, model: bool = True, probed: dict | None = None,
              tasks_cache: dict | None = None) -> Checked:
    """Check everything; raise one :class:`ConfigError` naming every problem, or return what
    was built (judge settings with the case pools applied; the selected tasks). ``model=False``
    leaves the model's GPUs and endpoint to the machine the run goes to (a Slurm launcher)."""
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
        problems += task_id_problems(cfg)
        filters_ok = not any(p.startswith("bench.ids") for p in problems)
    if filters_ok:
        try:
            from ibench.launch import load_bench

            b = cfg.bench
            key = tuple(str(OmegaConf.to_container(b, resolve=True).get(k)) for k in
                        ("tasks_dir", "ids", "difficulties", "categories", "limit", "language", "variant"))
            if tasks_cache is not None and key in tasks_cache:  # the jobs of a sweep: one load per selection
                tasks = tasks_cache[key]
            else:
                tasks = load_bench(cfg)
                if tasks_cache is not None:
                    tasks_cache[key] = tasks
        except TaskError as e:
            problems.append(f"bench.tasks_dir: {e}")
        except SystemExit as e:  # no task selected
            problems.append(f"bench: {e}")
    prompt = None
    if not any(p.startswith("bench.language") for p in problems):
        prompt, more = prompt_problems(cfg, tasks)
        problems += more
    # The key's variable and the GPUs always; the request only when everything else is right.
    if model:
        problems += model_problems(cfg, request=request and not problems, probed=probed)
    if problems:
        raise ConfigError("invalid settings:\n  " + "\n  ".join(problems))
    return Checked(judge, tasks, prompt)


def task_id_problems(cfg: DictConfig) -> list[str]:
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
            out.append(f"bench.ids: unknown task id {i!r}{did_you_mean(i, known)} ({len(known)} task(s) in {root}; "
                       f"`python -m ibench.tasks check {root}` lists them)")
    return out


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


# -- the command line, checked before Hydra runs it (ibench.launch.cli) ------------------------------
# Hydra's own messages for a bad override (an unknown key with advice to add it with `+`, a value
# of the wrong type, an unknown config name with 20 lines of search path) exit 1; these checks
# find the same problems first and say them as ibench does: the field, what was expected, and
# the nearest valid names. Every job of a multirun is composed and preflighted before any runs.

# Settings a resume may change: they change where or how a run executes, or what its report
# shows, never a sample or a verdict (patterns: a key, or a prefix ending in `.`).
RESUME_ALLOWED = ("resume", "print_config", "paths.output_dir", "cluster", "cluster.", "wandb", "wandb.",
                  "pipeline.", "metrics.", "report.", "sampling.refine_rounds", "model.replicas", "model.max_concurrency",
                  "model.base_url", "model.preflight", "model.api_key_env", "model.max_retries", "model.timeout_s",
                  "model.backoff_base_s", "model.backoff_max_s", "model.placement_timeout_s", "model.max_restarts",
                  "model.max_task_retries", "model.calls_in_flight", "model.tasks_per_call", "hydra.", "hydra/")
# Groups whose choice is part of what a run measures (a resume keeps the folder's).
IDENTITY_GROUPS = ("model", "sampling", "prompt", "feedback", "judge", "bench")


def resume_allowed(key: str) -> bool:
    return any(key == p or (p.endswith((".", "/")) and key.startswith(p)) for p in RESUME_ALLOWED)


def did_you_mean(word: str, options: Any, n: int = 3, prefix: str = "") -> str:
    """``; did you mean X?`` with the nearest of ``options`` (difflib), or ``""``."""
    import difflib

    close = difflib.get_close_matches(str(word), [str(o) for o in options], n=n, cutoff=0.6)
    return f"; did you mean {' or '.join(prefix + c for c in close)}?" if close else ""


def _listing(options: list[str], limit: int = 14) -> str:
    shown = ", ".join(options[:limit])
    return shown + (f", … ({len(options)} in all)" if len(options) > limit else "")


_TYPE_WORDS = {"Integer": "a whole number", "Float": "a number", "Boolean": "true or false", "String": "text",
               "int": "a whole number", "float": "a number", "bool": "true or false", "str": "text"}


class CommandLine:
    """Compose and check the jobs of one command line with Hydra's compose API (no job runs)."""

    def __init__(self) -> None:
        from hydra.core.global_hydra import GlobalHydra

        from ibench import config as _config  # noqa: F401 - registers the schema

        self._ctx = None
        if not GlobalHydra.instance().is_initialized():
            from hydra import initialize_config_dir

            self._ctx = initialize_config_dir(config_dir=str(_config.CONF_DIR), version_base="1.3", job_name="ibench")
            self._ctx.__enter__()
        self.loader = GlobalHydra.instance().config_loader()
        self._groups: dict[str, list[str]] = {}
        self._bases: dict[tuple, DictConfig] = {}

    def close(self) -> None:
        if self._ctx is not None:
            self._ctx.__exit__(None, None, None)
            self._ctx = None

    def __enter__(self) -> "CommandLine":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- names --------------------------------------------------------------------------------
    def group_options(self, group: str) -> list[str] | None:
        """The options of a config group (``model``, ``hydra/launcher``), or None: not a group."""
        if group not in self._groups:
            parent, _, _ = group.rpartition("/")
            if group.split("/")[-1] not in self.loader.list_groups(parent):
                return None
            self._groups[group] = sorted(self.loader.get_group_options(group))
        return self._groups[group]

    def groups(self) -> list[str]:
        return sorted(g for g in self.loader.list_groups("") if g != "hydra")

    def compose(self, overrides: list[str]) -> DictConfig:
        from hydra import compose

        return compose("config", overrides=list(overrides))

    # -- one job --------------------------------------------------------------------------------
    def check_overrides(self, overrides: list[str]) -> tuple[DictConfig | None, list[str]]:
        """(the composed config, or None when it cannot be; one problem per bad override)."""
        import copy

        from hydra.core.override_parser.overrides_parser import OverridesParser
        from hydra.errors import HydraException

        parser = OverridesParser.create()
        problems: list[str] = []
        groups_ok: list[str] = []
        values: list[Any] = []
        for text in overrides:
            try:
                o = parser.parse_override(text)
            except HydraException as exc:
                problems.append(f"{text}: not a setting Hydra can read ({str(exc).splitlines()[0]}); "
                                "write key=value, and quote a value holding = , [ ] or spaces")
                continue
            key = o.key_or_group
            if o.is_sweep_override():
                problems.append(f"{text}: several values run a sweep, one run each: add -m (--multirun); "
                                f"a list value is written {key}=[a,b]")
                continue
            opts = self.group_options(key)
            if opts is not None and not o.is_delete():
                value = str(o.value())
                if value not in opts:
                    shown = [x for x in opts if not x.startswith("base_")]
                    where = "conf/" + key + "/" if not key.startswith("hydra/") else key
                    problems.append(f"{key}={value}: no such {key} config{did_you_mean(value, shown)} "
                                    f"(the {key} configs in {where}: {_listing(shown)})")
                else:
                    groups_ok.append(text)
                continue
            values.append(o)
        if problems and not groups_ok and not values:
            return None, problems
        chosen = tuple(g for g in groups_ok if not g.startswith("hydra"))
        if chosen not in self._bases:  # the jobs of a sweep share their group choices' composition
            try:
                self._bases[chosen] = self.compose(list(chosen))
            except HydraException as exc:
                return None, problems + [_first_lines(exc)]
        cfg = copy.deepcopy(self._bases[chosen])
        for o in values:
            key = o.key_or_group
            if key.startswith("hydra.") or key == "hydra":
                continue
            if o.is_delete():
                continue
            try:
                value = o.value()
                if o.is_add() and _node(cfg, key) is not None:
                    problems.append(f"{text}: {key} exists already; write {key}=... without the +")
                    continue
                if o.is_add() or o.is_force_add():
                    from omegaconf import open_dict

                    with open_dict(cfg):
                        OmegaConf.update(cfg, key, value, merge=True, force_add=o.is_force_add())
                else:
                    OmegaConf.update(cfg, key, value, merge=True)
            except Exception as exc:  # noqa: BLE001 - worded below
                problems.append(self._value_problem(cfg, o, exc))
        if problems:
            return None, problems
        hydra_keys = [t for t in overrides if t.startswith(("hydra.", "hydra/"))]
        if hydra_keys:  # Hydra's own settings: checked by composing them with Hydra's config
            from hydra import compose

            try:
                compose("config", overrides=list(chosen) + hydra_keys, return_hydra_config=True)
            except Exception as exc:  # noqa: BLE001 - worded as one line
                return None, [f"{' '.join(hydra_keys)}: {_first_lines(exc)}"]
        if not any(o.is_delete() for o in values):
            return cfg, []  # what Hydra composes: the group choices, then each value merged in order
        try:  # deletions: Hydra's own composition
            return self.compose([t for t in overrides if not t.startswith(("hydra.", "hydra/"))]), []
        except HydraException as exc:
            return None, [_first_lines(exc)]

    def _value_problem(self, cfg: DictConfig, o: Any, exc: Exception) -> str:
        from omegaconf.errors import ConfigAttributeError, ConfigKeyError

        key = o.key_or_group
        text = o.input_line or f"{key}={o.value()}"
        if isinstance(exc, (ConfigKeyError, ConfigAttributeError)):
            parent_key, _, leaf = key.rpartition(".")
            parent = OmegaConf.select(cfg, parent_key, throw_on_resolution_failure=False) if parent_key else cfg
            if OmegaConf.is_dict(parent):
                siblings = [str(k) for k in parent.keys()]
                where = parent_key or "the top level"
                hint = did_you_mean(leaf, siblings, prefix=f"{parent_key}." if parent_key else "")
                if hint:
                    return f"{key}: no such setting{hint}"
                return (f"{key}: no such setting; the settings of {where}: {_listing(siblings)} "
                        f"(`python -m ibench.launch print_config=true` prints them all)")
            flat = _flat_keys(cfg)
            return (f"{key}: no such setting{did_you_mean(key, flat) or ''} "
                    f"(`python -m ibench.launch print_config=true` prints them all)")
        node = _node(cfg, key)
        expected = None
        if node is not None:
            ref = getattr(getattr(node, "_metadata", None), "ref_type", None)
            name = getattr(ref, "__name__", None) if ref is not None else None
            expected = _TYPE_WORDS.get(str(name)) if name else None
            if expected and getattr(node._metadata, "optional", False):
                expected += " or null"
            if expected is None and OmegaConf.is_list(node):
                expected = f"a list, e.g. {key}=[a,b]"
        if expected is None:
            import re

            m = re.search(r"could not be converted to (\w+)", str(exc))
            expected = _TYPE_WORDS.get(m.group(1), m.group(1)) if m else str(exc).splitlines()[0]
        return f"{key}: {o.value()!r}; expected {expected} ({text})"


def _first_lines(exc: BaseException) -> str:
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()][:2]
    cause = exc.__cause__
    if cause is not None and str(cause).strip():
        lines.append(str(cause).strip().splitlines()[0])
    return "; ".join(lines) if lines else type(exc).__name__


def _node(cfg: DictConfig, key: str) -> Any:
    node: Any = cfg
    for part in key.split("."):
        try:
            node = node._get_node(part)
        except Exception:  # noqa: BLE001
            return None
        if node is None:
            return None
    return node


def _flat_keys(cfg: Any, prefix: str = "", depth: int = 3) -> list[str]:
    out: list[str] = []
    if depth <= 0 or not OmegaConf.is_dict(cfg):
        return out
    for k in cfg.keys():
        full = f"{prefix}{k}"
        out.append(full)
        try:
            child = cfg._get_node(k)
        except Exception:  # noqa: BLE001
            continue
        if OmegaConf.is_dict(child):
            out += _flat_keys(child, full + ".", depth - 1)
    return out


# -- resume=PATH: the folder's settings are the run's -------------------------------------------------
def folder_settings(run_dir: Any) -> tuple[dict, dict[str, str]]:
    """(the config a run folder was made with, its config-group choices): ``.hydra/config.yaml``
    and ``.hydra/hydra.yaml`` (written by every launch that passed the preflight), else
    ``config.resolved.yaml`` with the choices read from the names it records."""
    from pathlib import Path

    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise ConfigError(f"invalid settings:\n  resume: {run_dir}: not a folder (resume=PATH continues an existing "
                          "run folder)")
    hydra_cfg, hydra_yaml = run_dir / ".hydra" / "config.yaml", run_dir / ".hydra" / "hydra.yaml"
    resolved = run_dir / "config.resolved.yaml"
    if hydra_cfg.is_file():
        saved = OmegaConf.to_container(OmegaConf.load(hydra_cfg), resolve=False)
    elif resolved.is_file():
        saved = OmegaConf.to_container(OmegaConf.load(resolved), resolve=False)
    else:
        raise ConfigError(f"invalid settings:\n  resume: {run_dir}: no .hydra/config.yaml or config.resolved.yaml; "
                          "resume=PATH continues a run folder that a launch made")
    choices: dict[str, str] = {}
    if hydra_yaml.is_file():
        try:
            raw = OmegaConf.to_container(OmegaConf.load(hydra_yaml), resolve=False)
            got = ((raw or {}).get("hydra") or {}).get("runtime", {}).get("choices") or {}
            choices = {str(k): str(v) for k, v in got.items() if v is not None and not str(k).startswith("hydra/")}
        except Exception:  # noqa: BLE001 - then the names below
            choices = {}
    assert isinstance(saved, dict)
    for group in IDENTITY_GROUPS + ("cluster", "wandb"):
        if group not in choices and isinstance(saved.get(group), dict) and saved[group].get("name"):
            choices[group] = str(saved[group]["name"])
    return saved, choices


def _merge_leafwise(base: DictConfig, saved: Any, path: str, dropped: list[str]) -> None:
    """Merge ``saved`` into ``base`` in place; keys the schema no longer has are skipped and named."""
    try:
        merged = OmegaConf.merge(OmegaConf.select(base, path) if path else base, saved)
        if path:
            OmegaConf.update(base, path, merged, merge=False)
        else:
            for k in merged.keys():
                base[k] = merged[k]
        return
    except Exception:  # noqa: BLE001 - one key at a time
        pass
    if not isinstance(saved, dict):
        dropped.append(path)
        return
    for k, v in saved.items():
        sub = f"{path}.{k}" if path else str(k)
        if _node(base, sub) is None:
            dropped.append(sub)
            continue
        _merge_leafwise(base, v, sub, dropped)


def _plain_value(cfg: DictConfig, key: str) -> Any:
    try:
        v = OmegaConf.select(cfg, key, throw_on_missing=False)
    except Exception as exc:  # noqa: BLE001 - an interpolation that does not resolve here
        return f"<{type(exc).__name__}>"
    return OmegaConf.to_container(v, resolve=True) if OmegaConf.is_config(v) else v


def adopt_resume(current: DictConfig, run_dir: Any, overrides: list[str], cmd: "CommandLine") -> tuple[DictConfig, list[str], list[str]]:
    """The config of ``resume=PATH``: the folder's own (its group choices composed, then its saved
    values), with the command's non-identity overrides applied. Returns (config, the command's
    overrides kept, notes). An override that would change what the run measures raises
    :class:`ConfigError` naming it and listing what a resume may change."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    saved, choices = folder_settings(run_dir)
    group_overrides = [f"{g}={c}" for g, c in choices.items() if cmd.group_options(g) is not None]
    try:
        base = cmd.compose(group_overrides)
    except Exception as exc:  # noqa: BLE001 - a config the folder names no longer exists
        raise ConfigError(f"invalid settings:\n  resume: {run_dir} was made with {', '.join(group_overrides)}, "
                          f"which no longer compose: {_first_lines(exc)}") from None
    dropped: list[str] = []
    for k, v in saved.items():
        if k in ("resume", "print_config", "hydra"):
            continue
        if _node(base, str(k)) is None:
            dropped.append(str(k))
            continue
        _merge_leafwise(base, v, str(k), dropped)
    parser = OverridesParser.create()
    conflicts, kept = [], []
    for text in overrides:
        o = parser.parse_override(text)
        key = o.key_or_group
        if resume_allowed(key):
            kept.append(text)
            continue
        if cmd.group_options(key) is not None:
            have = choices.get(key)
            if str(o.value()) != have:
                conflicts.append(f"{text}: the folder's run has {key}={have}")
            continue
        mine, theirs = _plain_value(current, key), _plain_value(base, key)
        if mine != theirs:
            conflicts.append(f"{text}: the folder's run has {key}={theirs!r}")
    if conflicts:
        allowed = ", ".join(p + ("*" if p.endswith((".", "/")) else "") for p in RESUME_ALLOWED
                            if p not in ("resume", "print_config") and not p.startswith("hydra"))
        raise ConfigError(
            f"invalid settings:\n  resume: {run_dir} continues its own run, made with the settings in its "
            ".hydra/config.yaml; these overrides would change what it measures:\n    " + "\n    ".join(conflicts)
            + f"\n  drop them (the folder's values apply), or start a new run without resume=. A resume may "
            f"change: {allowed}")
    for text in kept:  # the command's own values of what a resume may change
        o = parser.parse_override(text)
        key = o.key_or_group
        if key.startswith("hydra") or o.is_delete():
            continue
        if cmd.group_options(key) is not None:
            base[key] = current[key]
        else:
            node = OmegaConf.select(current, key, throw_on_missing=False)
            OmegaConf.update(base, key, node, merge=False, force_add=True)
    base.resume = current.resume
    base.print_config = current.print_config
    notes = [f"resume: the settings of {run_dir} (" + ", ".join(f"{g}={c}" for g, c in choices.items()
                                                            if g in IDENTITY_GROUPS) + ")"]
    if dropped:
        notes.append(f"resume: settings the folder has and this version does not: {', '.join(dropped)} (left out)")
    return base, kept, notes
