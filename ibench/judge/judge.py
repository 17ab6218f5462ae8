"""The Judge: compile a program, run it on a task's cases with the right grader, and combine the
case verdicts into one sample verdict (and a score for tasks with subtasks)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from ..tasks.model import Case, Task
from .batch import BatchGrader
from .errors import IsolationError, ToolError
from .executors import CompileCache, Program, executor_class
from .interactive import InteractiveGrader
from .outcome import CaseResult, CompileInfo, SampleResult
from .sandbox import Sandbox
from .sandbox.run import default_cache_dir
from .sandbox.host import UnconfinedHostError
from .settings import JudgeSettings
from .verdict import Verdict, most_severe

BUNDLED_TESTLIB = Path(__file__).with_name("testlib")


JUDGE_ATTEMPTS = 3  # a judge-side failure is tried this often before it is the sample's SE


class Judge:
    _shared: dict[str, "Judge"] = {}

    @classmethod
    def shared(cls, settings: JudgeSettings) -> "Judge":
        """One Judge per settings per process (a Ray worker, a pool worker): its compile memo,
        slot and supervisor stay warm from one sample to the next."""
        key = repr(settings)  # settings hold lists: the dataclass itself is not hashable
        if key not in cls._shared:
            cls._shared[key] = cls(settings)
        return cls._shared[key]

    def __init__(self, settings: JudgeSettings | None = None):
        self.settings = settings or JudgeSettings()
        self.cache_dir = default_cache_dir(self.settings.cache_dir)
        try:
            self.sandbox = Sandbox(self.cache_dir, self.settings.isolation, self.settings.pin_cpu)
        except UnconfinedHostError as e:
            raise IsolationError(str(e)) from None
        if self.settings.require_isolation and not self.sandbox.isolation.isolated:
            raise IsolationError(f"judge.require_isolation=true, but this host offers only the "
                                 f"{self.sandbox.label} sandbox: {'; '.join(self.sandbox.warnings)}")
        self.cache = CompileCache(self.cache_dir)
        self._executors: dict[str, object] = {}
        self._tools: dict[Path, Path] = {}
        self.interactive = InteractiveGrader(self.settings, self.sandbox)
        self.batch = BatchGrader(self.settings, self.sandbox)

    # -- building --------------------------------------------------------------------------
    @property
    def testlib_dir(self) -> Path:
        if self.settings.testlib_header:
            header = Path(self.settings.testlib_header)
            if not header.is_file():
                raise FileNotFoundError(f"judge.testlib_header: {header} is not a file")
            return header.parent
        return BUNDLED_TESTLIB

    def executor(self, language: str):
        cls = executor_class(language)
        if cls.language not in self._executors:
            self._executors[cls.language] = cls(self.settings, self.cache, self.sandbox)
        return self._executors[cls.language]

    def compile_tool(self, task: Task, path: Path) -> Path:
        """A task's own program, compiled once (memoised here, cached on disk across processes)."""
        path = Path(path)
        if path not in self._tools and path.is_dir():  # a validator folder (ICPC contract): several sources, C++ or Python
            from .validator import build_program

            self._tools[path] = build_program(self, path)
        if path not in self._tools:
            prog = self.executor("cpp").compile_trusted([path], [self.testlib_dir, path.parent], self.testlib_dir)
            if prog.binary is None:
                raise ToolError(f"{path} does not compile:\n{prog.info.message}")
            self._tools[path] = prog.binary
        return self._tools[path]

    def compile_solution(self, task: Task, source: str, language: str = "cpp") -> Program:
        if not source.strip():
            return Program(None, CompileInfo(False, 0.0, False, "no code block"))
        extra = [p for p in task.grader_files if p.suffix in (".cpp", ".cc")]
        include = sorted({p.parent for p in task.grader_files})
        return self.executor(language).compile_untrusted(source, extra, include)

    # -- cases -----------------------------------------------------------------------------
    def select_cases(self, task: Task) -> list[Case]:
        """All cases, or the first N of each interactive pool when the settings say so."""
        if not task.is_interactive:
            return list(task.cases)
        limits = {"non_adaptive": self.settings.non_adaptive_cases, "adaptive": self.settings.adaptive_cases}
        taken: dict[str, int] = {}
        chosen = []
        for c in task.cases:
            # open-numbered cases (imported packages) are all of their one interactor's pool
            pool = c.interactor if task.open_cases and c.interactor else "adaptive" if int(c.name) > 100 else "non_adaptive"
            n = limits[pool]
            if n is not None and taken.get(pool, 0) >= n:
                continue
            taken[pool] = taken.get(pool, 0) + 1
            chosen.append(c)
        return chosen

    def _run_case(self, task: Task, case: Case, solver: Program) -> CaseResult:
        if task.is_interactive:
            mode = case.interactor or ("adaptive" if int(case.name) > 100 else "non_adaptive")
            checker = self.compile_tool(task, task.checker) if task.checker else None  # Polygon: checks tout after
            return self.interactive.run_case(task, case, solver, self.compile_tool(task, task.interactors[mode]), checker)
        checker = self.compile_tool(task, task.checker) if task.checker else None
        return self.batch.run_case(task, case, solver, checker)

    # -- the sample ------------------------------------------------------------------------
    def judge(self, task: Task, source: str, language: str = "cpp", cases: list[Case] | None = None) -> SampleResult:
        """Judge one sample. A failure on the judge's side (a box that would not start, a build
        that died without the toolchain's word) is tried again a few times and, if it stays,
        is the sample's SE with its reason (SPEC §4), never an exception to the caller."""
        for attempt in range(JUDGE_ATTEMPTS):
            try:
                result = self._judge_once(task, source, language, cases)
                if result.verdict is Verdict.SE and "sandbox setup failed" in result.message and \
                        attempt + 1 < JUDGE_ATTEMPTS:
                    failure = result.message  # a box that did not start: judged again
                    time.sleep(0.2 * (attempt + 1))
                    continue
                return result
            except (IsolationError, ValueError, KeyError):
                raise  # the settings or the request are wrong: no retry makes them right
            except (RuntimeError, OSError) as e:
                failure = f"{type(e).__name__}: {e}"
                if attempt + 1 < JUDGE_ATTEMPTS:
                    time.sleep(0.2 * (attempt + 1))
        return SampleResult(Verdict.SE, [], CompileInfo(False, 0.0, False, ""), self.sandbox.label,
                            warnings=[*self.sandbox.warnings, f"judge error (SE) on {task.task_id}: {failure[:300]}"],
                            message=f"judge error after {JUDGE_ATTEMPTS} attempts: {failure[:400]}")

    def _judge_once(self, task: Task, source: str, language: str, cases: list[Case] | None) -> SampleResult:
        warnings = self.sandbox.warnings
        self.sandbox.new_sample()
        prog = self.compile_solution(task, source, language)
        if prog.binary is None:
            return SampleResult(Verdict.CE, [], prog.info, self.sandbox.label, score=0.0 if task.subtasks else None,
                                warnings=warnings, message=prog.info.message.strip().splitlines()[-1:][0]
                                if prog.info.message.strip() else "compile error")
        selected = list(cases) if cases is not None else self.select_cases(task)
        try:
            results = self._run_cases(task, selected, prog)
        except ToolError as e:
            return SampleResult(Verdict.SE, [], prog.info, self.sandbox.label, warnings=warnings, message=str(e))
        return self._combine(task, selected, results, prog.info, warnings)

    def _run_cases(self, task: Task, selected: list[Case], solver: Program) -> dict[str, CaseResult]:
        """Run cases in order, as far as ``walk_cases`` goes with these settings."""
        results: dict[str, CaseResult] = {}
        by_name = {c.name: c for c in selected}

        def run(name: str) -> CaseResult:
            if name not in results:
                results[name] = self._run_case(task, by_name[name], solver)
            return results[name]

        walk_cases(task, selected, self.settings.all_cases, run)
        return results

    def early_exit_view(self, task: Task, result: SampleResult, selected: list[Case] | None = None) -> SampleResult:
        """The result a default (early-exit) run gives, read from an ``all_cases`` run's cases
        instead of judging again: the same walk over the same per-case verdicts."""
        chosen = list(selected) if selected is not None else self.select_cases(task)
        done = {c.case: c for c in result.cases}
        if result.verdict in (Verdict.CE, Verdict.SE) and not done:
            return result
        seen: dict[str, CaseResult] = {}

        def replay(name: str) -> CaseResult:
            seen[name] = done[name]
            return done[name]

        walk_cases(task, chosen, False, replay)
        return self._combine(task, chosen, seen, result.compile, list(result.warnings))

    def _combine(self, task: Task, selected: list[Case], results: dict[str, CaseResult], info: CompileInfo,
                 warnings: list[str]) -> SampleResult:
        ordered = [results[c.name] for c in selected if c.name in results]
        failing = [r for r in ordered if r.verdict is not Verdict.OK]
        verdict = most_severe(r.verdict for r in failing)
        if verdict is Verdict.OK and len(ordered) < len(selected):
            verdict = Verdict.SE  # cannot happen by construction: a skipped case implies a failure
        message = ""
        worst = next((r for r in failing if r.verdict is verdict), None)
        if worst is not None:
            message = f"case {worst.case}: {worst.verdict.value}: {worst.message}"[:500]
        score = None
        subtask_scores: dict[str, float] = {}
        if task.subtasks:
            for st in task.subtasks:
                test_scores: list[float] = [sc if t in results and (sc := results[t].score) is not None else 0.0
                                            for t in st.tests]
                if st.grading == "min-score":
                    earned = st.score * (min(test_scores) if test_scores else 0.0)
                else:
                    earned = st.score if all(t in results and results[t].verdict is Verdict.OK for t in st.tests) else 0.0
                subtask_scores[st.id] = earned
            score = sum(subtask_scores.values())
        if verdict is Verdict.SE:
            warnings = [*warnings, f"judge error (SE) on {task.task_id}: {message}"]
        return SampleResult(verdict, ordered, info, self.sandbox.label, score=score,
                            subtask_scores=subtask_scores, warnings=warnings, message=message)



def walk_cases(task: Task, selected: list[Case], all_cases: bool, run: Callable[[str], CaseResult]) -> None:
    """Which cases a sample runs, in order. By default a sample stops at its first failing case;
    with subtasks only the rest of the failing subtask is skipped, so stopping early never
    changes a score (SPEC §2). ``run`` judges one case (or replays a case already judged)."""
    if all_cases:
        for c in selected:
            run(c.name)
        return
    names = {c.name for c in selected}
    if task.subtasks:
        for st in task.subtasks:
            for name in st.tests:
                if name not in names:
                    continue
                r = run(name)
                if r.verdict is Verdict.SE:
                    return
                dead = (r.score or 0.0) <= 0.0 if st.grading == "min-score" else r.verdict is not Verdict.OK
                if dead:
                    break
        in_subtask = {t for st in task.subtasks for t in st.tests}
        rest = [c for c in selected if c.name not in in_subtask]
    else:
        rest = selected
    for c in rest:
        if run(c.name).verdict is not Verdict.OK:
            break


__all__ = ["IsolationError", "Judge", "ToolError", "walk_cases"]
