"""The interactive grader: solver and testlib interactor joined by pipes, one case at a time.
Grader-linked tasks use it too: their solver binary is the solution linked with the task's stub,
and the manager (the task's interactor) alone decides the verdict."""

from __future__ import annotations

import os
import re
import struct
from dataclasses import dataclass
from pathlib import Path

from ..variants import Variant
from ..tasks.model import Case, Task
from .executors.base import Program
from .limits import MESSAGE_LIMIT, STDERR_READ, Limits, case_limits, interactor_cpu_ms, interactor_wall_ms
from .outcome import CaseResult
from .sandbox import RunRequest, Sandbox
from .sandbox.run import default_cache_dir, tail
from .settings import JudgeSettings
from .validator import case_fraction, interactor_outcome, validator_args
from .verdict import Decision, Verdict, decide_interactive, verdict_message

_QUERIES = re.compile(rb"^\s*queries\s*=\s*(-?\d+)\s*$", re.M)
_LIMIT = re.compile(rb"^\s*query_limit\s*=\s*(-?\d+)\s*$", re.M)
_EOF = re.compile(rb"^ibench_solver_eof=([01])\s*$", re.M)
ICPC_EOF_WORDS = re.compile(r"\beof\b|end of (the )?(file|input|output)", re.I)


@dataclass
class InteractorLog:
    queries: int | None = None
    query_limit: int | None = None
    solver_eof: bool | None = None  # written by ibench's header at the interactor's exit


def _read(path: Path) -> bytes | None:
    """A whole file of the judge's own, or None where there is none."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        data = os.read(fd, 65536)
        if len(data) < 65536:  # a short read of a regular file is its end
            return data
        chunks = [data]
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def read_interactor_log(tout: Path) -> InteractorLog:
    """The last `queries=` and `query_limit=` lines of the interactor's log (SPEC §3)."""
    data = _read(tout)
    if data is None:
        return InteractorLog()
    q, lim, eof = _QUERIES.findall(data), _LIMIT.findall(data), _EOF.findall(data)
    return InteractorLog(int(q[-1]) if q else None, int(lim[-1]) if lim else None,
                         (eof[-1] == b"1") if eof else None)


_TR_MAGIC = b"IBTR2\n"  # then a u32 count, the records' headers, their payloads
_TR_HEADER = struct.Struct("<cQI")  # kind; u64 (t_us, or a count); u32 (payload bytes, or a count)
_WHO = {b"S": "solver", b"J": "judge"}
_TAIL = {b"s": "solver", b"j": "judge"}


@dataclass
class CaseTranscript:
    """A case's exchange as the interactor saw it: ``turns`` in order, each ``{"who": "solver" |
    "judge", "text", "t_ms"}`` (ms since the interactor started), and ``{"who": "cut", "cut":
    bytes, "turns": whole turns}`` where the bound left bytes out; and each direction's last
    bytes (the header's own per-direction records, so a cut never shortens them)."""

    turns: list[dict]
    solver_to_judge_tail: str = ""
    judge_to_solver_tail: str = ""
    complete: bool = False  # the file ended with its end record (False: none, or cut short)


