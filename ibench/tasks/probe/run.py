"""Build every mutant of a task, judge it with the project's judge, and sum up.

Statuses: a Category A (source) mutant is ``killed`` (rejected on some case), ``survived``
(accepted on every case: a weakness or an equivalent mutant), ``equivalent`` (a survivor the
task card records as equivalent, with its reason, or one whose compiled binary is byte for byte
the solution's own) or ``stillborn`` (does not compile; not counted). A Category B (protocol)
mutant is ``compliant`` when it gets one of its required labels, else ``noncompliant``.
LLM mutants are ``killed`` or ``survived`` and counted apart.

Mutation score = killed / (made - equivalent - stillborn), over the Category A mutants.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from ..load import solution_language
from ..model import KnownSolution, Task
from .facts import FactError, Facts, parse_facts
from .protocol import protocol_mutants
from .source import source_mutants

if TYPE_CHECKING:
    from ibench.judge import JudgeSettings

DEFAULT_MAX_SOURCE = 24  # Category A mutants per task (over its accepted solutions)


@dataclass
class Mutant:
    """One mutant to judge (picklable: it travels to worker processes)."""

    id: str
    task: Task
    category: str  # "A" | "B" | "LLM-A" | "LLM-B"
    kind: str
    solution: str
    source: str
    description: str = ""
    diff: str = ""
    required: tuple[str, ...] = ()
    original: str = ""  # the solution's source (Category A: to compare binaries)
    fingerprint: str = ""  # LLM mutants: digest of the prompt and the model identity


@dataclass
class Record:
    task: str
    id: str
    category: str
    kind: str
    solution: str
    status: str
    label: str
    required: str = ""
    cases_passed: int = 0
    cases_run: int = 0
    passed_cases: str = ""  # the cases a survivor passed (all of them), or those passed before the kill
    message: str = ""
    description: str = ""
    diff: str = ""
    reason: str = ""  # why a mutant is equivalent
    fingerprint: str = ""

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclass
class TaskProbe:
    task: str
    records: list[Record] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # why something was not built

    def count(self, category: str, *statuses: str) -> int:
        return sum(1 for r in self.records if r.category == category and (not statuses or r.status in statuses))

    @property
    def made(self) -> int:
        return self.count("A")

    @property
    def killed(self) -> int:
        return self.count("A", "killed")

    @property
    def survived(self) -> int:
        return self.count("A", "survived")

    @property
    def equivalent(self) -> int:
        return self.count("A", "equivalent")

    @property
    def stillborn(self) -> int:
        return self.count("A", "stillborn")

    @property
    def score(self) -> float | None:
        denom = self.made - self.equivalent - self.stillborn
        return self.killed / denom if denom > 0 else None

    @property
    def b_made(self) -> int:
        return self.count("B")

    @property
    def b_compliant(self) -> bool | None:
        if not self.b_made:
            return None
        return self.count("B", "compliant") == self.b_made

    @property
    def errors(self) -> int:
        return sum(1 for r in self.records if r.status == "error")

    @property
    def ok(self) -> bool:
        """Category B fully met, no unexplained survivor, no judge error."""
        llm_survivors = sum(1 for r in self.records if r.category.startswith("LLM") and r.status == "survived")
        return self.b_compliant is not False and self.survived == 0 and self.errors == 0 and llm_survivors == 0

    def summary(self) -> dict:
        return {"task": self.task, "made": self.made, "killed": self.killed, "survived": self.survived,
                "equivalent": self.equivalent, "stillborn": self.stillborn, "mutation_score": self.score,
                "b_made": self.b_made, "b_compliant_count": self.count("B", "compliant"),
                "b_compliant": self.b_compliant,
                "llm_made": sum(1 for r in self.records if r.category.startswith("LLM")),
                "llm_killed": sum(1 for r in self.records if r.category.startswith("LLM") and r.status == "killed"),
                "errors": self.errors, "ok": self.ok, "notes": self.notes}


def task_facts(task: Task) -> Facts:
    try:
        return parse_facts(task.meta.get("probe"))
    except FactError:
        return Facts()  # `ibench.tasks check` reports it; the probe runs the generic mutants


def probe_solutions(task: Task) -> list[KnownSolution]:
    """The accepted C++ solutions of the task as stated (not batch-variant replays, not sandbox probes)."""
    return [s for s in task.solutions if s.accepted and s.variant == "interactive"
            and solution_language(s.path) == "cpp" and not s.path.name.startswith("hostile")]


def plan_mutants(task: Task, max_source: int | None = DEFAULT_MAX_SOURCE, categories: str = "AB") -> tuple[list[Mutant], list[str]]:
    notes: list[str] = []
    sols = probe_solutions(task)
    if not sols:
        return [], ["no accepted C++ solution to mutate"]
    facts = task_facts(task)
    mutants: list[Mutant] = []
    if "B" in categories:
        if task.stdio_interactive:
            for sol in sols:
                src = sol.path.read_text(encoding="utf-8")
                for pm in protocol_mutants(sol.path.name, src, facts):
                    mutants.append(Mutant(pm.id, task, "B", pm.kind, sol.path.name, pm.source, pm.description,
                                          required=pm.required))
            if not facts.budget and "probe" in task.meta:
                notes.append("no budget in the card: extra_query not built")
        else:
            notes.append(f"Category B not built: {task.kind.value} task (no stdin/stdout protocol to mutate)")
    if "A" in categories:
        per = None if max_source is None else max(1, -(-max_source // len(sols)))
        chosen: list[Mutant] = []
        for sol in sols:
            src = sol.path.read_text(encoding="utf-8")
            for sm in source_mutants(sol.path.name, src, limit=per, seed=task.task_id):
                chosen.append(Mutant(sm.id, task, "A", sm.operator, sol.path.name, sm.source, sm.description, sm.diff,
                                     original=src))
        if max_source is not None:
            chosen = chosen[:max_source]
        mutants.extend(chosen)
    return mutants, notes


# --------------------------------------------------------------------------------------------
# Judging one mutant


def _binary_digest(judge, task: Task, source: str) -> str | None:
    prog = judge.compile_solution(task, source, "cpp")
    if prog.binary is None:
        return None
    try:
        return hashlib.sha256(Path(prog.binary).read_bytes()).hexdigest()
    except OSError:
        return None


def judge_mutant(m: Mutant, settings: "JudgeSettings") -> Record:
    """Judge one mutant (early exit: the first failing case decides); never raises."""
    from ibench.judge import Judge

    base: dict[str, Any] = dict(task=m.task.task_id, id=m.id, category=m.category, kind=m.kind,
                                solution=m.solution, description=m.description, diff=m.diff,
                                required="/".join(m.required), fingerprint=m.fingerprint)
    try:
        judge = Judge.shared(dataclasses.replace(settings, all_cases=False))
        result = judge.judge(m.task, m.source, language="cpp")
        label = result.verdict.value
        passed = [c.case for c in result.cases if c.verdict.value == "OK"]
        rec = Record(**base, status="", label=label, cases_passed=len(passed), cases_run=len(result.cases),
                     passed_cases=" ".join(passed), message=result.message[:300])
        if label == "SE":
            rec.status = "error"
        elif m.category == "B":
            rec.status = "compliant" if label in m.required else "noncompliant"
        elif label == "CE":
            rec.status = "stillborn"
        elif label == "OK":
            rec.status = "survived"
            if m.original and _binary_digest(judge, m.task, m.source) == _binary_digest(judge, m.task, m.original):
                rec.status, rec.reason = "equivalent", "compiles to the solution's own binary"
        else:
            rec.status = "killed"
        return rec
    except Exception as e:  # report, do not lose the rest of the run
        tail = traceback.format_exc().strip().splitlines()[-1]
        return Record(**base, status="error", label="ERROR", message=f"{type(e).__name__}: {tail}"[:300])


def _execute(mutants: list[Mutant], settings, jobs: int) -> Iterable[tuple[int, Record]]:
    if jobs <= 1:
        for i, m in enumerate(mutants):
            yield i, judge_mutant(m, settings)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(judge_mutant, m, settings): i for i, m in enumerate(mutants)}
        for f in as_completed(futures):
            yield futures[f], f.result()


def probe_tasks(tasks: Sequence[Task], settings: "JudgeSettings | None" = None, jobs: int = 1,
                max_source: int | None = DEFAULT_MAX_SOURCE, categories: str = "AB",
                extra: dict[str, list[Mutant]] | None = None, on_task=None) -> list[TaskProbe]:
    """Probe ``tasks``; ``extra`` adds mutants per task id (LLM mutants); ``on_task(TaskProbe)``
    is called as each task completes."""
    if settings is None:
        from ibench.judge import JudgeSettings

        settings = JudgeSettings()
    planned: list[Mutant] = []
    results: dict[str, TaskProbe] = {}
    for task in tasks:
        ms, notes = plan_mutants(task, max_source, categories)
        ms.extend((extra or {}).get(task.task_id, []))
        results[task.task_id] = TaskProbe(task.task_id, notes=notes)
        planned.extend(ms)
    remaining = {t.task_id: 0 for t in tasks}
    for m in planned:
        remaining[m.task.task_id] += 1
    for t in tasks:
        if remaining[t.task_id] == 0 and on_task:
            on_task(results[t.task_id])
    got: dict[str, list[tuple[int, Record]]] = {}
    for i, rec in _execute(planned, settings, jobs):
        tid = planned[i].task.task_id
        got.setdefault(tid, []).append((i, rec))
        remaining[tid] -= 1
        if remaining[tid] == 0:
            probe = results[tid]
            probe.records = [r for _, r in sorted(got[tid], key=lambda t: t[0])]
            _apply_equivalents(next(t for t in tasks if t.task_id == tid), probe)
            if on_task:
                on_task(probe)
    return [results[t.task_id] for t in tasks]


def _apply_equivalents(task: Task, probe: TaskProbe) -> None:
    eq = task_facts(task).equivalent
    for r in probe.records:
        if r.id in eq:
            if r.status == "survived":
                r.status, r.reason = "equivalent", eq[r.id]
            elif r.category == "A" and r.status == "killed":
                probe.notes.append(f"{r.id} is recorded as equivalent but was killed ({r.label}): remove the record")


# --------------------------------------------------------------------------------------------
# Writing into the task: equivalents and kept mutants


def dump_card(meta: dict) -> str:
    """meta.json text: two-space indent, short lists of scalars on one line (the bundled style)."""
    def enc(v, indent: int) -> str:
        pad, inner = "  " * indent, "  " * (indent + 1)
        if isinstance(v, dict):
            if not v:
                return "{}"
            items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {enc(x, indent + 1)}" for k, x in v.items()]
            return "{\n" + ",\n".join(items) + "\n" + pad + "}"
        if isinstance(v, list):
            if all(not isinstance(x, (dict, list)) for x in v):
                return json.dumps(v, ensure_ascii=False)
            return "[\n" + ",\n".join(inner + enc(x, indent + 1) for x in v) + "\n" + pad + "]"
        return json.dumps(v, ensure_ascii=False)
    return enc(meta, 0) + "\n"


def accept_equivalent(task_root: Path, mutant_id: str, reason: str) -> None:
    path = task_root / "meta.json"
    meta = json.loads(path.read_text(encoding="utf-8"))
    probe = meta.setdefault("probe", {})
    probe.setdefault("equivalent", {})[mutant_id] = reason.strip()
    parse_facts(probe)  # refuse to write a card `check` would reject
    path.write_text(dump_card(meta), encoding="utf-8")


def keep_mutants(task: Task, probe: TaskProbe, mutants: dict[str, str], settings: "JudgeSettings",
                 limit: int = 3) -> list[str]:
    """Write informative killed mutants into the task as known solutions with their labels.

    Informative: a Category B mutant that met its required label (not IDLE ones: each costs the
    wall-clock cap on every case), and the Category A mutants killed by the fewest cases (at most
    ``limit``): the ones a weaker interactor or fewer cases would let through. Each is judged
    again on every case for the label ``expected.json`` states (and its early-exit label)."""
    from ibench.judge import Judge

    full = Judge.shared(dataclasses.replace(settings, all_cases=True))
    chosen: list[Record] = []
    seen_kinds: set[str] = set()
    for r in probe.records:
        if r.category == "B" and r.status == "compliant" and r.label != "IDLE" and r.kind not in seen_kinds:
            seen_kinds.add(r.kind)
            chosen.append(r)
    scored = []
    for r in probe.records:
        if r.category == "A" and r.status == "killed":
            res = full.judge(task, mutants[r.id], language="cpp")
            failing = sum(1 for c in res.cases if c.verdict.value != "OK")
            scored.append((failing, r.id, r, res.verdict.value))
    scored.sort(key=lambda t: (t[0], t[1]))
    labels: dict[str, str] = {}
    for failing, _, r, label in scored[:limit]:
        chosen.append(r)
        labels[r.id] = label
    exp_path = task.root / "solutions" / "expected.json"
    expected = json.loads(exp_path.read_text(encoding="utf-8")) if exp_path.is_file() else {}
    written = []
    for r in chosen:
        label = labels.get(r.id) or full.judge(task, mutants[r.id], language="cpp").verdict.value
        stem = Path(r.solution).stem
        kind = r.kind.replace("[", "").replace("]", "")
        tag = f"{kind}_{r.id.rsplit(':', 1)[-1]}" if r.category == "A" else kind
        name = f"{label.lower()}_probe_{r.category.lower()}_{stem}_{tag}.cpp"
        if name in expected:
            continue
        (task.root / "solutions" / name).write_text(mutants[r.id], encoding="utf-8")
        entry = {"expected": label, "note": f"probe mutant {r.id}: {r.description}"}
        if r.label != label:
            entry["expected_early_exit"] = r.label
        expected[name] = entry
        written.append(name)
    lines = [f"  {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}" for k, v in expected.items()]
    exp_path.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    return written
