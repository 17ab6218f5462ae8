"""``--hunt N``: look for a case that kills a surviving mutant, with the task's own generator.

For an interactive task with ``generator/cases.txt``, each try takes one shipped recipe (in turn)
with a fresh seed, generates the case and judges the survivor on it. A killing case is kept only
if every accepted solution passes it. With ``--add-cases`` it is written into the task as the next
free case of the recipe's pool (``cases/NNN.in`` plus its ``cases.txt`` line), read from the
task's actual case list: the number after the highest for an open-numbered task (no cap), the
first free one of the SPEC pool (001-100, 101-200) otherwise; ``validate`` regenerates it byte for
byte like the others. A survivor no try kills is left for a person to
decide (``--accept-equivalent``).
"""

from __future__ import annotations

import dataclasses
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..load import read_case_recipes, solution_language
from ..model import ADAPTIVE_POOL, NON_ADAPTIVE_POOL, Case, Task

SEED_STEP = 100003


@dataclass
class Found:
    mutant: str
    pool: str  # "non_adaptive" | "adaptive"
    args: list[str]
    data: bytes
    label: str
    recipe_case: str  # the shipped case whose recipe it varies (its pool is the new case's pool)


def _case_for(task: Task, name: str, path: Path) -> Case:
    """A generated variant of the task's case ``name``, served by the interactor that serves
    that case in the task's own case list (an open-numbered task's one interactor, or the pool
    the case is in); a recipe naming no case on disk falls back to the SPEC's numbering."""
    shipped = next((c for c in task.cases if c.name == name), None)
    pool = shipped.interactor if shipped is not None and shipped.interactor else None
    if pool is None:
        spec = "adaptive" if name.isdigit() and int(name) in ADAPTIVE_POOL else "non_adaptive"
        pool = spec if spec in task.interactors else next(iter(task.interactors))
    return Case(name, path, None, pool)


def hunt(task: Task, mutant_id: str, source: str, tries: int, settings) -> Found | None:
    """The first generated case (of ``tries``) that rejects ``source`` and that every accepted
    solution passes; None if none does (or the task cannot be hunted)."""
    from ibench.judge import Judge

    if not task.is_interactive or not task.generator or tries <= 0:
        return None
    recipes = [r for r in read_case_recipes(task) if r.args and r.args[0].lstrip("-").isdigit()]
    if not recipes:
        return None
    judge = Judge.shared(dataclasses.replace(settings, all_cases=False))
    gen = judge.compile_tool(task, task.generator)
    accepted = [s for s in task.solutions if s.accepted and s.variant == "interactive"
                and not s.path.name.startswith("hostile")]
    with tempfile.TemporaryDirectory(prefix="ibench-hunt-") as tmp:
        for i in range(tries):
            r = recipes[i % len(recipes)]
            args = [str(int(r.args[0]) + SEED_STEP * (i // len(recipes) + 1)), *r.args[1:]]
            proc = subprocess.run([str(gen), *args], cwd=tmp, capture_output=True, timeout=30)
            if proc.returncode != 0 or not proc.stdout:
                continue
            path = Path(tmp) / f"{r.case}.in"
            path.write_bytes(proc.stdout)
            case = _case_for(task, r.case, path)
            res = judge.judge(task, source, language="cpp", cases=[case])
            if res.verdict.value in ("OK", "SE"):
                continue
            if all(judge.judge(task, s.path.read_text(encoding="utf-8"), language=solution_language(s.path),
                               cases=[case]).verdict.value == "OK" for s in accepted):
                return Found(mutant_id, case.interactor or "non_adaptive", args, proc.stdout, res.verdict.value, r.case)
    return None


def next_case_name(task: Task, pool: str) -> str | None:
    """The name a new case of ``pool`` gets, from the task's actual case list (and the names
    ``generator/cases.txt`` lists): an open-numbered task (``"case_pools": "open"``) takes the
    number after its highest, with no cap; a SPEC task the first free number of the pool's range
    (001-100 non-adaptive, 101-200 adaptive), None when that pool is full."""
    used = {c.name for c in task.cases} | _listed(task)
    numbers = {int(n) for n in used if n.isdigit()}
    if task.open_cases:
        return f"{max(numbers, default=0) + 1:03d}"
    span = ADAPTIVE_POOL if pool == "adaptive" else NON_ADAPTIVE_POOL
    free = next((n for n in span if n not in numbers), None)
    return None if free is None else f"{free:03d}"


def add_case(task: Task, found: Found) -> str | None:
    """Write a found case into the task as the next name of its pool (:func:`next_case_name`);
    its name, or None when that pool is full."""
    name = next_case_name(task, found.pool)
    if name is None:
        return None
    (task.root / "cases" / f"{name}.in").write_bytes(found.data)
    recipes = task.root / "generator" / "cases.txt"
    text = recipes.read_text(encoding="utf-8") if recipes.is_file() else ""
    if text and not text.endswith("\n"):
        text += "\n"
    recipes.write_text(text + f"{name} {' '.join(found.args)}\n", encoding="utf-8")
    return name


def _listed(task: Task) -> set[str]:
    path = task.root / "generator" / "cases.txt"
    out: set[str] = set()
    if not path.is_file():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if parts and parts[0].isdigit():
            out.add(parts[0])
    return out
