"""Structured configs (the schema behind ``conf/``), registered in Hydra's ConfigStore.

Each YAML option extends its group's schema through its defaults list (``- base_vllm``), so a
typo'd key or a wrong type fails at composition, before any GPU is touched. ``conf/`` mirrors
the package: ``model/`` → :mod:`ibench.generate`, ``judge/`` → :mod:`ibench.judge`,
``cluster/`` → :mod:`ibench.cluster`, and so on.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from dataclasses import dataclass
from typing import Any, Optional

from hydra.core.config_store import ConfigStore
from omegaconf import MISSING, OmegaConf

from ibench.generate.base import SamplingSettings
from ibench.generate.feedback import FeedbackSettings
from ibench.generate.prompt import PromptTemplate
from ibench.judge.settings import JudgeSettings
from ibench.generate.configs import ModelConfig, OpenAIModelConfig, ReferenceModelConfig, VLLMModelConfig
from ibench.paths import CONF_DIR, REPO_ROOT  # the repository's own folders, named once
from ibench.roles import EXECUTION, EXTENT, LABEL, MEASURED, mark_of, role


def _root() -> str:
    return os.environ.get("IBENCH_ROOT", str(REPO_ROOT))


if not OmegaConf.has_resolver("ibench.root"):
    OmegaConf.register_new_resolver("ibench.root", _root)


# -- run folder names --------------------------------------------------------------------------------
_UNSAFE = re.compile(r"[^A-Za-z0-9._+@-]")
MAX_LEAF = 120  # characters of the overrides part of a run folder's name; longer: shortened + digest
DEFAULT_LEAF = "default"  # the overrides part of a run without overrides (a sibling of the others)


def digest(text: str, length: int = 8) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:length]


def safe_name(text: object, max_len: int = 80) -> str:
    """One path component from any text: ``/`` and spaces become ``_``, ``,`` ``+``, ``=`` ``-``,
    brackets go, anything else outside ``[A-Za-z0-9._+@-]`` becomes ``_``; never empty, never
    hidden; longer than ``max_len``: cut, plus a digest of the whole text."""
    raw = str(text)
    s = raw.replace("[", "").replace("]", "").replace("/", "_").replace(" ", "_").replace(",", "+").replace("=", "-")
    s = _UNSAFE.sub("_", s).lstrip(".") or "_"
    if len(s) > max_len:
        s = s[: max_len - 9] + "-" + digest(raw)
    return s


def _leaf_items(overrides: Any, exclude: Any) -> list[tuple[str, str, str]]:
    skip = set(exclude or ())
    prefixes = tuple(k for k in skip if k.endswith("."))  # a whole group: any key under it
    items = []
    for o in list(overrides or ()):
        key, sep, value = str(o).partition("=")
        bare = key.lstrip("+~")
        if bare in skip or bare.startswith(prefixes) or bare.startswith("hydra.") or bare.startswith("hydra/"):
            continue
        items.append((bare, key, value if sep else ""))
    return items


SWEEP_KEYS_ENV = "IBENCH_SWEEP_KEYS"  # set by ibench.launch.cli for a multirun: the swept keys, in order
MAX_NAME = 150  # characters of the overrides part of a new run folder's name (a component may hold 255)
MAX_VALUE = 40  # characters of one value in a folder name; longer: shortened (the digest keeps it unique)


def _short_value(value: str) -> tuple[str, bool]:
    """(a value as a folder name shows it, whether it was shortened): a path by its last part,
    a list of more than three by its first two and a count, anything longer than MAX_VALUE cut."""
    raw = value.strip()
    if raw.startswith(("/", "./", "../", "~")) and raw.rstrip("/"):
        return safe_name(raw.rstrip("/").rsplit("/", 1)[-1], MAX_VALUE), True
    if raw.startswith("[") and raw.endswith("]"):
        parts = [p.strip() for p in raw[1:-1].split(",") if p.strip()]
        if len(parts) > 3:
            return safe_name(f"{parts[0]},{parts[1]},{len(parts) - 2}more", 2 * MAX_VALUE), True
    s = safe_name(raw, 10_000)
    if len(s) > MAX_VALUE:
        return s[: MAX_VALUE - 1].rstrip("-+_.") + "~", True
    return s, False


def run_leaf(overrides: Any, exclude: Any = ()) -> str:
    """The overrides part of a run folder's name, readable: ``key=value`` pairs joined by ``,``,
    each made safe (:func:`safe_name`); in a sweep the swept keys first, the rest sorted by key.
    A path shows its last part, a long list its first two items and a count, a long value is
    cut, and when more than MAX_NAME characters would be needed the last pairs become
    ``+N-more``; whenever anything is shortened a digest of all overrides ends the name (the
    whole of them is in the folder's ``spec.json`` and ``.hydra/overrides.yaml``). In a sweep
    only the swept keys name a job (the sweep's folder and sweep.json say the rest). Keys in
    ``exclude`` (settings that change where or how a run executes, not what it measures) are
    left out. No overrides: ``default``."""
    items = _leaf_items(overrides, exclude)
    swept = [k for k in os.environ.get(SWEEP_KEYS_ENV, "").split(",") if k]
    if swept:  # a sweep's job: its sweep's folder and sweep.json hold the rest (ibench.results.sweeps)
        items = [it for it in items if it[0] in swept] or items
    if not items:
        return DEFAULT_LEAF
    items.sort(key=lambda it: (swept.index(it[0]) if it[0] in swept else len(swept), it))
    parts, short = [], False
    for _, key, value in items:
        v, cut = _short_value(value)
        short |= cut
        parts.append(f"{safe_name(key, 60)}={v}")
    tag = "-" + digest("\n".join(f"{k}={v}" for _, k, v in items))
    leaf = ",".join(parts)
    if len(leaf) > MAX_NAME - len(tag):
        short = True
        kept: list[str] = []
        for i, part in enumerate(parts):
            more = f",+{len(parts) - i - 1}-more" if i < len(parts) - 1 else ""
            if kept and len(",".join(kept + [part])) + len(more) + len(tag) > MAX_NAME:
                break
            kept.append(part[: MAX_NAME - 40])
        rest = len(parts) - len(kept)
        leaf = ",".join(kept) + (f",+{rest}-more" if rest else "")
    return leaf + tag if short else leaf


def legacy_run_leaf(overrides: Any, exclude: Any = ()) -> str:
    """The folder naming before issue 22 (kept so that such folders still resume): ``key=value`` pairs, sorted by key and joined
    by ``,``, each made safe (:func:`safe_name`); keys in ``exclude`` (settings that change where
    or how a run executes, not what it measures) are left out. No overrides: ``default``."""
    skip = set(exclude or ())
    items = []
    for o in list(overrides or ()):
        key, sep, value = str(o).partition("=")
        bare = key.lstrip("+~")
        if bare in skip or bare.startswith("hydra."):
            continue
        items.append((bare, key, value if sep else ""))
    if not items:
        return DEFAULT_LEAF
    items.sort()
    leaf = ",".join(f"{safe_name(key, 60)}={safe_name(value, 60)}" for _, key, value in items)
    if len(leaf) > MAX_LEAF:
        leaf = leaf[: MAX_LEAF - 9].rstrip(",=") + "-" + digest("\n".join(f"{k}={v}" for _, k, v in items))
    return leaf


SWEEP_ID_ENV = "IBENCH_SWEEP_ID"  # set by ibench.launch.cli for a multirun; conf/config.yaml's hydra.sweep.dir
_FALLBACK: list[str] = []  # a multirun Hydra started without ibench.launch.cli: one id for the process


def current_sweep_id() -> str:
    """The running sweep's id (the resolver ``${ibench.sweep_id:}``; its record:
    :mod:`ibench.results.sweeps`)."""
    got = os.environ.get(SWEEP_ID_ENV)
    if got:
        return got
    if not _FALLBACK:
        _FALLBACK.append(time.strftime("sweep-%Y%m%d-%H%M%S"))
    return _FALLBACK[0]


if not OmegaConf.has_resolver("ibench.sweep_id"):
    OmegaConf.register_new_resolver("ibench.sweep_id", current_sweep_id)
if not OmegaConf.has_resolver("ibench.safe"):
    OmegaConf.register_new_resolver("ibench.safe", safe_name)
if not OmegaConf.has_resolver("ibench.run_leaf"):
    OmegaConf.register_new_resolver("ibench.run_leaf", run_leaf)


# -- model/: the model configs' schemas are the backends' own (ibench.generate.configs) ------------
# -- bench/, wandb/, cluster/, paths, pipeline, metrics -----------------------------------------------
@dataclass
class BenchConfig:
    name: str = role(LABEL, "bundled")
    tasks_dir: str = role(MEASURED, "${paths.tasks_dir}")
    ids: Optional[list[str]] = role(MEASURED, None)  # task folder names
    difficulties: Optional[list[str]] = role(MEASURED, None)  # Easy | Medium | Hard
    categories: Optional[list[str]] = role(MEASURED, None)  # Graph, Search, ... (a task matches any)
    limit: Optional[int] = role(MEASURED, None)  # first N tasks after filtering (smoke runs)
    language: str = role(MEASURED, "cpp")
    # interactive | batch: the batch variant (InteractBench C.1) gives the solver of each
    # stdio-interactive task its hidden case on stdin before the interaction
    variant: str = role(MEASURED, "interactive")
    non_adaptive_cases: Optional[int] = role(MEASURED, None)  # case pools: how many of each to run (None = all)
    adaptive_cases: Optional[int] = role(MEASURED, None)
    accept_untagged_fence: bool = role(MEASURED, False)  # also take a ``` block without a language tag


@dataclass
class WandbConfig:
    mode: str = role(EXECUTION, "auto")  # auto (online with credentials, else offline) | online | offline | disabled
    project: str = role(EXECUTION, "ibench")
    entity: Optional[str] = role(EXECUTION, None)
    group: Optional[str] = role(EXECUTION, "${model.name}")
    job_type: str = role(EXECUTION, "eval")
    name: Optional[str] = role(EXECUTION, None)
    tags: list[str] = role(EXECUTION, factory=list)
    init_timeout_s: float = role(EXECUTION, 60.0)  # online init that takes longer falls back to offline
    log_every_s: float = role(EXECUTION, 10.0)  # running counts and pass@1 while the run goes


@dataclass
class ClusterConfig:
    _target_: str = role(EXECUTION, "ibench.cluster.LocalCluster")
    name: str = role(EXECUTION, "local")
    address: Optional[str] = role(EXECUTION, None)  # None: start a local Ray; "auto" or "ray://host:port": join one
    num_cpus: Optional[int] = role(EXECUTION, None)
    num_gpus: Optional[int] = role(EXECUTION, None)
    include_dashboard: bool = role(EXECUTION, False)
    runtime_env: dict[str, Any] = role(EXECUTION, factory=dict)


@dataclass
class PathsConfig:
    root_dir: str = role(MEASURED, "${ibench.root:}")
    tasks_dir: str = role(MEASURED, "${paths.root_dir}/tasks")
    output_dir: str = role(EXECUTION, "${paths.root_dir}/outputs")


@dataclass
class PipelineConfig:
    judge_cpus: float = role(EXECUTION, 1.0)  # CPUs reserved per judge task (the paper ran each with 2 cores)
    max_inflight: int = role(EXECUTION, 0)  # judge tasks in flight at once; 0 = 2 x cluster CPUs
    task_retries: int = role(EXECUTION, 2)  # Ray retries of a judge task whose worker or node died
    rejudge_se: int = role(EXECUTION, 1)  # re-judge a sample that got a judge error (SE) this many times
    regenerate_failed: bool = role(EXECUTION, True)  # on resume, retry samples whose generation request failed
    flush_rows: int = role(EXECUTION, 64)  # parquet part every N rows (each row is journaled at once anyway)
    flush_seconds: float = role(EXECUTION, 5.0)
    progress: bool = role(EXECUTION, True)  # progress bars on a terminal
    log_every_s: float = role(EXECUTION, 30.0)  # without a terminal (Slurm logs): one progress line this often; 0 = never


@dataclass
class MetricsConfig:
    ks: list[int] = role(EXECUTION, factory=lambda: [1, 5])
    bootstrap: int = role(EXECUTION, 1000)
    confidence: float = role(EXECUTION, 0.95)
    seed: int = role(EXECUTION, 0)


@dataclass
class ReportConfig:
    viewer: bool = role(EXECUTION, False)  # write the results viewer (RUN/viewer) at the end; W&B gets its run page as HTML


@dataclass
class Config:
    paths: PathsConfig = role(MEASURED, factory=PathsConfig)
    model: Any = role(MEASURED, MISSING)
    sampling: SamplingSettings = role(MEASURED, MISSING)
    prompt: PromptTemplate = role(MEASURED, MISSING)
    feedback: FeedbackSettings = role(MEASURED, MISSING)  # refinement rounds' feedback turn (sampling.refine_rounds)
    judge: JudgeSettings = role(MEASURED, MISSING)
    bench: BenchConfig = role(MEASURED, MISSING)
    wandb: WandbConfig = role(EXECUTION, MISSING)
    cluster: Any = role(EXECUTION, MISSING)
    pipeline: PipelineConfig = role(EXECUTION, factory=PipelineConfig)
    metrics: MetricsConfig = role(EXECUTION, factory=MetricsConfig)
    report: ReportConfig = role(EXECUTION, factory=ReportConfig)
    resume: Optional[str] = role(EXECUTION, None)  # a previous run's output folder to continue in
    print_config: bool = role(EXECUTION, False)


# -- the roles, derived (issue 34) --------------------------------------------------------------------
# Each config group's schema classes; every field of each carries a role (ibench.run.keys.role).
GROUP_SCHEMAS: dict[str, tuple[type, ...]] = {
    "model": (ModelConfig, ReferenceModelConfig, OpenAIModelConfig, VLLMModelConfig),
    "sampling": (SamplingSettings,), "prompt": (PromptTemplate,), "feedback": (FeedbackSettings,),
    "judge": (JudgeSettings,), "bench": (BenchConfig,), "wandb": (WandbConfig,), "cluster": (ClusterConfig,),
    "paths": (PathsConfig,), "pipeline": (PipelineConfig,), "metrics": (MetricsConfig,), "report": (ReportConfig,),
}
# A group whose choice the run folder's path already shows (model.name): its choice stays out of the leaf.
CHOICE_IN_PATH = ("model",)


def setting_roles() -> dict[str, str]:
    """Every settings key (``group.field``, and each top-level field) with its role (a
    :data:`~ibench.run.keys.LABEL` names, never hashed); raises :class:`~ibench.run.keys.UnmarkedField`
    for a field without one, ValueError for a field two schemas of a group mark differently."""
    import dataclasses

    out: dict[str, str] = {}
    for f in dataclasses.fields(Config):
        out[f.name] = mark_of(Config, f.name)[0]
    for group, schemas in GROUP_SCHEMAS.items():
        for cls in schemas:
            for f in dataclasses.fields(cls):
                key, r = f"{group}.{f.name}", mark_of(cls, f.name)[0]
                if out.setdefault(key, r) != r:
                    raise ValueError(f"{key}: {cls.__name__} marks it {r}, another {group} schema {out[key]}")
    return out


def role_of_key(key: str, roles: dict[str, str] | None = None) -> str:
    """The role of a dotted settings key: its field's, a sub-key of a dict field its field's, a
    key no schema declares (a cluster option's own) its group's."""
    roles = setting_roles() if roles is None else roles
    parts = key.lstrip("+~").split(".")
    for i in range(len(parts), 0, -1):
        got = roles.get(".".join(parts[:i]))
        if got is not None:
            return got
    return MEASURED  # unknown: treated as changing what the run measures


def execution_keys() -> list[str]:
    """The keys left out of a run folder's name (``hydra.job.config.override_dirname.exclude_keys``
    in conf/config.yaml): every execution setting, a whole execution group as ``group`` and
    ``group.`` (any key under it), and the choices the path already shows."""
    roles = setting_roles()
    out = list(CHOICE_IN_PATH)
    for key, r in roles.items():
        if r != EXECUTION:
            continue
        out.append(key)
        if key in GROUP_SCHEMAS:
            out.append(key + ".")
    return list(dict.fromkeys(out))


def resume_allowed_keys() -> tuple[str, ...]:
    """What ``resume=PATH`` may change (patterns: a key, or a prefix ending in ``.``): the
    execution settings and the extent ones (more refinement rounds)."""
    roles = setting_roles()
    out = []
    for key, r in roles.items():
        if r in (EXECUTION, EXTENT):
            out.append(key)
            if key in GROUP_SCHEMAS:
                out.append(key + ".")
    return tuple(out)


def _exclude_keys_resolver() -> list[str]:
    return execution_keys()


if not OmegaConf.has_resolver("ibench.execution_keys"):
    OmegaConf.register_new_resolver("ibench.execution_keys", _exclude_keys_resolver)

def register() -> ConfigStore:
    cs = ConfigStore.instance()
    cs.store(name="base_config", node=Config)
    cs.store(group="model", name="base_reference", node=ReferenceModelConfig)
    cs.store(group="model", name="base_openai", node=OpenAIModelConfig)
    cs.store(group="model", name="base_vllm", node=VLLMModelConfig)
    cs.store(group="sampling", name="base_sampling", node=SamplingSettings)
    cs.store(group="prompt", name="base_prompt", node=PromptTemplate)
    cs.store(group="feedback", name="base_feedback", node=FeedbackSettings)
    cs.store(group="judge", name="base_judge", node=JudgeSettings)
    cs.store(group="bench", name="base_bench", node=BenchConfig)
    cs.store(group="wandb", name="base_wandb", node=WandbConfig)
    cs.store(group="cluster", name="base_local", node=ClusterConfig)
    return cs


register()


def as_dict(node: Any, resolve: bool = True) -> dict[str, Any]:
    """A config node as a plain dict (a mapping node always converts to one)."""
    out = OmegaConf.to_container(node, resolve=resolve)
    assert isinstance(out, dict)
    return {str(k): v for k, v in out.items()}


def compose(overrides: Any = ()) -> Any:
    """The config ``python -m ibench.launch OVERRIDES`` composes (inside a running Hydra app, with
    that app's search path), for tools that build a part of a run from it (a backend, a cluster)."""
    from hydra import compose as hydra_compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    if GlobalHydra.instance().is_initialized():
        return hydra_compose("config", overrides=list(overrides))
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return hydra_compose("config", overrides=list(overrides))


def compose_model(name: str, overrides: Any = ()) -> dict[str, Any]:
    """The model config ``conf/model/<name>.yaml`` (with ``key=value`` overrides of it, ``model.``
    optional) as a plain dict, composed as the launch composes ``model=<name>``."""
    ov = [f"model={name}", *(o if o.lstrip("+~").startswith("model.") else f"model.{o}" for o in overrides)]
    return as_dict(compose(ov).model)


def build_model(name: str, overrides: Any = ()) -> Any:
    """The backend of the model config ``name`` with ``overrides`` (a second model a run asks,
    e.g. ``prompt.rephrase_model``)."""
    from ibench.generate.backends import build_backend

    return build_backend(compose_model(name, overrides))
