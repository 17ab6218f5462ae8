"""The task package as typed data (SPEC §2).

A :class:`Task` is what the loader produces from a task folder and what the judge, the
generation backends and the metrics consume. It holds paths, not file contents: hidden cases
stay on disk and are read only by the interactor or checker.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

CATEGORIES: tuple[str, ...] = ("Graph", "Search", "Greedy", "Bit", "Data Structures", "Math", "Game")
DIFFICULTIES: tuple[str, ...] = ("Easy", "Medium", "Hard")

# Case pools of an interactive task (SPEC §2): 001-100 non-adaptive, 101-200 adaptive.
NON_ADAPTIVE_POOL = range(1, 101)
ADAPTIVE_POOL = range(101, 201)


class TaskKind(str, Enum):
    INTERACTIVE = "interactive"  # solver <-> testlib interactor over pipes
    BATCH = "batch"  # stdin -> stdout, compared with tokens or a testlib checker
    GRADER = "grader"  # solution linked with the task's grader stub; a manager process judges


class InteractorMode(str, Enum):
    NON_ADAPTIVE = "non_adaptive"
    ADAPTIVE = "adaptive"
    BOTH = "both"


@dataclass(frozen=True)
class Case:
    """One hidden test. ``interactor`` names the interactor that serves it (interactive tasks)."""

    name: str  # "001" for interactive pools, the file stem for batch tests
    input_path: Path
    answer_path: Path | None = None  # batch: expected output
    interactor: str | None = None  # "non_adaptive" | "adaptive"; None for batch


@dataclass(frozen=True)
class Subtask:
    id: str
    score: float
    tests: tuple[str, ...]
    grading: str = "all"  # "all": full score iff every test passes; "min-score": score x min test score


@dataclass(frozen=True)
class KnownSolution:
    """A reference or known-bad program shipped with the task, with its expected outcome."""

    path: Path
    expected: str  # a Verdict value, e.g. "OK", "WA", "QLE": the label when every case runs
    score: float | None = None  # expected task score, for batch tasks with subtasks
    note: str = ""
    # The label under the default early exit (the first failing case decides), where it differs
    # from ``expected`` (the most severe over all failing cases).
    expected_early_exit: str | None = None
    # The study variant it is judged under (expected.json "variant"): "interactive" (the task as
    # stated) or "batch" (the batch variant, InteractBench C.1: it reads the hidden case on stdin first)
    variant: str = "interactive"
    # Every label that counts as agreeing with the author (an imported package's tag: a
    # time_limit_exceeded folder accepts TLE and IDLE, "rejected" any failure); () = {expected}
    accepts: tuple[str, ...] = ()
    tag: str = ""  # the package's own name for the expectation (its submissions folder, Polygon tag)

    @property
    def accepted(self) -> bool:
        return self.expected == "OK"

    def agrees(self, verdict: str) -> bool:
        """Whether ``verdict`` is one this solution is expected to get."""
        return verdict in self.accepts if self.accepts else verdict == self.expected

    def expected_for(self, all_cases: bool) -> str:
        return self.expected if all_cases or self.expected_early_exit is None else self.expected_early_exit


@dataclass(frozen=True)
class Task:
    root: Path
    task_id: str
    kind: TaskKind
    cpu_time_limit_ms: int
    memory_limit_mb: int
    difficulty: str
    categories: tuple[str, ...]
    cases: tuple[Case, ...]
    interactor_mode: InteractorMode | None = None  # interactive and grader tasks
    interactors: dict[str, Path] = field(default_factory=dict)  # mode -> interactor source
    checker: Path | None = None  # batch: testlib checker source
    generator: Path | None = None
    grader_files: tuple[Path, ...] = ()  # grader tasks: sources linked with the solution
    subtasks: tuple[Subtask, ...] = ()
    solutions: tuple[KnownSolution, ...] = ()
    meta: dict = field(default_factory=dict)  # the raw task card, for fields not modelled here
    # The task's release date (meta.json ``date``, YYYY-MM-DD; the importers fill it from the
    # release's contest dates): the time-split study (InteractBench C.3) splits tasks by its year.
    date: _dt.date | None = None
    # How the task's own judge program is called: "testlib" (`checker in out ans`, `interactor in
    # tout`, exit 0/1/2/3/7) or "icpc" (the ICPC/Kattis validator contract: `validator input
    # answer feedback_dir [flags] < output`, exit 42 accept / 43 reject). An "icpc" batch task
    # without a checker is compared by the default output validator under ``validator_flags``.
    contract: str = "testlib"
    validator_flags: tuple[str, ...] = ()
    # The interactor's (or checker's) own CPU budget in ms, from the task card; None: the judge's
    # setting alone. Never below the judge's setting, never derived from the solver's limit alone.
    interactor_cpu_ms: int | None = None
    # Interactive cases numbered 001, 002, ... with no pool cap (meta.json "case_pools": "open"),
    # all served by the task's one interactor; the SPEC's 001-100 / 101-200 pools otherwise
    open_cases: bool = False

    @property
    def statement_path(self) -> Path:
        return self.root / "desc.md"

    def statement(self) -> str:
        return self.statement_path.read_text(encoding="utf-8")

    @property
    def stdio_interactive(self) -> bool:
        """Solver and interactor joined by stdin and stdout alone (not grader-linked): the tasks
        the batch variant (InteractBench C.1) applies to, the hidden case coming first on stdin."""
        return self.kind is TaskKind.INTERACTIVE and not self.grader_files

    @property
    def is_interactive(self) -> bool:
        return self.kind in (TaskKind.INTERACTIVE, TaskKind.GRADER)
