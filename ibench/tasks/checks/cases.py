"""Where the cases live: interactors and case pools (interactive, grader), tests, checker and
subtasks (batch), and the grader stub."""

from __future__ import annotations

from pathlib import Path

from ..model import ADAPTIVE_POOL, NON_ADAPTIVE_POOL, Case, InteractorMode, Subtask, TaskKind
from .common import CASE_NAME, Collector, choices, is_number, json_type, natural_key, read_json

SUBTASK_GRADINGS = ("all", "min-score")
# Interactor file per mode (SPEC §2); "both" needs the two of them.
INTERACTOR_FILES: dict[str, str] = {"non_adaptive": "non_adaptive.cpp", "adaptive": "adaptive.cpp"}
_REQUIRED_INTERACTORS: dict[InteractorMode, tuple[str, ...]] = {
    InteractorMode.NON_ADAPTIVE: ("non_adaptive",),
    InteractorMode.ADAPTIVE: ("adaptive",),
    InteractorMode.BOTH: ("non_adaptive", "adaptive"),
}


def kind_from_layout(root: Path) -> TaskKind:
    if (root / "grader").is_dir():
        return TaskKind.GRADER
    if (root / "tests").is_dir() and not (root / "cases").is_dir():
        return TaskKind.BATCH
    return TaskKind.INTERACTIVE


def shipped_case_names(root: Path, kind: TaskKind) -> set[str]:
    folder = root / ("tests" if kind is TaskKind.BATCH else "cases")
    return {p.stem for p in folder.glob("*.in")} if folder.is_dir() else set()


def check_interactors(root: Path, mode: InteractorMode | None, c: Collector) -> dict[str, Path]:
    if mode is None:  # already reported in meta.json
        return {}
    found: dict[str, Path] = {}
    for name in _REQUIRED_INTERACTORS[mode]:
        path = root / "interactor" / INTERACTOR_FILES[name]
        if path.is_file():
            found[name] = path
        else:
            c.error(path, "", f"missing; interactor_mode {mode.value!r} (meta.json) requires it")
    for name, fname in INTERACTOR_FILES.items():
        path = root / "interactor" / fname
        if name not in _REQUIRED_INTERACTORS[mode] and path.is_file():
            c.warn(path, "", f"never used: interactor_mode {mode.value!r} does not serve any case with it")
    return found


def _pool_text(mode: InteractorMode | None) -> str:
    if mode is InteractorMode.NON_ADAPTIVE:
        return "001-100 (interactor_mode 'non_adaptive' has only the non-adaptive pool)"
    return "001-100 (non-adaptive pool) or 101-200 (adaptive pool)"


def check_interactive_cases(root: Path, mode: InteractorMode | None, c: Collector) -> list[Case]:
    cases_dir = root / "cases"
    if not cases_dir.is_dir():
        c.error(cases_dir, "", f"missing; expected hidden inputs cases/NNN.in with NNN in {_pool_text(mode)}")
        return []
    allowed = set(NON_ADAPTIVE_POOL) if mode is InteractorMode.NON_ADAPTIVE else set(NON_ADAPTIVE_POOL) | set(ADAPTIVE_POOL)
    cases: list[Case] = []
    for path in sorted(cases_dir.iterdir()):
        if path.name.startswith("."):
            continue
        if not path.is_file() or path.suffix != ".in":
            c.warn(path, "", "ignored: cases/ holds only NNN.in hidden inputs")
            continue
        name = path.stem
        if not CASE_NAME.fullmatch(name):
            c.error(path, "", f"case name {name!r} is not a 3-digit number; expected NNN.in with NNN in {_pool_text(mode)}")
            continue
        number = int(name)
        if number not in allowed:
            c.error(path, "", f"case {name} is outside the case pools; expected NNN in {_pool_text(mode)}")
            continue
        # Adaptive-only tasks serve their 001-100 cases with the adaptive interactor too.
        serves = "adaptive" if number in ADAPTIVE_POOL or mode is InteractorMode.ADAPTIVE else "non_adaptive"
        if path.stat().st_size == 0:
            c.warn(path, "", "is empty; expected a hidden input for the interactor")
        cases.append(Case(name=name, input_path=path, interactor=serves))
    if not cases:
        c.error(cases_dir, "", f"holds no valid case; expected at least one NNN.in with NNN in {_pool_text(mode)}")
    numbers = [int(case.name) for case in cases]
    if mode is InteractorMode.BOTH and numbers:
        if not any(n in NON_ADAPTIVE_POOL for n in numbers):
            c.error(cases_dir, "", "interactor_mode 'both' but no case in 001-100; expected cases in both pools")
        if not any(n in ADAPTIVE_POOL for n in numbers):
            c.error(cases_dir, "", "interactor_mode 'both' but no case in 101-200; expected cases in both pools")
    _warn_gaps(cases_dir, numbers, c)
    return cases


def _warn_gaps(cases_dir: Path, numbers: list[int], c: Collector) -> None:
    """Gaps are legal (a case may be retired) but usually a slip, so they are worth a warning."""
    for pool in (NON_ADAPTIVE_POOL, ADAPTIVE_POOL):
        used = sorted(n for n in numbers if n in pool)
        if not used:
            continue
        missing = [n for n in range(pool.start, used[-1]) if n not in set(used)]
        if missing:
            c.warn(cases_dir, "", f"case numbering has gaps: {number_ranges(missing)} missing (allowed, but check nothing was lost)")


