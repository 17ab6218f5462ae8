"""The tasks a run evaluates: its :class:`~ibench.run.spec.TaskSelection` loaded, then narrowed to
those its language and variant can take (each leaving-out logged, never charged to the model)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from omegaconf import DictConfig

    from ibench.run.spec import RunSpec
    from ibench.tasks.model import Task

log = logging.getLogger("ibench.launch")


class NoTasks(ValueError):
    """The selection matched no task."""


def select_tasks(spec: "RunSpec") -> list["Task"]:
    """The selected tasks; :class:`~ibench.tasks.errors.TaskError` for a broken one,
    :class:`NoTasks` when none is left."""
    from ibench.variants import Variant
    from ibench.tasks.load import load_tasks

    sel = spec.tasks
    tasks = load_tasks(sel.tasks_dir, ids=list(sel.ids) if sel.ids is not None else None,
                       difficulties=list(sel.difficulties) if sel.difficulties is not None else None,
                       categories=list(sel.categories) if sel.categories is not None else None)
    if spec.language != "cpp":
        # A grader-linked task links the solution with C++ code: it cannot be solved in another
        # language, so it is left out rather than charged to the model as CE.
        linked = [t.task_id for t in tasks if t.grader_files]
        if linked:
            log.warning("bench.language=%s: left out %d grader-linked task(s) that take C++ only: %s",
                        spec.language, len(linked), ", ".join(linked))
            tasks = [t for t in tasks if not t.grader_files]
    if spec.variant is Variant.BATCH:
        # The batch variant (InteractBench C.1) hands a stdio-interactive task's solver its hidden
        # case on stdin: batch tasks have no interaction, grader-linked ones no such stdin.
        other = [t.task_id for t in tasks if not t.stdio_interactive]
        if other:
            log.warning("bench.variant=batch: left out %d task(s) that are not stdio-interactive (batch tasks "
                        "or grader-linked ones): %s", len(other), ", ".join(other))
            tasks = [t for t in tasks if t.stdio_interactive]
    if sel.limit is not None:
        tasks = tasks[: sel.limit]
    if not tasks:
        raise NoTasks(f"no tasks selected from {sel.tasks_dir} (ids={_shown(sel.ids)}, "
                      f"difficulties={_shown(sel.difficulties)}, categories={_shown(sel.categories)})")
    return tasks


def _shown(v: tuple[str, ...] | None) -> str:
    return "None" if v is None else "[" + ", ".join(v) + "]"


def load_bench(cfg: "DictConfig") -> list["Task"]:
    """The tasks ``cfg`` selects (its spec built on the way; a bad setting raises ValueError)."""
    from ibench.run.spec import RunSpec

    spec, problems = RunSpec.from_config(cfg)
    if spec is None:
        raise ValueError("; ".join(map(str, problems)))
    return select_tasks(spec)
