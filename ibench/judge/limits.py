"""A case's limits: the solver's CPU, memory and wall clock, and the interactor's own budgets."""

from __future__ import annotations

from dataclasses import dataclass

from ..tasks.model import Task
from .settings import JudgeSettings

MESSAGE_LIMIT = 1000  # characters of a judge program's message kept
STDERR_READ = 64 * 1024  # testlib cuts its messages at 32,000 characters


@dataclass
class Limits:
    cpu_ms: float
    mem_kb: int
    wall_ms: int


def case_limits(task: Task, settings: JudgeSettings, time_factor: float = 1.0) -> Limits:
    cpu = task.cpu_time_limit_ms * time_factor
    wall = max(settings.wall_factor * cpu, cpu + settings.wall_extra_s * 1000)
    return Limits(cpu, task.memory_limit_mb * 1024, int(wall))


def interactor_cpu_ms(settings: JudgeSettings, task: Task, wall_ms: int) -> int:
    """The interactor's own CPU budget: the judge's setting or the task card's, whichever is
    larger, and never below the solver's hard wall cap (a solver's flood that keeps the
    interactor reading must meet the cap, the solver's IDLE, not this limit, an SE)."""
    return int(max(settings.interactor_cpu_s * 1000, wall_ms * settings.wall_hard_factor, task.interactor_cpu_ms or 0))


def interactor_wall_ms(settings: JudgeSettings, task: Task, wall_ms: int) -> int:
    """How long the interactor may compute, by the clock, from its start: ``judge.interactor_wall_s``,
    else twice its CPU budget (a loaded node gives it half a core). The supervisor never ends a
    computing interactor before the solver's own hard cap either."""
    if settings.interactor_wall_s is not None:
        return int(settings.interactor_wall_s * 1000)
    return 2 * interactor_cpu_ms(settings, task, wall_ms)
