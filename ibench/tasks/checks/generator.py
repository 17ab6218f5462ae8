"""generator/gen_cases.cpp and generator/cases.txt (the recipes `validate` replays)."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

from ..model import ADAPTIVE_POOL, InteractorMode
from .common import CASE_NAME, Collector


@dataclass(frozen=True)
class CaseRecipe:
    """One line of generator/cases.txt: how to regenerate a shipped case."""

    case: str
    args: tuple[str, ...]
    line: int


def check_generator(root: Path, case_names: set[str], mode: InteractorMode | None, c: Collector) -> Path | None:
    gen = root / "generator" / "gen_cases.cpp"
    recipes_path = root / "generator" / "cases.txt"
    if recipes_path.is_file():
        if not gen.is_file():
            c.error(recipes_path, "", "lists generated cases but generator/gen_cases.cpp is missing; expected the generator beside it")
        recipes = parse_recipes(c, recipes_path, case_names)
        _lint_recipe_modes(recipes_path, recipes, mode, c)
    return gen if gen.is_file() else None


def parse_recipes(c: Collector, path: Path, case_names: set[str]) -> list[CaseRecipe]:
    recipes: list[CaseRecipe] = []
    seen: dict[str, int] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        c.error(path, "", f"not UTF-8 text ({e.reason}); expected lines '<case-name> <generator args...>'")
        return []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"line {lineno}"
        try:
            tokens = shlex.split(line, comments=True)
        except ValueError as e:
            c.error(path, where, f"cannot be split into arguments ({e}); expected '<case-name> <generator args...>'")
            continue
        if len(tokens) < 2:
            c.error(path, where, f"{line.strip()!r} has no generator arguments; expected '<case-name> <generator args...>', e.g. '001 1 --mode non'")
            continue
        name, args = tokens[0], tuple(tokens[1:])
        if name not in case_names:
            if case_names:  # with no shipped case at all, the root cause is reported once elsewhere
                c.error(path, where, f"names case {name!r}, which does not exist; "
                        f"expected the name of a shipped case (cases/{name}.in or tests/{name}.in)")
            continue
        if name in seen:
            c.error(path, where, f"case {name!r} is already generated on line {seen[name]}; expected one line per case")
            continue
        seen[name] = lineno
        recipes.append(CaseRecipe(name, args, lineno))
    return recipes


def _lint_recipe_modes(path: Path, recipes: list[CaseRecipe], mode: InteractorMode | None, c: Collector) -> None:
    """A `--mode` that disagrees with the case's pool is almost always a copy-paste slip."""
    if mode is None:
        return
    for r in recipes:
        gen_mode = _opt_value(r.args, "mode")
        if gen_mode is None or not CASE_NAME.fullmatch(r.case):
            continue
        adaptive_served = int(r.case) in ADAPTIVE_POOL or mode is InteractorMode.ADAPTIVE
        if adaptive_served and gen_mode == "non":
            c.warn(path, f"line {r.line}", f"case {r.case} is served by the adaptive interactor but is generated with --mode non")
        elif not adaptive_served and gen_mode == "adp":
            c.warn(path, f"line {r.line}", f"case {r.case} is served by the non-adaptive interactor but is generated with --mode adp")


def _opt_value(args: tuple[str, ...], key: str) -> str | None:
    for i, a in enumerate(args):
        if a in (f"--{key}", f"-{key}") and i + 1 < len(args):
            return args[i + 1]
        for prefix in (f"--{key}=", f"-{key}="):
            if a.startswith(prefix):
                return a[len(prefix):]
    return None
