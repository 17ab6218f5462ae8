"""Launchers: how the bring-up runs a command on one node (``srun`` in an allocation, plain
local processes, or any prefix with ``{node}`` such as ``ssh {node}``)."""

from __future__ import annotations

import os
import shlex
import shutil
from typing import Mapping, Sequence

from .hostlists import BringupError, het_groups

ENV_SRUN_ARGS = "IBENCH_SRUN_ARGS"


class Launcher:
    """Turns ``argv`` into the command that runs it on ``node``."""

    name = "launcher"
    local = False  # True: every node is this machine

    def wrap(self, node: str, argv: Sequence[str]) -> list[str]:
        raise NotImplementedError


class LocalLauncher(Launcher):
    name = "local"
    local = True

    def wrap(self, node: str, argv: Sequence[str]) -> list[str]:
        return list(argv)


class SrunLauncher(Launcher):
    """One task on one node of the allocation. ``extra`` (or ``$IBENCH_SRUN_ARGS``) adds flags,
    e.g. ``--gpus-per-task=8`` where steps do not inherit the job's GPUs. In a heterogeneous
    job a step runs in one component: a node of component ``I`` gets ``--het-group=I``
    (``groups``: node -> component; default: read from the job's environment)."""

    name = "srun"

    def __init__(self, extra: Sequence[str] | None = None, groups: Mapping[str, int] | None = None) -> None:
        self.extra = list(extra) if extra is not None else shlex.split(os.environ.get(ENV_SRUN_ARGS, ""))
        self.groups = dict(het_groups() if groups is None else groups)

    def wrap(self, node: str, argv: Sequence[str]) -> list[str]:
        het = [f"--het-group={self.groups[node]}"] if node in self.groups else []
        return ["srun", *het, "--nodes=1", "--ntasks=1", f"--nodelist={node}", "--kill-on-bad-exit=0", *self.extra,
                *argv]


class CommandLauncher(Launcher):
    """Any prefix with ``{node}`` in it (e.g. ``ssh {node}``); for clusters without Slurm."""

    name = "command"

    def __init__(self, template: str) -> None:
        self.template = template

    def wrap(self, node: str, argv: Sequence[str]) -> list[str]:
        return [*shlex.split(self.template.format(node=node)), *argv]


def make_launcher(kind: str | Launcher | None) -> Launcher:
    if isinstance(kind, Launcher):
        return kind
    if kind in (None, "", "auto"):
        kind = "srun" if os.environ.get("SLURM_JOB_ID") and shutil.which("srun") else "local"
    if kind == "srun":
        return SrunLauncher()
    if kind == "local":
        return LocalLauncher()
    if "{node}" in kind:
        return CommandLauncher(kind)
    raise BringupError(f"unknown launcher {kind!r}; expected srun, local, or a command with {{node}}")
