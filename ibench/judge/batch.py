"""The batch grader: stdin from the test, stdout checked by token comparison or a testlib
checker (`checker <in> <out> <ans>`), which may award points."""

from __future__ import annotations

from pathlib import Path

from ..tasks.model import Case, Task
from .checker import run_checker
from .executors.base import Program
from .limits import case_limits
from .outcome import CaseResult
from .sandbox import RunReport, RunRequest, Sandbox
from .sandbox.run import tail
from .settings import JudgeSettings
from .validator import judge_batch_output
from .verdict import Decision, Verdict, decide_batch_run

READ_CHUNK = 1 << 18  # bytes read at a time from the program's output and the expected answer
LONG_TOKEN = 1 << 16  # a token longer than this is kept as its length and SHA-256, not its bytes
_BLANKS = b" \t\n\r\x0b\x0c"  # what bytes.split() splits on


class _LongToken:
    """A token too long to keep (it spanned reads): equal to another token exactly when length
    and SHA-256 agree (a token read whole, as bytes, is hashed to compare)."""

    __slots__ = ("head", "size", "digest")

    def __init__(self, head: bytes, size: int, digest: bytes):
        self.head, self.size, self.digest = head, size, digest

    def __eq__(self, other: object) -> bool:
        import hashlib

        if isinstance(other, _LongToken):
            return (self.size, self.digest) == (other.size, other.digest)
        if isinstance(other, bytes):
            return len(other) == self.size and hashlib.sha256(other).digest() == self.digest
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq


class _OutputTooLarge(Exception):
    pass


def _token_batches(path: Path, limit: int | None = None):
    """The whitespace-separated tokens of a file, in batches of at most one read chunk's worth,
    read ``READ_CHUNK`` bytes at a time: memory stays bounded whatever the file holds (a token
    longer than ``LONG_TOKEN`` that spans reads is reduced to its length and digest as it is
    read). A file of ``limit`` bytes or more (one that reached the limit: the program's writes
    past it failed) raises :class:`_OutputTooLarge`; nothing beyond the limit is read."""
    import hashlib

    read = 0
    part: list[bytes] = []  # the pieces of a token that continues into the next chunk
    part_len = 0
    digest = None
    head = b""
    with open(path, "rb") as f:
        while True:
            want = READ_CHUNK if limit is None else min(READ_CHUNK, limit + 1 - read)
            data = f.read(want) if want > 0 else b""
            if limit is not None and read + len(data) >= limit:
                raise _OutputTooLarge()
            if not data:
                break
            read += len(data)
            batch: list = []
            if part_len or digest is not None:  # a token carried over: it ends at the first blank
                cut = min((i for i in (data.find(bytes([c])) for c in _BLANKS) if i >= 0), default=-1)
                piece = data if cut < 0 else data[:cut]
                if digest is not None:
                    digest.update(piece)
                else:
                    part.append(piece)
                part_len += len(piece)
                if digest is None and part_len > LONG_TOKEN:
                    joined = b"".join(part)
                    head, digest, part = joined[:40], hashlib.sha256(joined), []
                if cut < 0:
                    continue
                batch.append(_LongToken(head, part_len, digest.digest()) if digest is not None else b"".join(part))
                part, part_len, digest = [], 0, None
                data = data[cut:]
            tokens = data.split()
            if tokens and data[-1] not in _BLANKS:  # the last token may go on in the next chunk
                last = tokens.pop()
                part, part_len = [last], len(last)
                if part_len > LONG_TOKEN:
                    head, digest, part = last[:40], hashlib.sha256(last), []
            batch.extend(tokens)
            if batch:
                yield batch
    if part_len or digest is not None:
        yield [_LongToken(head, part_len, digest.digest()) if digest is not None else b"".join(part)]


def _show(token) -> bytes:
    return token.head + b"..." if isinstance(token, _LongToken) else token[:40]


