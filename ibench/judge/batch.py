"""The batch grader: stdin from the test, stdout checked by token comparison or a testlib
checker (`checker <in> <out> <ans>`), which may award points."""

from __future__ import annotations

import subprocess
from pathlib import Path

from ..tasks.model import Case, Task
from .interactive import MESSAGE_LIMIT, STDERR_READ, case_limits
from .executors.base import Program
from .results import CaseResult
from .sandbox import RunRequest, Sandbox
from .sandbox.run import tail
from .settings import JudgeSettings
from .verdict import Decision, Verdict, decide_batch_run, decide_checker, verdict_message

CHECKER_TIMEOUT_S = 60


def compare_tokens(output: Path, answer: Path) -> Decision:
    """Whitespace-separated tokens must match exactly (the default without a checker)."""
    got = output.read_bytes().split()
    want = answer.read_bytes().split()
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            return Decision(Verdict.WA, f"token {i + 1} differs: expected {w[:40]!r}, found {g[:40]!r}", 0.0)
    if len(got) != len(want):
        return Decision(Verdict.WA, f"expected {len(want)} tokens, found {len(got)}", 0.0)
    return Decision(Verdict.OK, "ok", 1.0)


def _with_address_space_cap(argv: list[str], memory_mb: int) -> list[str]:
    """The command under an address-space cap (none when ``memory_mb`` is 0). Set by a shell in
    the child, not a preexec hook, which is unsafe in a threaded process such as a Ray worker."""
    if memory_mb <= 0:
        return argv
    return ["/bin/sh", "-c", 'ulimit -v "$0" && exec "$@"', str(memory_mb * 1024), *argv]


def run_checker(checker: Path, case: Case, output: Path, memory_mb: int = 0) -> tuple[Decision, str]:
    assert case.answer_path is not None
    argv = [str(checker), str(case.input_path), str(output), str(case.answer_path)]
    try:
        r = subprocess.run(_with_address_space_cap(argv, memory_mb), capture_output=True, timeout=CHECKER_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return decide_checker(None, "", timed_out=True), ""
    msg = verdict_message(r.stderr[-STDERR_READ:].decode("utf-8", "replace"), MESSAGE_LIMIT)
    code = r.returncode if r.returncode >= 0 else None
    return decide_checker(code, msg), f"exit {r.returncode}" if r.returncode >= 0 else f"signal {-r.returncode}"


class BatchGrader:
    def __init__(self, settings: JudgeSettings, sandbox: Sandbox):
        self.settings = settings
        self.sandbox = sandbox

    def run_case(self, task: Task, case: Case, solver: Program, checker: Path | None) -> CaseResult:
        lim = case_limits(task, self.settings, solver.time_factor)
        exe, args = solver.command_for(lim.mem_kb)
        mem_kb = solver.run_memory_kb(lim.mem_kb)  # a runtime's own headroom on top (the JVM)
        work = self.sandbox.private_dir()
        out, sstderr = work / "solver.out", work / "solver.stderr"
        r = self.sandbox.run(
            RunRequest(solver=exe, solver_args=args, argv0=str(exe) if args else None, solver_env=list(solver.env),
                       stdin=case.input_path,
                       stdout=out, cpu_ms=int(lim.cpu_ms), mem_kb=mem_kb, wall_ms=lim.wall_ms,
                       wall_hard_ms=int(lim.wall_ms * self.settings.wall_hard_factor),
                       nproc=self.settings.max_processes + solver.runtime_threads,
                       fsize_kb=self.settings.output_limit_mb * 1024,
                       binds=list(solver.binds), address_space_kb=solver.address_space_kb(lim.mem_kb)),
            solver_stderr=sstderr)
        r.solver_stderr_tail = tail(sstderr, self.settings.tail_bytes)
        checker_exit = ""
        d = decide_batch_run(r, cpu_limit_ms=lim.cpu_ms, mem_kb=mem_kb, wall_ms=lim.wall_ms,
                             oom_markers=solver.oom_markers)
        if d is None:
            if case.answer_path is None:
                d = Decision(Verdict.SE, f"test {case.name} has no expected output")
            elif checker is not None:
                d, checker_exit = run_checker(checker, case, out, self.settings.interactor_memory_mb)
            else:
                d = compare_tokens(out, case.answer_path)
        score = d.score if d.score is not None else (1.0 if d.verdict is Verdict.OK else 0.0)
        return CaseResult(
            case=case.name, verdict=d.verdict, cpu_ms=round(r.solver_cpu_ms, 3), wall_ms=round(r.solver.wall_us / 1000, 3),
            peak_kb=r.solver_peak_kb, solver_exit=r.solver.status_text, interactor_exit=checker_exit,
            message=d.reason, score=score, solver_to_judge_tail=tail(out, self.settings.tail_bytes),
            solver_stderr_tail=r.solver_stderr_tail, sandbox=r.sandbox,
        )
