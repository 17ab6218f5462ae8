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


# -- the command line, checked before Hydra runs it (ibench.launch.cli) ------------------------------
# Hydra's own messages for a bad override (an unknown key with advice to add it with `+`, a value
# of the wrong type, an unknown config name with 20 lines of search path) exit 1; these checks
# find the same problems first and say them as ibench does: the field, what was expected, and
# the nearest valid names. Every job of a multirun is composed and preflighted before any runs.

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

        from ibench.run import config as _config  # noqa: F401 - registers the schema

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


def main(argv: list[str] | None = None) -> int:
    """``python -m ibench.run.preflight ARGS``: the launch's checks of ``python -m ibench.launch ARGS``
    and nothing else (no Ray, no folder): exit 2 with one line per problem, else 0.
    ``slurm/ibench.sbatch`` runs it before the Ray cluster comes up, so a wrong setting, a TP × PP
    the job's GPUs do not divide or weights missing on the node end the job in seconds."""
    import sys

    from hydra._internal.utils import get_args_parser

    from ibench.launch import _HYDRA_ONLY, _quote_resume, check_command, with_folder_choices

    argv = [_quote_resume(a) for a in (sys.argv[1:] if argv is None else argv)]  # as the launch reads them
    parsed = get_args_parser().parse_args(argv)
    if any(getattr(parsed, name, None) for name in _HYDRA_ONLY):
        return 0  # --cfg, --help, ...: Hydra's own answers, nothing to check
    jobs, _, problems = check_command(argv if parsed.multirun else with_folder_choices(argv))
    if problems:
        print("error: invalid settings:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 2
    print(f"preflight: {len(jobs)} job(s) checked, no problem")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
