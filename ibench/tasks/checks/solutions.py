"""solutions/ and solutions/expected.json (known solutions and their expected verdicts)."""

from __future__ import annotations

import re
from pathlib import Path

from ibench.judge.verdict import Verdict, parse_verdict
from ibench.languages import BY_EXTENSION
from ibench.variants import VARIANTS, Variant

from ..model import KnownSolution, TaskKind
from .common import Collector, choices, is_number, json_type, read_json

# Source files the judge can run as a known solution, by extension (ibench/languages.py).
SOLUTION_LANGUAGES: dict[str, str] = BY_EXTENSION


def check_solutions(root: Path, kind: TaskKind | None, scored: bool, c: Collector) -> tuple[KnownSolution, ...]:
    sdir = root / "solutions"
    path = sdir / "expected.json"
    if not sdir.is_dir():
        c.warn(sdir, "", "missing: no known solutions, so `validate` cannot check this task and the reference model skips it")
        return ()
    sources = sorted(p.name for p in sdir.iterdir() if p.is_file() and p.suffix in SOLUTION_LANGUAGES)
    if not path.is_file():
        if not sources:
            c.warn(sdir, "", "holds no solutions and no expected.json")
        return _verdicts_from_names(sdir, sources, c)
    data = read_json(path, c, 'an object like {"ok.cpp": {"expected": "OK", "note": "..."}}')
    if data is None:
        return ()
    if not isinstance(data, dict):
        c.error(path, "", f"top level is a JSON {json_type(type(data))}; expected an object mapping file names to {{\"expected\": ...}}")
        return ()
    solutions: list[KnownSolution] = []
    for name in sorted(data):
        entry = data[name]
        file = sdir / name
        if "/" in name or "\\" in name or name.startswith("."):
            c.error(path, name, "is not a plain file name; expected a file directly inside solutions/")
            continue
        if not file.is_file():
            c.error(path, name, f"names solutions/{name}, which does not exist; expected an existing file in solutions/")
        elif file.suffix not in SOLUTION_LANGUAGES:
            # Kept loadable: the task still judges the languages the judge runs.
            c.warn(path, name, f"is not in a language the judge runs ({choices(SOLUTION_LANGUAGES)}); left out")
        if not isinstance(entry, dict):
            c.error(path, name, f"is a JSON {json_type(type(entry))}; expected an object like {{\"expected\": \"OK\", \"note\": \"...\"}}")
            continue
        accepts: tuple[str, ...] = ()
        if isinstance(entry.get("expected"), list):  # a set: any of these labels agrees (imported packages)
            verdicts = [_entry_verdict(path, name, {"expected": v}, c) for v in entry["expected"]]
            if not verdicts:
                c.error(path, f"{name}.expected", "is an empty list; expected a verdict or a non-empty list of verdicts")
            verdict = verdicts[0] if verdicts and all(v is not None for v in verdicts) else None
            accepts = tuple(dict.fromkeys(v.value for v in verdicts if v is not None))
        else:
            verdict = _entry_verdict(path, name, entry, c)
        tag = entry.get("tag", "")
        if not isinstance(tag, str):
            c.error(path, f"{name}.tag", f"{tag!r} is not a string; expected the package's own name for the expectation")
            tag = ""
        score = entry.get("score")
        if score is not None:
            if not is_number(score) or score < 0:
                c.error(path, f"{name}.score", f"{score!r} is not a non-negative number; expected the expected task score")
                score = None
            elif not scored:  # batch or interactive: validate compares it wherever subtasks.json scores the task
                c.warn(path, f"{name}.score", "only compared for tasks with subtasks.json; ignored here")
        note = entry.get("note", "")
        if not isinstance(note, str):
            c.error(path, f"{name}.note", f"{note!r} is not a string; expected a short description")
            note = ""
        early = _entry_verdict(path, name, entry, c, key="expected_early_exit") if "expected_early_exit" in entry else None
        variant = entry.get("variant", "interactive")
        if variant not in VARIANTS:
            c.error(path, f"{name}.variant", f"{variant!r}; expected \"interactive\" (the default) or \"batch\" "
                                             "(the batch variant: judged with the hidden case on stdin first, "
                                             "InteractBench C.1)")
            variant = None
        elif variant == Variant.BATCH and kind is not TaskKind.INTERACTIVE:
            c.error(path, f"{name}.variant", "\"batch\" (the batch variant) is only for stdio-interactive tasks (the "
                                             "hidden case reaches the solver's stdin before the interaction)")
            variant = None
        for key in set(entry) - {"expected", "expected_early_exit", "score", "note", "variant", "tag"}:
            c.warn(path, f"{name}.{key}", "unknown key, ignored")
        if verdict is not None and variant is not None and file.is_file() and file.suffix in SOLUTION_LANGUAGES:
            solutions.append(KnownSolution(path=file, expected=verdict.value,
                                           score=float(score) if score is not None else None, note=note,
                                           expected_early_exit=early.value if early is not None else None,
                                           variant=variant, accepts=accepts if len(accepts) > 1 else (),
                                           tag=tag))
    for name in sources:
        if name not in data:
            c.error(path, name, f"solutions/{name} is not listed; expected every solution to have an expected verdict")
    if solutions and not any(s.accepted and s.variant == "interactive" for s in solutions):
        c.warn(path, "", "lists no accepted (OK) solution: nothing shows the task is solvable")
    return tuple(solutions)


_NAME_LABEL = re.compile(r"[A-Za-z]+")


def _verdicts_from_names(sdir: Path, sources: list[str], c: Collector) -> tuple[KnownSolution, ...]:
    """Without expected.json, a file named by its verdict (`ok_*.cpp`, `wa2.cpp`, `tle-spin.py`,
    `ac.cpp`) still counts as a known solution; others are left out, with a warning. A task
    folder from elsewhere thus loads and judges without ibench's own metadata."""
    solutions = []
    unknown = []
    for name in sources:
        m = _NAME_LABEL.match(name)
        try:
            verdict = parse_verdict(m.group(0)) if m else None
        except ValueError:
            verdict = None
        if verdict is None or verdict is Verdict.SE:
            unknown.append(name)
            continue
        solutions.append(KnownSolution(path=sdir / name, expected=verdict.value, note="verdict from the file name"))
    if solutions:
        c.warn(sdir / "expected.json", "", f"missing; took the expected verdicts of {len(solutions)} solution(s) "
                                          "from their file names (ok_*, wa_*, tle_*, ...)")
    if unknown:
        c.warn(sdir / "expected.json", "", f"missing, and the file names of {', '.join(unknown)} name no verdict; "
                                          "they are not used (give each an entry in expected.json)")
    return tuple(solutions)


def _entry_verdict(path: Path, name: str, entry: dict, c: Collector, key: str = "expected") -> Verdict | None:
    raw = entry.get(key)
    if raw is None:
        c.error(path, f"{name}.{key}", f"missing; expected a verdict ({choices(v.value for v in Verdict)})")
        return None
    if not isinstance(raw, str):
        c.error(path, f"{name}.{key}", f"{raw!r} is not a string; expected a verdict ({choices(v.value for v in Verdict)})")
        return None
    try:
        verdict = parse_verdict(raw)
    except ValueError as e:
        c.error(path, f"{name}.{key}", str(e))
        return None
    if verdict is Verdict.SE:
        c.warn(path, f"{name}.{key}", "SE is the judge's own failure, never a solution's; is this intended?")
    return verdict
