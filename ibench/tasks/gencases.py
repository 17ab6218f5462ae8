"""``python -m ibench.tasks gen-cases TASK``: write a task's generated cases from its recipes.

Each line of ``generator/cases.txt`` (``<case-name> <generator args...>``, docs/CONVENTIONS.md)
becomes one case: the generator (``generator/gen_cases.cpp``), compiled by the judge's own
compile flow for task programs (the cached, sandboxed build ``validate`` uses), runs with the
line's arguments in a scratch folder and its stdout is the case:

- interactive and grader tasks: ``cases/<name>.in`` (001-100 the non-adaptive pool, 101-200 the
  adaptive one, SPEC §2);
- batch tasks: ``tests/<name>.in``, and ``tests/<name>.out`` from the task's accepted known
  solution (the first ``"expected": "OK"`` file of ``solutions/expected.json``, or ``--answers``).

Nothing is written unless every recipe ran: a bad line, a generator that does not compile, exits
non-zero, prints nothing or runs over its time is reported with the file (and line) at fault. A
case that exists already and differs from what its recipe prints is left alone unless
``--force`` (it may be hand-edited); identical ones are counted as unchanged. Afterwards
``python -m ibench.tasks validate TASK`` regenerates the same bytes.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from ..languages import LANGUAGES, of_path
from .checks.cases import kind_from_layout
from .checks.common import CASE_NAME, Collector
from .checks.contract import OPEN_CASE
from .checks.generator import CaseRecipe, parse_recipes
from .checks.meta import check_meta
from .errors import Problem, TaskError
from .model import ADAPTIVE_POOL, NON_ADAPTIVE_POOL, TaskKind

CPP, PYTHON = LANGUAGES["cpp"].name, LANGUAGES["python"].name
ANSWER_LANGUAGES = frozenset({CPP, PYTHON})  # what can write a batch task's answers here

GENERATOR_TIMEOUT_S = 30.0  # per recipe (validate uses the same)


@dataclass
class GenResult:
    """What :func:`generate_cases` did, by path (relative to the task folder)."""

    written: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    answers_from: Path | None = None  # the solution that wrote the batch answers
    warnings: list[str] = field(default_factory=list)


def _fail(path: Path, where: str, message: str) -> TaskError:
    return TaskError([Problem(path, where, message)])


def _recipe_names(path: Path) -> set[str]:
    """Every case name ``cases.txt`` lists (parse_recipes then checks each line): the cases
    need not exist yet, that is what this command is for."""
    names: set[str] = set()
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            tokens = shlex.split(line, comments=True)
        except ValueError:
            continue  # parse_recipes reports it
        if tokens:
            names.add(tokens[0])
    return names


def read_recipes(root: Path) -> list[CaseRecipe]:
    """The recipes of ``root/generator/cases.txt``; TaskError naming the file and line otherwise."""
    path = root / "generator" / "cases.txt"
    if not path.is_file():
        raise _fail(path, "", "missing; expected one line per generated case, '<case-name> <generator args...>' "
                              "(e.g. '001 1 --mode non'), beside generator/gen_cases.cpp")
    c = Collector()
    recipes = parse_recipes(c, path, _recipe_names(path))
    if c.problems:
        raise TaskError(c.problems)
    if not recipes:
        raise _fail(path, "", "lists no case; expected one line per generated case, '<case-name> <generator args...>'")
    return recipes


def _check_names(path: Path, recipes: list[CaseRecipe], kind: TaskKind, open_pools: bool = False) -> None:
    """Interactive and grader cases are numbered pools (SPEC §2), or numbered with no cap in a
    task whose meta.json says ``"case_pools": "open"``; batch tests may be any name."""
    if kind is TaskKind.BATCH:
        bad = [r for r in recipes if not r.case or "/" in r.case or r.case.startswith(".")]
        expected = "a file name (tests/<name>.in)"
    elif open_pools:
        bad = [r for r in recipes if not OPEN_CASE.fullmatch(r.case)]
        expected = "a case number of three digits or more (\"case_pools\": \"open\")"
    else:
        pools = set(NON_ADAPTIVE_POOL) | set(ADAPTIVE_POOL)
        bad = [r for r in recipes if not CASE_NAME.fullmatch(r.case) or int(r.case) not in pools]
        expected = "a three-digit case number, 001-100 (non-adaptive pool) or 101-200 (adaptive pool)"
    if bad:
        raise TaskError([Problem(path, f"line {r.line}", f"case name {r.case!r}; expected {expected}") for r in bad])


def _open_pools(root: Path) -> bool:
    try:
        return json.loads((root / "meta.json").read_text(encoding="utf-8")).get("case_pools") == "open"
    except (OSError, ValueError, AttributeError):
        return False


def _judge():
    from ibench.judge import Judge, JudgeSettings

    return Judge.shared(JudgeSettings())


def compile_program(source: Path) -> Path:
    """A task's own C++ program (generator, answer solution) built as the judge builds task
    programs (``Judge.compile_tool``: testlib on the include path, cached)."""
    judge = _judge()
    prog = judge.executor("cpp").compile_trusted([source], [judge.testlib_dir, source.parent], judge.testlib_dir)
    if prog.binary is None:
        raise _fail(source, "", f"does not compile:\n{prog.info.message}")
    return prog.binary


def _run(argv: list[str], stdin: bytes | None, what: str, path: Path, where: str, timeout_s: float) -> bytes:
    """stdout of ``argv`` run in a scratch folder (a program that writes files must not litter
    the task folder); TaskError naming ``path``/``where`` when it fails."""
    with tempfile.TemporaryDirectory(prefix="ibench-gen-") as tmp:
        try:
            proc = subprocess.run(argv, cwd=tmp, input=stdin if stdin is not None else b"",
                                  capture_output=True, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            raise _fail(path, where, f"{what} ran over {timeout_s:.0f} s") from None
    if proc.returncode != 0:
        err = proc.stderr.decode(errors="replace").strip()[-800:]
        raise _fail(path, where, f"{what} exited {proc.returncode}" + (f": {err}" if err else ""))
    if not proc.stdout.strip():
        raise _fail(path, where, f"{what} printed nothing; expected one case on stdout")
    return proc.stdout


def _answer_solution(root: Path, given: Path | None) -> Path | None:
    """The solution that writes a batch task's ``.out`` files: ``given``, else the first
    accepted one in ``solutions/expected.json``."""
    if given is not None:
        return given if given.is_absolute() else (Path.cwd() / given)
    expected = root / "solutions" / "expected.json"
    try:
        data = json.loads(expected.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    for name, entry in data.items() if isinstance(data, dict) else []:
        if isinstance(entry, dict) and str(entry.get("expected", "")).upper() == "OK":
            path = root / "solutions" / name
            if _answer_language(path) is not None and path.is_file():
                return path
    return None


def _answer_language(path: Path) -> str | None:
    """The language of a solution that can write answers here: C++ (compiled as the task's own
    programs are) or Python (run by this interpreter)."""
    lang = of_path(path)
    return lang.name if lang is not None and lang.name in ANSWER_LANGUAGES else None


def _answer_argv(solution: Path) -> list[str]:
    lang = _answer_language(solution)
    if lang == PYTHON:
        return [sys.executable, str(solution)]
    if lang == CPP:
        return [str(compile_program(solution))]
    raise _fail(solution, "", "answers are written by a C++ (.cpp) or Python (.py) solution")


def generate_cases(root: Path, only: Iterable[str] | None = None, force: bool = False, answers: Path | None = None,
                   write_answers: bool = True, timeout_s: float = GENERATOR_TIMEOUT_S,
                   progress: Callable[[str], None] | None = None) -> GenResult:
    """Run every recipe of ``root``'s ``generator/cases.txt`` (``only``: these case names) and
    write the cases; see the module's docstring. Raises :class:`TaskError` (the file and line
    at fault) before writing anything when a recipe cannot be run."""
    root = Path(root).resolve()
    if not root.is_dir():
        raise _fail(root, "", "not a folder; expected a task folder (SPEC §2)")
    recipes_path = root / "generator" / "cases.txt"
    recipes = read_recipes(root)
    if only is not None:
        wanted = set(only)
        unknown = sorted(wanted - {r.case for r in recipes})
        if unknown:
            raise _fail(recipes_path, "", f"has no line for case(s) {', '.join(unknown)}")
        recipes = [r for r in recipes if r.case in wanted]
    c = Collector()
    meta = check_meta(root, c)
    kind = meta.kind or kind_from_layout(root)
    _check_names(recipes_path, recipes, kind, _open_pools(root))
    gen_src = root / "generator" / "gen_cases.cpp"
    if not gen_src.is_file():
        raise _fail(gen_src, "", "missing; expected the testlib generator that generator/cases.txt runs")
    gen = compile_program(gen_src)
    folder = "tests" if kind is TaskKind.BATCH else "cases"

    outputs: dict[Path, bytes] = {}
    for r in recipes:
        what = f"gen_cases {shlex.join(r.args)}"
        outputs[Path(folder) / f"{r.case}.in"] = _run([str(gen), *r.args], None, what, recipes_path,
                                                      f"line {r.line}", timeout_s)
        if progress:
            progress(f"{folder}/{r.case}.in  <- {what}")
    result = GenResult()
    if kind is TaskKind.BATCH and write_answers:
        _add_answers(root, outputs, answers, result, timeout_s)

    conflicts = [rel for rel, data in outputs.items()
                 if (root / rel).is_file() and (root / rel).read_bytes() != data]
    if conflicts and not force:
        raise TaskError([Problem(root / rel, "", "exists and differs from what its recipe prints now; "
                                 "--force overwrites it") for rel in conflicts])
    for rel, data in outputs.items():
        path = root / rel
        if path.is_file() and path.read_bytes() == data:
            result.unchanged.append(rel)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        result.written.append(rel)
    return result


def _add_answers(root: Path, outputs: dict[Path, bytes], answers: Path | None, result: GenResult,
                 timeout_s: float) -> None:
    """A batch task's expected outputs (``tests/<name>.out``): the answer solution on each input."""
    solution = _answer_solution(root, answers)
    if solution is None:
        result.warnings.append("no accepted solution (solutions/expected.json, \"expected\": \"OK\") to write "
                               "tests/*.out from; write them yourself or pass --answers SOLUTION")
        return
    if not solution.is_file():
        raise _fail(solution, "", "missing; expected the solution that writes tests/*.out")
    argv = _answer_argv(solution)
    for rel, data in list(outputs.items()):
        out = _run(argv, data, f"{solution.name} on {rel}", solution, "", timeout_s)
        outputs[rel.with_suffix(".out")] = out
    result.answers_from = solution
