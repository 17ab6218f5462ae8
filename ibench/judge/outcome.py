"""What judging a program comes to: one :class:`CaseResult` per execution, one
:class:`SampleResult` per program. (The judge's outcome; the ``ibench.results`` package is the
store of runs.) Every writer (console table, JSON, parquet, W&B) serialises these objects."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from .verdict import Verdict


@dataclass
class CompileInfo:
    ok: bool
    ms: float
    cached: bool
    message: str = ""  # compiler diagnostics tail when ok is False
    toolchain: str = ""  # the exact compiler / runtime version that built and runs it (Java, Go)


@dataclass
class CaseResult:
    case: str
    verdict: Verdict
    cpu_ms: float = 0.0
    wall_ms: float = 0.0
    peak_kb: int = 0
    queries: int | None = None
    query_limit: int | None = None
    solver_exit: str = ""  # "exit 0", "signal 11 (SIGSEGV)", "killed by judge", ...
    interactor_exit: str = ""  # interactor or checker status; "" for token comparison
    message: str = ""  # the interactor/checker message, or the judge's reason
    score: float | None = None  # points in [0, 1] (batch points / partial), None when not scored
    solver_to_judge_tail: str = ""  # bounded tails of both pipe directions
    judge_to_solver_tail: str = ""
    solver_stderr_tail: str = ""
    sandbox: str = ""
    # The exchange turn by turn (interactive cases): {"who": "solver"|"judge", "text", "t_ms"},
    # and {"who": "cut", "cut": bytes, "turns": n} where judge.transcript_bytes left bytes out
    transcript: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        # Not asdict(): its deep copy of a long transcript costs milliseconds; turns are flat dicts
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["verdict"] = self.verdict.value
        d["transcript"] = [dict(t) for t in self.transcript]
        return d


@dataclass
class SampleResult:
    verdict: Verdict
    cases: list[CaseResult]
    compile: CompileInfo
    sandbox: str
    score: float | None = None  # task score (sum of subtask points) for scored tasks
    subtask_scores: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    message: str = ""  # why the sample got its verdict (failing case and reason)

    @property
    def judge_error(self) -> bool:
        return self.verdict is Verdict.SE

    def to_dict(self, full: bool = False) -> dict:
        """The CLI's JSON shape; ``full`` adds transcripts, stderr tails and warnings."""
        keys = ("case", "verdict", "cpu_ms", "wall_ms", "peak_kb", "queries", "query_limit",
                "solver_exit", "interactor_exit", "message")
        cases = [c.to_dict() if full else {k: c.verdict.value if k == "verdict" else getattr(c, k) for k in keys}
                 for c in self.cases]
        compile_: dict[str, object] = {"ok": self.compile.ok, "ms": round(self.compile.ms, 1),
                                       "cached": self.compile.cached, "toolchain": self.compile.toolchain}
        d: dict[str, object] = {
            "verdict": self.verdict.value,
            "score": self.score,
            "cases": cases,
            "compile": compile_,
            "sandbox": self.sandbox,
        }
        if full:
            compile_["message"] = self.compile.message
            d["subtask_scores"] = self.subtask_scores
            d["warnings"] = self.warnings
            d["message"] = self.message
        return d
