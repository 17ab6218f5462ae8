"""The task card's judge contract (meta.json ``contract``, ``validator_flags``,
``interactor_cpu_ms``, ``case_pools``), ICPC validator folders, and open-numbered interactive
cases (imported packages: any number of cases, each with an optional answer file)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..model import Case, InteractorMode, TaskKind
from .common import Collector, choices, is_int, is_number

CONTRACTS = ("testlib", "icpc")
CASE_POOLS = ("spec", "open")
OPEN_CASE = re.compile(r"\d{3,}")


@dataclass
class Contract:
    contract: str = "testlib"
    flags: tuple[str, ...] = ()
    interactor_cpu_ms: int | None = None
    open_cases: bool = False


def check_contract(root: Path, raw: dict, kind: TaskKind | None, mode: InteractorMode | None, c: Collector) -> Contract:
    path = root / "meta.json"
    out = Contract()
    contract = raw.get("contract", "testlib")
    if contract not in CONTRACTS:
        c.error(path, "contract", f"{contract!r}; expected one of {choices(CONTRACTS)}")
    elif contract == "icpc" and kind is TaskKind.GRADER:
        c.error(path, "contract", "'icpc' is for batch and interactive tasks, not grader-linked ones")
    else:
        out.contract = contract
    flags = raw.get("validator_flags", [])
    if not isinstance(flags, list) or not all(isinstance(f, str) for f in flags):
        c.error(path, "validator_flags", f"{flags!r}; expected a list of strings (the validator's flags)")
    elif flags and out.contract != "icpc":
        c.error(path, "validator_flags", "only for \"contract\": \"icpc\" (testlib programs take no flags)")
    else:
        out.flags = tuple(flags)
    if out.contract == "icpc" and kind is TaskKind.BATCH and not (root / "checker").is_dir():
        from ibench.judge.default_validator import parse_flags

        try:
            parse_flags(out.flags)
        except ValueError as e:
            c.error(path, "validator_flags", f"{e} (no checker/: the default output validator reads them)")
    cpu = raw.get("interactor_cpu_ms")
    if cpu is not None:
        if not is_int(cpu) or cpu <= 0:
            c.error(path, "interactor_cpu_ms", f"{cpu!r}; expected a positive integer (the interactor's own CPU budget)")
        else:
            out.interactor_cpu_ms = cpu
    score_txt = raw.get("score_txt")
    if score_txt is not None:
        shape = isinstance(score_txt, dict) and all(
            isinstance(v, dict) and is_number(v.get("max")) and v["max"] > 0 and is_number(v.get("accept", 0))
            for v in score_txt.values())
        if not shape:
            c.error(path, "score_txt", 'expected {"<case>": {"max": <points, > 0>, "accept": <points>}, ...}')
        elif out.contract != "icpc":
            c.error(path, "score_txt", "only for \"contract\": \"icpc\" (score.txt is the ICPC validators' file)")
    pools = raw.get("case_pools", "spec")
    if pools not in CASE_POOLS:
        c.error(path, "case_pools", f"{pools!r}; expected one of {choices(CASE_POOLS)}")
    elif pools == "open":
        if kind is TaskKind.BATCH:
            c.warn(path, "case_pools", "ignored for kind 'batch' (tests are named freely)")
        elif mode is InteractorMode.BOTH:
            c.error(path, "case_pools", "'open' serves every case with one interactor; expected interactor_mode "
                                        "'non_adaptive' or 'adaptive', not 'both'")
        else:
            out.open_cases = True
    return out


def check_program_dir(folder: Path, what: str, c: Collector) -> Path | None:
    """A validator folder (ICPC contract): C++ sources compiled together, or Python."""
    from ibench.judge.validator import program_sources

    if not folder.is_dir():
        c.error(folder, "", f"missing; \"contract\": \"icpc\" expects the {what}'s sources in this folder")
        return None
    try:
        program_sources(folder)
    except ValueError as e:
        c.error(folder, "", str(e))
        return None
    return folder


def check_open_cases(root: Path, mode: InteractorMode | None, c: Collector) -> list[Case]:
    """cases/NNN.in (three digits or more, any count) with an optional cases/NNN.ans each."""
    cases_dir = root / "cases"
    if not cases_dir.is_dir():
        c.error(cases_dir, "", "missing; expected hidden inputs cases/NNN.in")
        return []
    serves = "adaptive" if mode is InteractorMode.ADAPTIVE else "non_adaptive"
    answers = {p.stem for p in cases_dir.glob("*.ans")}
    cases: list[Case] = []
    names: set[str] = set()
    for path in sorted(cases_dir.iterdir(), key=lambda p: (len(p.stem), p.name)):
        if path.name.startswith(".") or path.suffix == ".ans":
            continue
        if not path.is_file() or path.suffix != ".in":
            c.warn(path, "", "ignored: cases/ holds only NNN.in hidden inputs and NNN.ans answers")
            continue
        if not OPEN_CASE.fullmatch(path.stem):
            c.error(path, "", f"case name {path.stem!r} is not a number of three digits or more; expected NNN.in")
            continue
        names.add(path.stem)
        answer = cases_dir / f"{path.stem}.ans"
        cases.append(Case(name=path.stem, input_path=path, answer_path=answer if answer.is_file() else None,
                          interactor=serves))
    for stem in sorted(answers - names):
        c.error(cases_dir / f"{stem}.ans", "", f"has no input; expected cases/{stem}.in beside it")
    if not cases:
        c.error(cases_dir, "", "holds no valid case; expected at least one NNN.in")
    return cases