def number_ranges(numbers: list[int]) -> str:
    """``[1, 2, 3, 7]`` -> ``"001-003, 007"`` (case numbers, for messages)."""
    if not numbers:
        return ""
    parts: list[str] = []
    start = prev = numbers[0]
    for n in numbers[1:] + [None]:  # type: ignore[list-item]
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(f"{start:03d}" if start == prev else f"{start:03d}-{prev:03d}")
        if n is not None:
            start = prev = n
    return ", ".join(parts)


def check_grader(root: Path, c: Collector) -> tuple[Path, ...]:
    gdir = root / "grader"
    stub = gdir / "stub.cpp"
    if not stub.is_file():
        c.error(stub, "", "missing; kind 'grader' needs the stub that owns main and forwards calls to the manager")
        return ()
    if not any(gdir.glob("*.h")):
        c.warn(gdir, "", "has no header; expected grader/<task>.h declaring the functions the solution implements")
    # The stub first, then any other grader sources, all linked with the solution.
    return (stub,) + tuple(sorted(p for p in gdir.glob("*.cpp") if p != stub))


def check_batch_tests(root: Path, c: Collector) -> list[Case]:
    tdir = root / "tests"
    if not tdir.is_dir():
        c.error(tdir, "", "missing; kind 'batch' expects tests/<name>.in with tests/<name>.out")
        return []
    ins: dict[str, Path] = {}
    outs: dict[str, Path] = {}
    for path in tdir.iterdir():
        if path.name.startswith("."):
            continue
        if path.is_file() and path.suffix == ".in":
            ins[path.stem] = path
        elif path.is_file() and path.suffix == ".out":
            outs[path.stem] = path
        else:
            c.warn(path, "", "ignored: tests/ holds only <name>.in and <name>.out files")
    cases: list[Case] = []
    for name in sorted(ins, key=natural_key):
        if name not in outs:
            c.error(ins[name], "", f"has no expected output; expected tests/{name}.out beside it")
            continue
        cases.append(Case(name=name, input_path=ins[name], answer_path=outs[name]))
    for name in sorted(set(outs) - set(ins), key=natural_key):
        c.error(outs[name], "", f"has no input; expected tests/{name}.in beside it")
    if not ins and not outs:
        c.error(tdir, "", "holds no tests; expected at least one <name>.in with its <name>.out")
    return cases


def check_checker(root: Path, c: Collector) -> Path | None:
    path = root / "checker" / "checker.cpp"
    if path.is_file():
        return path
    if (root / "checker").is_dir():
        c.error(path, "", "missing although checker/ exists; expected checker/checker.cpp (testlib, `checker <in> <out> <ans>`)")
    return None


def check_subtasks(root: Path, test_names: set[str], c: Collector) -> tuple[Subtask, ...]:
    path = root / "subtasks.json"
    if not path.exists():
        return ()
    data = read_json(path, c, 'an object like {"1": {"score": 30, "testcases": ["01"]}}')
    if data is None:
        return ()
    if not isinstance(data, dict) or not data:
        c.error(path, "", 'expected a non-empty object like {"1": {"score": 30, "testcases": ["01"], "grading": "all"}}')
        return ()
    subtasks: list[Subtask] = []
    referenced: set[str] = set()
    ok = True
    for sid in sorted(data, key=natural_key):
        sub = data[sid]
        if not isinstance(sub, dict):
            c.error(path, sid, f"is a JSON {json_type(type(sub))}; expected an object with score and testcases")
            ok = False
            continue
        score = sub.get("score")
        if not is_number(score) or score < 0:
            c.error(path, f"{sid}.score", f"{score!r} is not a non-negative number; expected the subtask's points")
            ok = False
        tests = sub.get("testcases")
        if not isinstance(tests, list) or not all(isinstance(t, str) for t in tests):
            c.error(path, f"{sid}.testcases", f"{tests!r} is not a list of test names; expected names of tests/*.in without .in")
            ok = False
            tests = []
        unknown = [t for t in tests if t not in test_names]
        # With no tests at all the root cause is already reported; don't repeat it per name.
        if unknown and test_names:
            c.error(path, f"{sid}.testcases", f"{_some(unknown)} {'is not a test' if len(unknown) == 1 else 'are not tests'}; "
                    "expected names of tests/*.in (without .in)")
            ok = False
        elif unknown:
            ok = False
        if isinstance(sub.get("testcases"), list) and not tests:
            c.warn(path, f"{sid}.testcases", "is empty: the subtask's points can never be earned")
        referenced.update(tests)
        grading = sub.get("grading", "all")
        if grading not in SUBTASK_GRADINGS:
            c.error(path, f"{sid}.grading", f"{grading!r} is not a grading; expected one of {choices(SUBTASK_GRADINGS)}")
            ok = False
        for key in set(sub) - {"score", "testcases", "grading"}:
            c.warn(path, f"{sid}.{key}", "unknown key, ignored")
        if ok:
            assert is_number(score)  # ok still holds, so this subtask's score passed the check above
            subtasks.append(Subtask(id=sid, score=score, tests=tuple(tests), grading=grading))
    unreferenced = sorted(test_names - referenced, key=natural_key)
    if unreferenced:
        c.error(path, "testcases", f"tests {_some(unreferenced)} are in no subtask; expected every test in at least one subtask")
    return tuple(subtasks) if ok else ()


def _some(names: list[str], shown: int = 10) -> str:
    """A readable list of names, cut after ``shown`` of them."""
    head = ", ".join(repr(n) for n in names[:shown])
    return head if len(names) <= shown else f"{head} and {len(names) - shown} more"
