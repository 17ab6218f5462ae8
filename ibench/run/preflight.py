"""The checks a launch passes before anything starts: no Ray, no W&B, no run folder yet.

Every setting is checked and every problem is named in one :class:`ConfigError` (the launch
prints it and exits 2): sampling, bench filters and language, judge settings, pipeline and
metrics numbers, the tasks themselves; then the model, as its backend class checks its own
settings (:meth:`~ibench.generate.base.Backend.config_problems`, ``readiness_problems``): for an
OpenAI-compatible endpoint the API key's variable is set and one small request succeeds
(``model.preflight=false`` skips the request), for vLLM one replica's GPUs and its weights exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from omegaconf import DictConfig

from ibench.run.spec import Problem, RunSpec

WANDB_MODES = ("auto", "online", "offline", "disabled")


class ConfigError(ValueError):
    """A setting that cannot work; raised before anything starts."""


@dataclass(frozen=True)
class Checked:
    """What the preflight built on the way (so the launch does not build it twice)."""

    spec: RunSpec  # few-shot examples bound to its prompt
    tasks: list


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

    backend, problem = backend_class(cfg)
    if problem is not None:
        out.append(problem)
    elif backend is not None:  # the backend checks its own settings
        out += [Problem.parse(line) for line in backend.config_problems(cfg.model)]
    return out


def backend_class(cfg: DictConfig) -> tuple[Any, Problem | None]:
    """(the class ``model._target_`` names, when it is a :class:`~ibench.generate.base.Backend`;
    a problem when it names nothing importable)."""
    from hydra.utils import get_object

    from ibench.generate.base import Backend

    target = str(cfg.model.get("_target_", ""))
    try:
        obj = get_object(target)
    except Exception as exc:  # noqa: BLE001 - worded as one line
        return None, Problem("model._target_", f"{target!r} cannot be imported ({str(exc).splitlines()[0]})")
    return (obj if isinstance(obj, type) and issubclass(obj, Backend) else None), None


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
        if spec is not None and not any(x.field.startswith("prompt.rephrase") for x in problems):
            problems += rephrase_model_problems(spec, cfg, request=request and not problems, probed=probed)
    if problems or spec is None:
        raise ConfigError("invalid settings:\n  " + "\n  ".join(map(str, problems)))
    return Checked(spec, tasks)


def model_problems(cfg: DictConfig, request: bool = True, probed: dict | None = None) -> list[str]:
    """The model can run from here, as its backend checks it (:meth:`~ibench.generate.base.Backend.readiness_problems`)."""
    backend, _ = backend_class(cfg)
    return backend.readiness_problems(cfg.model, cfg.cluster, request=request, probed=probed) if backend else []


def rephrase_model_problems(spec: RunSpec, cfg: DictConfig, request: bool = True,
                            probed: dict | None = None) -> list[Problem]:
    """``prompt.rephrase_model`` (ibench.generate.rephrase): its config composes with
    ``prompt.rephrase_with``, writes text, and its backend finds its settings right and itself
    ready from here, as the run's own model is checked (each problem under
    ``prompt.rephrase_model``)."""
    from hydra.utils import get_object
    from omegaconf import OmegaConf

    from ibench.generate.base import Backend
    from ibench.run.config import compose_model

    p = spec.prompt
    if not (p.rephrase and p.rephrase_model):
        return []
    name = p.rephrase_model
    try:
        model = OmegaConf.create(compose_model(name, p.rephrase_with))
        cls = get_object(str(model.get("_target_", "")))
    except Exception as exc:  # noqa: BLE001 - worded as one line
        return [Problem("prompt.rephrase_with", f"model={name} with {list(p.rephrase_with)} does not compose "
                        f"({str(exc).splitlines()[0]})")]
    if not (isinstance(cls, type) and issubclass(cls, Backend)):
        return [Problem("prompt.rephrase_model", f"model={name}: its _target_ is not a backend")]
    if not cls.writes_text:
        return [Problem("prompt.rephrase_model", f"model={name} replays known solutions and writes no text: it "
                        "cannot rephrase a statement")]
    lines = cls.config_problems(model) + cls.readiness_problems(model, cfg.cluster, request=request, probed=probed)
    return [Problem("prompt.rephrase_model", f"model={name}: {line}") for line in lines]


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
