"""Load and validate task packages (SPEC §2, docs/CONVENTIONS.md) into :class:`Task` objects.

Validation is exhaustive on purpose: every check runs even after an earlier one failed, and all
problems come back together (:class:`TaskError`), each naming the file, the field and what was
expected. Warnings (legal but suspicious layouts, e.g. gaps in case numbering) are collected
separately and never block loading. The checks themselves live in :mod:`ibench.tasks.checks`.

Entry points: :func:`inspect_task` (report, never raises), :func:`load_task` and
:func:`load_tasks` (raise on problems), :func:`read_case_recipes` (generator/cases.txt).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from .checks import (
    SOLUTION_LANGUAGES,
    CaseRecipe,
    Collector,
    check_batch_tests,
    check_checker,
    check_generator,
    check_grader,
    check_interactive_cases,
    check_interactors,
    check_meta,
    check_solutions,
    check_statement,
    check_subtasks,
    kind_from_layout,
    parse_recipes,
    shipped_case_names,
)
from .checks.contract import check_contract, check_open_cases, check_program_dir
from .errors import Problem, TaskError
from .model import CATEGORIES, DIFFICULTIES, Case, Subtask, Task, TaskKind

__all__ = ["CaseRecipe", "TaskReport", "find_task_dirs", "inspect_task", "inspect_tasks", "is_task_dir",
           "load_task", "load_tasks", "read_case_recipes", "solution_language"]


@dataclass
class TaskReport:
    """Everything :func:`inspect_task` learned about one folder."""

    root: Path
    task: Task | None
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def name(self) -> str:
        return self.task.task_id if self.task else self.root.name


def is_task_dir(path: Path) -> bool:
    """A folder is a task when it holds a task card or a statement (even a broken task)."""
    return path.is_dir() and ((path / "meta.json").exists() or (path / "desc.md").exists())


def find_task_dirs(root: str | Path) -> list[Path]:
    """``root`` itself when it is a task, else its sub-folders (hidden and ``_``-prefixed skipped)."""
    root = Path(root)
    if not root.is_dir():
        raise TaskError([Problem(root, "", "not a folder; expected a task folder or a folder of task folders")])
    if is_task_dir(root):
        return [root]
    return sorted(
        (p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))),
        key=lambda p: p.name,
    )


def inspect_task(path: str | Path) -> TaskReport:
    """Check one task folder; never raises for package problems (they are in the report)."""
    root = Path(path)
    c = Collector()
    task = _build(root, c)
    return TaskReport(root, task if not c.problems else None, c.problems, c.warnings)


def inspect_tasks(root: str | Path) -> list[TaskReport]:
    return [inspect_task(p) for p in find_task_dirs(root)]


def load_task(path: str | Path, warnings: list[Problem] | None = None) -> Task:
    """Load one task folder; raise :class:`TaskError` listing every problem found.

    Warnings (e.g. gaps in case numbering) are appended to ``warnings`` when a list is given.
    """
    report = inspect_task(path)
    if warnings is not None:
        warnings.extend(report.warnings)
    if report.problems:
        raise TaskError(report.problems)
    assert report.task is not None
    return report.task


def load_tasks(
    root: str | Path,
    ids: Iterable[str] | None = None,
    difficulties: Iterable[str] | None = None,
    categories: Iterable[str] | None = None,
    warnings: list[Problem] | None = None,
) -> list[Task]:
    """Load a task folder or a folder of task folders, sorted by id, optionally filtered.

    ``ids`` selects folders by name (unknown ids are an error); ``difficulties`` and
    ``categories`` keep tasks matching any of the given values (case-insensitive). Problems of
    every selected task are raised together in one :class:`TaskError`.
    """
    root = Path(root)
    dirs = find_task_dirs(root)
    if ids is not None:
        wanted = list(dict.fromkeys(ids))
        by_name = {d.name: d for d in dirs}
        unknown = [i for i in wanted if i not in by_name]
        if unknown:
            known = ", ".join(sorted(by_name)) or "none"
            raise TaskError([Problem(root, "ids", f"unknown task id(s) {', '.join(unknown)}; expected one of: {known}")])
        dirs = [by_name[i] for i in wanted]
    diff_filter = _normalise_filter(difficulties, DIFFICULTIES, "difficulty")
    cat_filter = _normalise_filter(categories, CATEGORIES, "category")

    problems: list[Problem] = []
    tasks: list[Task] = []
    for d in dirs:
        report = inspect_task(d)
        problems.extend(report.problems)
        if warnings is not None:
            warnings.extend(report.warnings)
        if report.task is not None:
            tasks.append(report.task)
    seen: dict[str, Path] = {}
    for t in tasks:
        if t.task_id in seen:
            problems.append(Problem(t.root / "meta.json", "problem_id",
                                    f"{t.task_id!r} is also the id of {seen[t.task_id]}; expected unique task ids"))
        seen.setdefault(t.task_id, t.root)
    if problems:
        raise TaskError(problems)
    if diff_filter is not None:
        tasks = [t for t in tasks if t.difficulty in diff_filter]
    if cat_filter is not None:
        tasks = [t for t in tasks if cat_filter.intersection(t.categories)]
    return sorted(tasks, key=lambda t: t.task_id)


def read_case_recipes(task: Task) -> list[CaseRecipe]:
    """The generator recipes of a (loaded, hence valid) task; [] when it has no cases.txt."""
    path = task.root / "generator" / "cases.txt"
    if not path.is_file():
        return []
    c = Collector()
    recipes = parse_recipes(c, path, {case.name for case in task.cases})
    if c.problems:
        raise TaskError(c.problems)
    return recipes


def solution_language(path: Path) -> str:
    """The judge language of a known solution file (``cpp``, ``python``, ...)."""
    try:
        return SOLUTION_LANGUAGES[path.suffix]
    except KeyError:
        raise ValueError(f"{path}: unknown solution language; expected one of {', '.join(SOLUTION_LANGUAGES)}") from None


def _normalise_filter(values: Iterable[str] | None, allowed: tuple[str, ...], what: str) -> set[str] | None:
    if values is None:
        return None
    lookup = {a.lower(): a for a in allowed}
    out: set[str] = set()
    for v in values:
        if v.lower() not in lookup:
            raise ValueError(f"unknown {what} {v!r}; expected one of {', '.join(allowed)}")
        out.add(lookup[v.lower()])
    return out


# The task card's fields (SPEC §2, docs/TASKS.md): read by the loader, the judge or the probe.
CARD_KEYS = ("problem_id", "title", "kind", "interactor_mode", "cpu_time_limit_ms", "memory_limit_mb", "difficulty",
             "categorization", "cate", "source", "date", "multi_test", "budget_reply", "hidden_input_format",
             "probe", "contract", "validator_flags", "interactor_cpu_ms", "case_pools", "score_txt")
# Fields importers record for people (never read): kept without a word.
CARD_NOTES = ("algorithms", "max_score", "difficulty_defaulted", "difficulty_score", "difficulty_source", "ioi_eval_type", "case_names",
              "tags", "url", "notes", "origin", "author", "authors", "license")


def check_card_keys(root: Path, raw: dict, c: Collector) -> None:
    """A task card's unknown field: an error where it is a near miss of a known one (did you
    mean; ``memory_limt_mb`` would otherwise be ignored and the default limit apply), else a
    warning that it is ignored."""
    import difflib

    path = root / "meta.json"
    for key in raw if isinstance(raw, dict) else ():
        if key in CARD_KEYS or key in CARD_NOTES:
            continue
        near = difflib.get_close_matches(str(key), CARD_KEYS, n=1, cutoff=0.8)
        if near:
            c.error(path, str(key), f"unknown field; did you mean {near[0]!r}?")
        else:
            c.warn(path, str(key), f"unknown field, ignored (task card fields: {', '.join(CARD_KEYS)})")


def _build(root: Path, c: Collector) -> Task | None:
    if not root.is_dir():
        c.error(root, "", "not a folder; expected a task folder (SPEC §2)")
        return None
    meta = check_meta(root, c)
    check_card_keys(root, meta.raw, c)
    check_statement(root, c)

    # With a broken task card, still check the layout the folder evidently has.
    kind = meta.kind or kind_from_layout(root)
    interactors: dict[str, Path] = {}
    cases: list[Case] = []
    checker = None
    subtasks: tuple[Subtask, ...] = ()
    grader_files: tuple[Path, ...] = ()
    contract = check_contract(root, meta.raw, kind, meta.mode, c)
    icpc = contract.contract == "icpc"
    if kind in (TaskKind.INTERACTIVE, TaskKind.GRADER):
        if icpc:  # one validator folder serves every case
            folder = check_program_dir(root / "interactor", "interactor", c)
            interactors = {"non_adaptive": folder, "adaptive": folder} if folder else {}
        else:
            interactors = check_interactors(root, meta.mode, c)
        if contract.open_cases:
            cases = check_open_cases(root, meta.mode, c)
        else:
            cases = check_interactive_cases(root, meta.mode, c)
        if kind is TaskKind.INTERACTIVE and not icpc and (root / "checker").is_dir():
            checker = check_checker(root, c)  # Polygon style: judges the interactor's output once it accepted
        if kind is TaskKind.GRADER:
            grader_files = check_grader(root, c)
        if (root / "subtasks.json").exists():  # olympiad interactive tasks score by subtask too
            subtasks = check_subtasks(root, {case.name for case in cases}, c)
    elif kind is TaskKind.BATCH:
        cases = check_batch_tests(root, c)
        if icpc:  # the task's validator folder, or (none) the default output validator
            checker = check_program_dir(root / "checker", "output validator", c) if (root / "checker").is_dir() else None
        else:
            checker = check_checker(root, c)
        subtasks = check_subtasks(root, {case.name for case in cases}, c)
        # A batch task may link the solution with a grader that owns main (IOI style); the
        # verdict still comes from its output, checked as usual.
        if (root / "grader").is_dir():
            grader_files = tuple(sorted((root / "grader").glob("*.cpp")))

    # Recipes may name any shipped case file, valid or not (a bad case is reported once, above).
    shipped = shipped_case_names(root, kind)
    generator = check_generator(root, shipped, meta.mode, c)
    solutions = check_solutions(root, kind, bool(subtasks), c)

    if c.problems:
        return None
    assert meta.cpu_ms and meta.memory_mb and meta.difficulty and meta.categories is not None
    return Task(
        root=root,
        task_id=meta.task_id,
        kind=kind,
        cpu_time_limit_ms=meta.cpu_ms,
        memory_limit_mb=meta.memory_mb,
        difficulty=meta.difficulty,
        categories=meta.categories,
        cases=tuple(cases),
        interactor_mode=meta.mode if kind is not TaskKind.BATCH else None,
        interactors=interactors,
        checker=checker,
        generator=generator,
        grader_files=grader_files,
        subtasks=subtasks,
        solutions=solutions,
        meta=meta.raw,
        date=meta.date,
        contract=contract.contract,
        validator_flags=contract.flags,
        interactor_cpu_ms=contract.interactor_cpu_ms,
        open_cases=contract.open_cases,
    )