def compare_tokens(output: Path, answer: Path, output_limit: int | None = None) -> Decision:
    """Whitespace-separated tokens must match exactly (the default without a checker). Both files
    are read and compared a chunk at a time, in this (the judge's) process, so its memory stays
    bounded whatever the program wrote. An output that reaches ``output_limit`` bytes (the
    file-size limit the program ran under, so its writes beyond failed) gets the output limit's
    verdict, as a program killed by SIGXFSZ does (SPEC has no label of its own for it: RE), and
    is not read beyond the limit."""
    got_it, want_it = _token_batches(output, output_limit), _token_batches(answer)
    got: list = []
    want: list = []
    gi = wi = 0  # positions in the current batches
    done = 0  # tokens compared before the current batches
    n_got = n_want = 0
    got_end = want_end = False
    try:
        while True:
            if gi == len(got) and not got_end:
                batch = next(got_it, None)
                got, got_end = (batch, False) if batch is not None else ([], True)
                n_got += len(got)
                gi = 0
            if wi == len(want) and not want_end:
                batch = next(want_it, None)
                want, want_end = (batch, False) if batch is not None else ([], True)
                n_want += len(want)
                wi = 0
            m = min(len(got) - gi, len(want) - wi)
            if m == 0:  # a side is over (batches are never empty): count what the other has left
                if not want_end:
                    n_want += sum(len(b) for b in want_it)
                elif not got_end:
                    n_got += sum(len(b) for b in got_it)  # read on to the limit, a batch at a time
                break
            if got[gi:gi + m] != want[wi:wi + m]:
                for j in range(m):
                    if got[gi + j] != want[wi + j]:
                        return Decision(Verdict.WA, f"token {done + j + 1} differs: expected {_show(want[wi + j])!r}, "
                                                    f"found {_show(got[gi + j])!r}", 0.0)
            gi += m
            wi += m
            done += m
    except _OutputTooLarge:
        return Decision(Verdict.RE, f"output limit exceeded ({(output_limit or 0) / (1 << 20):g} MB)")
    if n_got != n_want:
        return Decision(Verdict.WA, f"expected {n_want} tokens, found {n_got}", 0.0)
    return Decision(Verdict.OK, "ok", 1.0)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


class BatchGrader:
    def __init__(self, settings: JudgeSettings, sandbox: Sandbox):
        self.settings = settings
        self.sandbox = sandbox

    def run_program(self, solver: Program, stdin: Path, cpu_ms: float, mem_kb: int,
                    wall_ms: int) -> tuple[RunReport, Decision | None, Path, Path]:
        """``solver`` once in the batch box on ``stdin``: the supervisor's report, the run's own
        decision (None: it ended cleanly within its limits; the output is not judged here), and
        the files its stdout and stderr went to. ``run_case`` judges a case through it, and the
        judge service's SandboxFusion ``/run_code`` runs a program through it (the same box)."""
        exe, args = solver.command_for(mem_kb)
        run_kb = solver.run_memory_kb(mem_kb)  # a runtime's own headroom on top (the JVM)
        work = self.sandbox.private_dir()
        out, sstderr = work / "solver.out", work / "solver.stderr"
        r = self.sandbox.run(
            RunRequest(solver=exe, solver_args=args, argv0=str(exe) if args else None, solver_env=list(solver.env),
                       stdin=stdin, stdout=out, cpu_ms=int(cpu_ms), mem_kb=run_kb, wall_ms=wall_ms,
                       wall_hard_ms=int(wall_ms * self.settings.wall_hard_factor),
                       nproc=self.settings.max_processes + solver.runtime_threads,
                       fsize_kb=self.settings.output_limit_mb * 1024,
                       binds=list(solver.binds), host_libs=solver.host_libs, sockets=solver.sockets,
                       address_space_kb=solver.address_space_kb(mem_kb)),
            solver_stderr=sstderr)
        r.solver_stderr_tail = tail(sstderr, self.settings.tail_bytes, r.solver_stderr_bytes)
        return r, decide_batch_run(r, cpu_limit_ms=cpu_ms, mem_kb=run_kb, wall_ms=wall_ms,
                                   oom_markers=solver.oom_markers), out, sstderr

    def run_case(self, task: Task, case: Case, solver: Program, checker: Path | None) -> CaseResult:
        lim = case_limits(task, self.settings, solver.time_factor)
        r, d, out, _ = self.run_program(solver, case.input_path, lim.cpu_ms, lim.mem_kb, lim.wall_ms)
        checker_exit = ""
        if d is None:
            if case.answer_path is None:
                d = Decision(Verdict.SE, f"test {case.name} has no expected output")
            elif _size(out) >= self.settings.output_limit_mb << 20:  # its writes past the limit failed
                d = Decision(Verdict.RE, f"output limit exceeded ({self.settings.output_limit_mb} MB)")
            elif task.contract == "icpc":  # the ICPC validator contract, or its default validator
                d, checker_exit = judge_batch_output(task, case, out, checker, self.settings.interactor_memory_mb,
                                                     self.settings.output_limit_mb << 20)
            elif checker is not None:
                d, checker_exit = run_checker(checker, case, out, self.settings.interactor_memory_mb)
            else:
                d = compare_tokens(out, case.answer_path, self.settings.output_limit_mb << 20)
        score = d.score if d.score is not None else (1.0 if d.verdict is Verdict.OK else 0.0)
        return CaseResult(
            case=case.name, verdict=d.verdict, cpu_ms=round(r.solver_cpu_ms, 3), wall_ms=round(r.solver.wall_us / 1000, 3),
            peak_kb=r.solver_peak_kb, solver_exit=r.solver.status_text, interactor_exit=checker_exit,
            message=d.reason, score=score, solver_to_judge_tail=tail(out, self.settings.tail_bytes),
            solver_stderr_tail=r.solver_stderr_tail, sandbox=r.sandbox,
        )