def read_transcript(path: Path, tail_bytes: int = 2048) -> CaseTranscript:
    """Read the header's transcript file: length-prefixed records (testlib.h, dumpTranscriptRaw)
    whose side is in each record's header, so a program's bytes can never read back as the
    judge's. A record cut short (the interactor killed mid-write) ends the reading, with a
    marker of unknown size. Without the header's tail records, the tails are each direction's
    last ``tail_bytes`` among the turns."""
    data = _read(path)
    if data is None:
        return CaseTranscript([])
    size = _TR_HEADER.size
    start = len(_TR_MAGIC) + 4
    if not data.startswith(_TR_MAGIC) or len(data) < start:
        return CaseTranscript([])
    count = int.from_bytes(data[start - 4:start], "little")
    table_end = start + count * size
    if table_end > len(data):
        return CaseTranscript([{"who": "cut", "cut": None, "turns": None, "note": "the interactor's transcript ends early"}])
    table = _TR_HEADER.iter_unpack(data[start:table_end])  # every header in one call
    payload = data[table_end:]
    # ASCII (the usual exchange): decode once and slice the text by byte offsets
    text = payload.decode("ascii") if payload.isascii() else None
    turns: list[dict] = []
    tails: dict[str, bytes] = {}
    pos, end, complete = 0, len(payload), False
    prev, prev_at = None, 0  # the last turn's side and where its bytes start (the head's last turn may go on)
    for kind, a, b in table:
        if kind == b"S" or kind == b"J":
            q = pos + b
            if q > end:
                break
            who = "solver" if kind == b"S" else "judge"
            if who == prev:
                turns[-1]["text"] = text[prev_at:q] if text is not None else payload[prev_at:q].decode("utf-8", "replace")
            else:
                turns.append({"who": who, "text": text[pos:q] if text is not None else payload[pos:q].decode("utf-8", "replace"),
                              "t_ms": a / 1000})
                prev, prev_at = who, pos
            pos = q
        elif kind in _TAIL:
            if pos + b > end:
                break
            tails[_TAIL[kind]] = payload[pos:pos + b]
            pos += b
        elif kind == b"C":
            turns.append({"who": "cut", "cut": a, "turns": b})
            prev = None
        elif kind == b"E":
            complete = pos == end
            break
        else:
            break
    if not complete and turns:
        turns.append({"who": "cut", "cut": None, "turns": None, "note": "the interactor's transcript ends early"})

    def last(who: str) -> str:
        if who in tails:
            return tails[who].decode("utf-8", "replace")
        text = "".join(t["text"] for t in turns if t["who"] == who)  # not the header's own tails
        return text.encode()[-tail_bytes:].decode("utf-8", "replace") if tail_bytes > 0 else ""

    return CaseTranscript(turns, last("solver"), last("judge"), complete)


def prefills(task: Task, settings: JudgeSettings) -> bool:
    """The batch variant (InteractBench C.1): a stdio-interactive task's solver first reads the
    hidden case on stdin, then interacts as usual. Grader-linked tasks are never given it."""
    return settings.variant == Variant.BATCH and task.stdio_interactive


FEEDBACK_DIR = "feedback"  # ICPC contract: the validator's feedback dir, beside tout
ANSWER_FILE = "answer"  # ICPC contract: the case's answer, copied beside tout for the interactor
EXIT_FILE = "validator.exit"  # ICPC contract: the validator's own exit status (the wrapper's)


def interactor_command(task: Task, interactor: Path, tout: Path, cache_dir: Path) -> tuple[Path, list[str]]:
    """The interactor's program and command line. The hidden case reaches it as an inherited
    descriptor, so its command line names no path the solver could use. An ICPC validator runs
    under a wrapper that exits as a testlib interactor would (the supervisor then treats its
    accept as an accept), with the case's answer (a copy in the judge's own case-files dir), its
    feedback dir and the task's flags."""
    if task.contract == "icpc":
        from .validator import interactor_wrapper

        case_files = tout.parent
        return interactor_wrapper(cache_dir), [str(case_files / EXIT_FILE), str(interactor), *validator_args(
            "/dev/fd/3", case_files / ANSWER_FILE, case_files / FEEDBACK_DIR, task.validator_flags)]
    return interactor, ["/dev/fd/3", str(tout)]


def prepare_icpc_case(case: Case, case_files: Path) -> None:
    import shutil

    from .validator import fresh_feedback_dir

    fresh_feedback_dir(case_files / FEEDBACK_DIR)
    (case_files / EXIT_FILE).unlink(missing_ok=True)
    answer = case_files / ANSWER_FILE
    if case.answer_path is not None:
        shutil.copyfile(case.answer_path, answer)
    else:
        answer.write_bytes(b"")


def check_interactor_output(checker: Path, case: Case, tout: Path, memory_mb: int) -> Decision:
    """A Polygon-style interactive task's checker, ``checker input tout answer``, once the
    interactor accepted; the lines ibench's testlib header appends to tout are left out."""
    import dataclasses
    import tempfile

    from .checker import run_checker

    data = _read(tout) or b""
    kept = b"\n".join(line for line in data.split(b"\n") if not line.startswith(b"ibench_solver_eof="))
    with tempfile.NamedTemporaryFile(prefix="ibench-tout-") as f:
        f.write(kept)
        f.flush()
        answer = case.answer_path if case.answer_path is not None else Path("/dev/null")
        d, _ = run_checker(checker, dataclasses.replace(case, answer_path=answer), Path(f.name), memory_mb)
    return d


