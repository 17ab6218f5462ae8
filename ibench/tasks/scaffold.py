"""`python -m ibench.tasks new`: a task folder that passes `check` and `validate` as written.

The scaffold is a complete, tiny task ("guess the number" for the interactive and grader kinds,
"sum the numbers" for batch) whose files are commented templates: an author edits them in place
rather than starting from a blank page. Its first case is written right away, without compiling
anything, by replaying testlib's generator random numbers in Python (:class:`TestlibRandom`), so
the bytes equal what the compiled generator prints for the recipe in generator/cases.txt.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from .model import InteractorMode, TaskKind
from .templates import (
    ADAPTIVE_INTERACTOR,
    BATCH_DESC,
    GRADER_DESC,
    GRADER_HEADER,
    GRADER_PROBE,
    GRADER_SOLUTION,
    GRADER_STUB,
    GUESS_GENERATOR,
    INTERACTIVE_DESC,
    INTERACTIVE_PROBE,
    INTERACTIVE_SOLUTION,
    NON_ADAPTIVE_INTERACTOR,
    SUM_GENERATOR,
    SUM_PROBE,
    SUM_SOLUTION,
)

NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
DEFAULT_N = 1000  # the template generator's default --n


class TestlibRandom:
    """testlib's `rnd` (Java LCG) seeded by registerGen's argument hash, bit for bit.

    Only what the templates use: the argv seeding and `rnd.next(lo, hi)` (63-bit draws).
    """

    _MULT = 0x5DEECE66D
    _ADD = 0xB
    _MASK48 = (1 << 48) - 1
    _MASK64 = (1 << 64) - 1

    def __init__(self, args: list[str]):
        s = 3905348978240129619
        for arg in args:
            for b in arg.encode():
                c = b if b < 0x80 else b + (1 << 32) - 256  # signed char widened to unsigned int
                s = (s * self._MULT + c + self._ADD) & self._MASK64
            s = (s + self._MULT // self._ADD) & self._MASK64
        self.seed = s & self._MASK48

    def _bits(self, k: int) -> int:
        if k == 63:
            return (self._bits(31) << 32) ^ self._bits(32)
        self.seed = (self.seed * self._MULT + self._ADD) & self._MASK48
        return self.seed >> (48 - k)

    def next(self, lo: int, hi: int) -> int:
        n = hi - lo + 1
        limit = ((1 << 63) - 1) // n * n
        while True:
            r = self._bits(63)
            if r < limit:
                return lo + r % n


@dataclass(frozen=True)
class ScaffoldResult:
    root: Path
    files: list[Path]


USER_TASKS_ENV = "IBENCH_USER_TASKS"  # where `tasks new` writes without --dir
DEFAULT_USER_TASKS = "my-tasks"  # ... when that is unset: a folder of the user's, not the bundled tasks/


def user_tasks_dir() -> Path:
    """The folder a new task goes to by default: ``$IBENCH_USER_TASKS``, else ``./my-tasks``. Never
    the bundled ``tasks/``: a template task there would join every default run (and the README's
    task table); evaluate a folder of your own with ``bench.tasks_dir=my-tasks``."""
    return Path(os.environ.get(USER_TASKS_ENV) or DEFAULT_USER_TASKS)


def create_task(name: str, directory: str | Path | None = None, kind: str = "interactive",
                mode: str = "non_adaptive") -> ScaffoldResult:
    """Write a new task folder ``directory/name`` (default: :func:`user_tasks_dir`); refuses to
    touch an existing one. ``--dir tasks`` adds to the bundled set."""
    if directory is None:
        directory = user_tasks_dir()
    if not NAME_PATTERN.fullmatch(name):
        raise ValueError(f"task name {name!r} is not usable as a folder name; expected letters, digits, '_', '.', '-'")
    task_kind = TaskKind(kind)
    task_mode = InteractorMode(mode)
    root = Path(directory) / name
    if root.exists():
        raise FileExistsError(f"{root} already exists; choose another name or remove it first")

    files = _interactive_files(name, task_kind, task_mode) if task_kind is not TaskKind.BATCH else _batch_files(name)
    written: list[Path] = []
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return ScaffoldResult(root, written)


# --------------------------------------------------------------------------------------------
# Interactive and grader kinds: guess a hidden number x in [1, n] with "is x >= y?" queries.


def _guess_case(args: list[str]) -> str:
    """What the generator template (templates.GUESS_GENERATOR) prints for ``args``."""
    mode = args[args.index("--mode") + 1] if "--mode" in args else "non"
    if mode == "adp":
        return f"{DEFAULT_N}\n"
    x = TestlibRandom(args).next(1, DEFAULT_N)
    return f"{DEFAULT_N} {x}\n"


def _interactive_files(name: str, kind: TaskKind, mode: InteractorMode) -> dict[str, str]:
    meta = {
        "problem_id": name,
        "title": "Guess the Number",
        "kind": kind.value,
        "interactor_mode": mode.value,
        "cpu_time_limit_ms": 2000,
        "memory_limit_mb": 256,
        "difficulty": "Easy",
        "categorization": ["Search"],
    }
    recipes: list[tuple[str, list[str]]] = []
    if mode in (InteractorMode.NON_ADAPTIVE, InteractorMode.BOTH):
        recipes.append(("001", ["1", "--mode", "non"]))
    if mode in (InteractorMode.ADAPTIVE, InteractorMode.BOTH):
        recipes.append(("101", ["1", "--mode", "adp"]))

    files: dict[str, str] = {
        "meta.json": json.dumps(meta, indent=2) + "\n",
        "desc.md": (GRADER_DESC if kind is TaskKind.GRADER else INTERACTIVE_DESC).replace("{name}", name),
        "generator/gen_cases.cpp": GUESS_GENERATOR,
        "generator/cases.txt": _cases_txt("cases", recipes),
    }
    for case, args in recipes:
        files[f"cases/{case}.in"] = _guess_case(args)
    if mode in (InteractorMode.NON_ADAPTIVE, InteractorMode.BOTH):
        files["interactor/non_adaptive.cpp"] = NON_ADAPTIVE_INTERACTOR
    if mode in (InteractorMode.ADAPTIVE, InteractorMode.BOTH):
        files["interactor/adaptive.cpp"] = ADAPTIVE_INTERACTOR

    if kind is TaskKind.GRADER:
        header = f"{name}.h"
        files[f"grader/{header}"] = GRADER_HEADER
        files["grader/stub.cpp"] = GRADER_STUB.replace("{header}", header)
        files["solutions/ok_binary_search.cpp"] = GRADER_SOLUTION.replace("{header}", header)
        files["solutions/qle_one_extra.cpp"] = GRADER_PROBE.replace("{header}", header)
    else:
        files["solutions/ok_binary_search.cpp"] = INTERACTIVE_SOLUTION
        files["solutions/qle_one_extra.cpp"] = INTERACTIVE_PROBE
    files["solutions/expected.json"] = json.dumps({
        "ok_binary_search.cpp": {"expected": "OK", "note": "binary search: ceil(log2 n) queries"},
        "qle_one_extra.cpp": {"expected": "QLE", "note": "asks one query more than the budget"},
    }, indent=2) + "\n"
    return files


def _cases_txt(folder: str, recipes: list[tuple[str, list[str]]]) -> str:
    header = (
        "# One line per generated case: <case-name> <generator args...>\n"
        f"# `python -m ibench.tasks gen-cases TASK` writes {folder}/<case-name>.in from these lines (it compiles\n"
        "# the generator); `python -m ibench.tasks validate` reruns `gen_cases <args>` and compares the output with\n"
        f"# {folder}/<case-name>.in byte for byte. Cases not listed here are hand-written.\n"
    )
    if folder == "cases":
        header += "# Pools (SPEC 2): 001-100 non-adaptive (--mode non), 101-200 adaptive (--mode adp).\n"
    return header + "".join(f"{case} {' '.join(args)}\n" for case, args in recipes)


# --------------------------------------------------------------------------------------------
# Batch kind: print the sum of n numbers.


def _sum_case(args: list[str]) -> tuple[str, str]:
    """(input, expected output) of the batch templates (SUM_GENERATOR, SUM_SOLUTION) for ``args``."""
    rnd = TestlibRandom(args)
    n = rnd.next(1, 10)
    values = [rnd.next(1, 1000) for _ in range(n)]
    return f"{n}\n{' '.join(map(str, values))}\n", f"{sum(values)}\n"


def _batch_files(name: str) -> dict[str, str]:
    meta = {
        "problem_id": name,
        "title": "Sum of Numbers",
        "kind": "batch",
        "cpu_time_limit_ms": 1000,
        "memory_limit_mb": 256,
        "difficulty": "Easy",
        "categorization": ["Math"],
    }
    test_in, test_out = _sum_case(["1"])
    return {
        "meta.json": json.dumps(meta, indent=2) + "\n",
        "desc.md": BATCH_DESC.replace("{name}", name),
        "tests/01.in": test_in,
        "tests/01.out": test_out,
        "subtasks.json": json.dumps({"1": {"score": 100, "testcases": ["01"], "grading": "all"}}, indent=2) + "\n",
        "generator/gen_cases.cpp": SUM_GENERATOR,
        "generator/cases.txt": _cases_txt("tests", [("01", ["1"])]),
        "solutions/ok_sum.cpp": SUM_SOLUTION,
        "solutions/wa_off_by_one.cpp": SUM_PROBE,
        "solutions/expected.json": json.dumps({
            "ok_sum.cpp": {"expected": "OK", "score": 100, "note": "sums in 64-bit"},
            "wa_off_by_one.cpp": {"expected": "WA", "score": 0, "note": "prints the sum plus one"},
        }, indent=2) + "\n",
    }