# Queries in one case from which a task's samples run solver and interactor on one CPU: about
# where one CPU's start-up one after the other (~1 ms a case) costs less than the cross-CPU
# wake-ups it saves (~30-90 us a round trip on a 2-vCPU VM at stop 37; Sandbox.case_cpu).
CHATTY_QUERIES = 32


class InteractiveGrader:
    def __init__(self, settings: JudgeSettings, sandbox: Sandbox):
        self.settings = settings
        self.sandbox = sandbox
        self._queries_seen: dict[str, int] = {}  # task id -> the most queries one case has made
        self._paths: tuple[tuple[Path, Path], tuple[Path, Path, Path, Path]] | None = None
        self._template: tuple | None = None  # (task, solver, interactor, files, request, limits, mem_kb)

    def _files(self) -> tuple[Path, Path, Path, Path]:
        """The case's files: the interactor's log, its stderr and the transcript in the slot's
        case-files dir, the solver's stderr in its private dir (the same paths every case)."""
        work, mem = self.sandbox.case_dirs()
        if self._paths is None or self._paths[0] != (work, mem):
            self._paths = ((work, mem), (mem / "tout", mem / "interactor.stderr", work / "solver.stderr", mem / "transcript"))
        return self._paths[1]

    def _request(self, task: Task, solver: Program, interactor: Path, files: tuple[Path, Path, Path, Path]
                 ) -> tuple[RunRequest, Limits, int]:
        """The request every case of this sample sends but for its case file, built once per
        (task, program, interactor, files): a sample's cases differ in nothing else."""
        t = self._template
        if t is not None and t[0] is task and t[1] is solver and t[2] == interactor and t[3] == files:
            return t[4], t[5], t[6]
        tout, istderr, sstderr, transcript = files
        lim = case_limits(task, self.settings, solver.time_factor)
        exe, args = solver.command_for(lim.mem_kb)
        mem_kb = solver.run_memory_kb(lim.mem_kb)  # a runtime's own headroom on top (the JVM)
        interactor_exe, interactor_argv = interactor_command(task, interactor, tout, default_cache_dir(self.settings.cache_dir))
        req = RunRequest(
            solver=exe, solver_args=args, argv0=str(exe) if args else None, solver_env=list(solver.env),
            interactor=interactor_exe,
            # The hidden case reaches the interactor as an inherited descriptor, so its command
            # line names no path the solver could use.
            interactor_args=interactor_argv,
            interactor_env=[f"IBENCH_TRANSCRIPT={transcript}", f"IBENCH_TRANSCRIPT_BYTES={self.settings.transcript_bytes}",
                           f"IBENCH_TRANSCRIPT_TAIL_BYTES={self.settings.tail_bytes}"],
            cpu_ms=int(lim.cpu_ms), mem_kb=mem_kb, wall_ms=lim.wall_ms, grace_ms=self.settings.grace_ms,
            wall_hard_ms=int(lim.wall_ms * self.settings.wall_hard_factor),
            nproc=self.settings.max_processes + solver.runtime_threads, fsize_kb=self.settings.output_limit_mb * 1024,
            # never below the hard wall cap: a solver's flood that keeps the interactor reading
            # must meet the cap (the solver's IDLE), not the interactor's own CPU limit (an SE)
            interactor_cpu_ms=interactor_cpu_ms(self.settings, task, lim.wall_ms),
            interactor_wall_ms=interactor_wall_ms(self.settings, task, lim.wall_ms),
            interactor_as_kb=self.settings.interactor_memory_mb * 1024,
            binds=list(solver.binds), host_libs=solver.host_libs, sockets=solver.sockets,
            runtime_parks=solver.runtime_threads > 0,
            hold_solver_output=task.contract == "icpc",
            address_space_kb=solver.address_space_kb(lim.mem_kb),
        )
        self._template = (task, solver, interactor, files, req, lim, mem_kb)
        return req, lim, mem_kb

    def run_case(self, task: Task, case: Case, solver: Program, interactor: Path, checker: Path | None = None) -> CaseResult:
        """One case; ``checker`` (a testlib task's, Polygon style) then judges the interactor's
        output file ``tout`` against the case's answer once the interactor accepted."""
        files = self._files()
        tout, istderr, sstderr, transcript = files
        for f in (tout, transcript):  # what the interactor writes: never the last case's
            try:
                os.unlink(f)
            except FileNotFoundError:
                pass
        template, lim, mem_kb = self._request(task, solver, interactor, files)
        if task.contract == "icpc":  # a fresh feedback dir, the case's answer beside it
            prepare_icpc_case(case, tout.parent)
        req = template.with_files(case=case.input_path,
                                  prefill=case.input_path if prefills(task, self.settings) else None)
        # Placement only (wall time, never a verdict): a task whose cases have talked at length
        # runs its next cases on one CPU.
        self.sandbox.one_cpu = self._queries_seen.get(task.task_id, 0) >= CHATTY_QUERIES
        r = self.sandbox.run(req, solver_stderr=sstderr, interactor_stderr=istderr)
        r.solver_stderr_tail = tail(sstderr, self.settings.tail_bytes, r.solver_stderr_bytes)
        message = verdict_message(tail(istderr, STDERR_READ, r.interactor_stderr_bytes), MESSAGE_LIMIT)
        icpc_score = None
        if task.contract == "icpc":  # 42 / 43 and judgemessage.txt, read as the testlib rules read them
            r, message, icpc_score = interactor_outcome(r, tout.parent / FEEDBACK_DIR, tout.parent / EXIT_FILE, message)
        log = read_interactor_log(tout)
        queries, query_limit = log.queries, log.query_limit
        if queries and queries > self._queries_seen.get(task.task_id, 0):
            self._queries_seen[task.task_id] = queries
        solver_eof = log.solver_eof
        if task.contract == "icpc" and solver_eof is None:
            # The validator sees the end of the solver's output only once the solver has ended (the
            # supervisor holds it open, as the ICPC tools relay it): a validator still running then
            # judged after the solver's end, whose own failure comes first. Where the supervisor
            # could not tell (the validator's process unreadable), its words decide.
            released = r.solver_output_released_first
            solver_eof = released if released is not None else bool(ICPC_EOF_WORDS.search(message))
        d = decide_interactive(r, cpu_limit_ms=lim.cpu_ms, mem_kb=mem_kb, wall_ms=lim.wall_ms,
                               grace_ms=self.settings.grace_ms, interactor_message=message,
                               queries=queries, query_limit=query_limit, solver_eof=solver_eof,
                               oom_markers=solver.oom_markers)
        if d.verdict is Verdict.OK and checker is not None and task.contract != "icpc":
            d = check_interactor_output(checker, case, tout, self.settings.interactor_memory_mb)
        elif d.verdict is Verdict.OK and task.contract == "icpc":  # score.txt: shown, and scored where the task says
            shown = f"{d.reason} (score {icpc_score:g})".strip() if icpc_score is not None else d.reason
            d = Decision(d.verdict, shown, case_fraction(task, case.name, icpc_score))
        tr = read_transcript(transcript, self.settings.tail_bytes)
        return CaseResult(
            case=case.name, verdict=d.verdict, cpu_ms=round(r.solver_cpu_ms, 3), wall_ms=round(r.solver.wall_us / 1000, 3),
            peak_kb=r.solver_peak_kb, queries=queries, query_limit=query_limit,
            solver_exit=r.solver.status_text,
            interactor_exit=r.interactor.status_text if r.interactor else "",
            message=d.reason if d.reason else message, score=d.score,
            solver_to_judge_tail=tr.solver_to_judge_tail, judge_to_solver_tail=tr.judge_to_solver_tail,
            solver_stderr_tail=r.solver_stderr_tail, sandbox=r.sandbox,
            transcript=tr.turns if self.settings.transcript_bytes > 0 else [],
        )
