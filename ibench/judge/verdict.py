"""Verdicts and their precedence (SPEC §4), encoded once.

Every place that needs to pick one label out of several — the combination of solver and
interactor outcomes inside one case, or the per-sample label over many failing cases — goes
through :func:`most_severe`, so the order below is the single source of truth.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from .sandbox.messages import ProcReport, RunReport


class Verdict(str, Enum):
    OK = "OK"
    WA = "WA"  # protocol-compliant but wrong answer
    PE = "PE"  # protocol / format violation
    QLE = "QLE"  # query budget overrun (decided by the harness, not the interactor)
    IDLE = "IDLE"  # blocked I/O or deadlock, ended by the wall-clock cap
    TLE = "TLE"  # CPU time over the limit
    MLE = "MLE"  # peak memory over the limit
    RE = "RE"  # signal or non-zero exit of the solver
    CE = "CE"  # compile error, or no code at all
    SE = "SE"  # judge error (interactor/checker FAIL or crash): never charged to the model

    @property
    def accepted(self) -> bool:
        return self is Verdict.OK

    @property
    def is_failure_label(self) -> bool:
        """A label that counts as the model's failure (SE is the judge's, OK is success)."""
        return self not in (Verdict.OK, Verdict.SE)


# Most severe first. SE outranks everything: a sample touched by a judge error cannot be
# scored at all. Then SPEC §4: compile, runtime, resource and idle failures, then PE > QLE > WA.
SEVERITY: tuple[Verdict, ...] = (
    Verdict.SE,
    Verdict.CE,
    Verdict.RE,
    Verdict.TLE,
    Verdict.MLE,
    Verdict.IDLE,
    Verdict.PE,
    Verdict.QLE,
    Verdict.WA,
    Verdict.OK,
)
_RANK = {v: i for i, v in enumerate(SEVERITY)}

# The primary failure labels of SPEC §4, in display order (failure-composition tables).
FAILURE_LABELS: tuple[Verdict, ...] = (
    Verdict.IDLE,
    Verdict.PE,
    Verdict.QLE,
    Verdict.CE,
    Verdict.RE,
    Verdict.TLE,
    Verdict.MLE,
    Verdict.WA,
)


def most_severe(verdicts: Iterable[Verdict]) -> Verdict:
    """The label that wins among several (OK when the iterable is empty or all OK)."""
    best = Verdict.OK
    for v in verdicts:
        if _RANK[v] < _RANK[best]:
            best = v
    return best


def parse_verdict(text: str) -> Verdict:
    """Parse a verdict name, accepting the common aliases used in task manifests."""
    aliases = {"AC": "OK", "ACCEPTED": "OK", "ILE": "IDLE", "IL": "IDLE", "JE": "SE", "FAIL": "SE",
               "RTE": "RE", "TL": "TLE", "ML": "MLE", "QL": "QLE"}
    key = text.strip().upper()
    key = aliases.get(key, key)
    try:
        return Verdict(key)
    except ValueError:
        names = ", ".join(v.value for v in Verdict)
        raise ValueError(f"unknown verdict {text!r}; expected one of {names}") from None


# ---------------------------------------------------------------------------------------------
# Deciding one execution. The supervisor only measures; these functions apply SPEC §4.
# ---------------------------------------------------------------------------------------------

SIGKILL, SIGPIPE, SIGXCPU, SIGXFSZ, SIGPROF = 9, 13, 24, 25, 27
# Share of the wall window the solver must have spent on the CPU for a kill by the wall-clock
# (or post-accept grace) to count as spinning (TLE) rather than blocked (IDLE). Low enough to
# hold on a host loaded several times over, far above what a blocked process uses.
SPIN_RATIO = 0.2
# Unread solver output at the wall-clock cap that marks a flood (a query is a few bytes; a pipe
# the solver filled holds 64 KiB).
FLOOD_BYTES = 4096

THREAD_LIMIT_WORDS = "unable to create native thread"
TESTLIB_EXIT = {0: Verdict.OK, 1: Verdict.WA, 2: Verdict.PE, 7: Verdict.OK, 8: Verdict.PE}


@dataclass
class Decision:
    verdict: Verdict
    reason: str
    score: float | None = None  # points in [0, 1] when the judge program awarded points


def _killed_by_judge(p: "ProcReport") -> bool:
    return p.killed != "none" and p.signal == SIGKILL


def _crash(p: "ProcReport") -> str | None:
    """Why the solver counts as crashed, or None. SIGPIPE is never the solver's fault: it only
    comes from writing to a judge that has already closed the conversation."""
    if p.signal is not None:
        if _killed_by_judge(p) or p.signal == SIGPIPE:
            return None
        return f"solver killed by {p.status_text}"
    if p.exit_code not in (None, 0):
        return f"solver exited with code {p.exit_code}"
    return None


def _resources(r: "RunReport", cpu_ms: float, cpu_limit_ms: float, mem_kb: int,
               oom_markers: tuple[str, ...] = ()) -> Decision | None:
    if r.oom_killed:
        return Decision(Verdict.MLE, f"memory limit exceeded (killed at {mem_kb // 1024} MB)")
    if r.solver.killed == "memory" and r.solver.signal == SIGKILL:
        # no memory cgroup: the supervisor saw the resident memory of the solver's processes
        # pass the limit and stopped it, as the cgroup would have
        return Decision(Verdict.MLE, f"memory limit exceeded (resident {(r.solver_rss_at_kill_kb or 0) // 1024} MB, "
                                     f"limit {mem_kb // 1024} MB)")
    # TLE from the exact figure alone: the kernel's CPU timers are backstops set well past the
    # limit (their tick-sampled accounting can fire early), so a SIGPROF or SIGXCPU death with
    # less CPU than the limit is the program's own signal, a crash like any other.
    if cpu_ms > cpu_limit_ms:
        return Decision(Verdict.TLE, f"CPU time {cpu_ms:.0f} ms > limit {cpu_limit_ms:.0f} ms")
    if r.solver.killed == "cpu" and r.solver.signal == SIGKILL:
        return Decision(Verdict.TLE, f"stopped at the CPU-time limit of {cpu_limit_ms:.0f} ms (exact reading)")
    if r.solver_peak_kb > mem_kb:
        return Decision(Verdict.MLE, f"peak memory {r.solver_peak_kb // 1024} MB > limit {mem_kb // 1024} MB")
    if "cgroup" not in r.sandbox and _crash(r.solver) and (
            any(m in r.solver_stderr_tail for m in ("std::bad_alloc", "MemoryError"))
            or r.solver_peak_kb >= 0.9 * mem_kb):
        # Without a memory cgroup (rlimit mode, or root on a host without one) the address-space
        # limit makes allocation fail instead of the OOM killer firing: the crash that follows is
        # the memory limit's doing.
        return Decision(Verdict.MLE, f"memory limit exceeded (allocation failed at {r.solver_peak_kb // 1024} MB "
                                     f"resident, limit {mem_kb // 1024} MB)")
    marker = next((m for m in oom_markers if m in r.solver_stderr_tail), None) if _crash(r.solver) else None
    if marker is not None and THREAD_LIMIT_WORDS in r.solver_stderr_tail:
        # The JVM's "OutOfMemoryError: unable to create native thread" is the process limit
        # (judge.max_processes), not memory: a crash of the program's, named for what it is.
        return Decision(Verdict.RE, "the program hit the process and thread limit (the runtime reported "
                                    f"{THREAD_LIMIT_WORDS!r})")
    if marker is not None:
        # A managed runtime that enforces the limit itself (the JVM's heap cap, -Xmx) and says so
        # on the way out: the executor declares the words. A program that prints them and dies
        # only turns its own RE into MLE, both failures.
        return Decision(Verdict.MLE, f"memory limit exceeded (the runtime reported {marker!r})")
    if r.solver.signal == SIGXFSZ:
        return Decision(Verdict.RE, "output limit exceeded (SIGXFSZ)")
    return None


def _stalled(r: "RunReport", wall_ms: float, grace_ms: float, cpu_limit_ms: float) -> Decision | None:
    """The solver did not finish and the judge ended it: working (TLE) or blocked (IDLE).

    Decided by the solver's scheduler state when it was ended (running or waiting for a CPU
    versus blocked), which does not depend on machine load; the supervisor also lets a
    runnable solver outlive the wall cap so that its CPU timer, not wall time, ends it. The
    CPU-per-wall ratio is only a fallback for reports without the state."""
    p = r.solver
    if not _killed_by_judge(p) or p.killed not in ("wall", "grace"):
        return None
    if p.killed == "grace":
        before = (r.solver_cpu_at_interactor_exit_us or 0) / 1000.0
        window, used = grace_ms, r.solver_cpu_ms - before
        what = "after the interactor accepted"
    else:
        window, used = wall_ms, r.solver_cpu_ms
        what = "at the wall-clock cap"
    running = r.solver_runnable_at_kill
    if running is None:
        running = window > 0 and used / window >= SPIN_RATIO
    if running and r.solver_runnable_at_kill and (used < grace_ms if p.killed == "grace" else r.solver_cpu_ms <= cpu_limit_ms):
        # Runnable, within its CPU, and still ended: the node gave it too little CPU for the
        # judge's patience (the supervisor waits several times the cap for it). No verdict of
        # the program's can be read from that; the judge failed to measure it.
        return Decision(Verdict.SE, f"solver starved {what}: runnable but given only {used:.0f} ms of CPU; "
                                    "the node is overloaded, judge again")
    if running:
        return Decision(Verdict.TLE, f"solver still running {what} ({used:.0f} ms CPU in {window:.0f} ms)")
    if r.deadlock_after_us is not None:
        return Decision(Verdict.IDLE, f"deadlock: the solver and the interactor each waited to read the other "
                                      f"(a missing flush?), ended after {r.solver.wall_us / 1000:.0f} ms "
                                      f"({used:.0f} ms CPU)")
    return Decision(Verdict.IDLE, f"solver blocked {what} ({used:.0f} ms CPU in {window:.0f} ms): idle or deadlock")


def decide_interactive(r: "RunReport", *, cpu_limit_ms: float, mem_kb: int, wall_ms: float, grace_ms: float,
                       interactor_message: str, queries: int | None, query_limit: int | None,
                       solver_eof: bool | None = None, oom_markers: tuple[str, ...] = ()) -> Decision:
    """One interactive execution, per SPEC §4 and the interplay rules there.

    The interactor's rejection (WA/PE) stands over whatever the solver does after it, unless
    the rejection followed the end of the solver's output: then the solver's own status
    decides (a crash is RE). Whether it did is a fact the interactor reports itself
    (``solver_eof``: ibench's testlib header writes ``ibench_solver_eof`` to tout); for other
    interactors, testlib's unexpected-EOF verdict or a solver already exiting when the
    interactor stopped stand in for it. The rule follows causes, not which process the
    supervisor happened to reap first, so the verdict does not change with machine load.
    """
    if r.setup_error:
        return Decision(Verdict.SE, f"sandbox setup failed: {r.setup_error}")
    it = r.interactor
    assert it is not None
    msg = interactor_message.strip()
    partial = it.killed == "none" and it.signal is None and is_partial(msg)  # `_pc(k)` exits k
    if it.killed == "none" and not partial:
        if it.signal is not None:
            return Decision(Verdict.SE, f"interactor crashed ({it.status_text}): {msg}")
        if it.exit_code == 3:
            return Decision(Verdict.SE, f"interactor FAIL: {msg}")
        if it.exit_code not in TESTLIB_EXIT:
            return Decision(Verdict.SE, f"interactor exited with unexpected code {it.exit_code}: {msg}")
    code = it.exit_code if it.exit_code is not None else -1
    inter_v = (Verdict.WA if partial else TESTLIB_EXIT.get(code)) if it.killed == "none" else None
    if solver_eof is not None:
        eof_caused = solver_eof
    else:
        eof_caused = (it.exit_code == 8 or "unexpected end of file" in msg.lower() or "unexpected eof" in msg.lower()
                      or bool(r.solver_exiting_at_interactor_exit))
        # (solver_output_closed_at_interactor_exit is not read as a cause: a solver whose input the
        # interactor closed on rejecting may end, and close its output, before the interactor is
        # reaped; the supervisor only lets such a solver run on to its own end)
    decisive_rejection = inter_v in (Verdict.WA, Verdict.PE) and not eof_caused

    cpu_ms = r.solver_cpu_ms
    if decisive_rejection and r.solver_cpu_at_interactor_exit_us is not None:
        cpu_ms = r.solver_cpu_at_interactor_exit_us / 1000.0  # the spin after the verdict is not charged
    res = _resources(r, cpu_ms, cpu_limit_ms, mem_kb, oom_markers)
    if res:
        return res
    crash = _crash(r.solver)
    if crash and not decisive_rejection:
        return Decision(Verdict.RE, crash + (f" (interactor: {msg})" if msg else ""))
    stall = _stalled(r, wall_ms, grace_ms, cpu_limit_ms)
    if stall and not decisive_rejection:
        if stall.verdict is Verdict.IDLE and r.interactor_runnable_at_kill:
            if r.solver_blocked_writing or (r.solver_output_pending or 0) >= FLOOD_BYTES:
                # The interactor was busy reading what the solver pushed at it: the solver's own
                # doing (a flood), never the judge's failure.
                return Decision(Verdict.IDLE, "solver blocked writing output its judge was still reading at the "
                                              f"wall-clock cap ({r.solver_output_pending or 0} bytes unread): a flood")
            return Decision(Verdict.SE, "interactor still computing at the wall-clock cap while the solver waited")
        return stall
    if inter_v is None:
        # The interactor was ended by the wall-clock cap although the solver had finished.
        return Decision(Verdict.SE, "interactor did not finish after the solver exited")
    if inter_v is Verdict.PE:
        return Decision(Verdict.PE, msg)
    if queries is not None and query_limit is not None and queries > query_limit:
        return Decision(Verdict.QLE, f"{queries} queries > budget {query_limit}" + (f" (interactor: {msg})" if msg else ""))
    if inter_v is Verdict.WA:
        return Decision(Verdict.WA, msg)
    if it.exit_code == 7:
        return _points_decision("interactor", msg)
    return Decision(Verdict.OK, msg)


def decide_batch_run(r: "RunReport", *, cpu_limit_ms: float, mem_kb: int, wall_ms: float,
                     oom_markers: tuple[str, ...] = ()) -> Decision | None:
    """A batch execution's failure, or None when it ran cleanly and its output must be checked."""
    if r.setup_error:
        return Decision(Verdict.SE, f"sandbox setup failed: {r.setup_error}")
    res = _resources(r, r.solver_cpu_ms, cpu_limit_ms, mem_kb, oom_markers)
    if res:
        return res
    crash = _crash(r.solver)
    if crash:
        return Decision(Verdict.RE, crash)
    return _stalled(r, wall_ms, 0, cpu_limit_ms)


def decide_checker(exit_code: int | None, message: str, timed_out: bool = False) -> Decision:
    """A testlib checker's outcome: 0 OK, 1 WA, 2 PE, 7 points; FAIL or a crash is a judge error."""
    msg = message.strip()
    if timed_out:
        return Decision(Verdict.SE, "checker timed out")
    if exit_code is None or exit_code < 0:
        return Decision(Verdict.SE, f"checker crashed: {msg}")
    if is_partial(msg):
        return Decision(Verdict.WA, msg, 0.0)
    if exit_code == 3:
        return Decision(Verdict.SE, f"checker FAIL: {msg}")
    if exit_code == 7:
        return _points_decision("checker", msg)
    if exit_code not in TESTLIB_EXIT:
        return Decision(Verdict.SE, f"checker exited with unexpected code {exit_code}: {msg}")
    v = TESTLIB_EXIT[exit_code]
    return Decision(v, msg, 1.0 if v is Verdict.OK else 0.0)


# How testlib starts the line it writes on quitting (stderr), by verdict.
TESTLIB_PREFIXES = ("ok", "wrong answer", "wrong output format", "FAIL", "points", "partially correct",
                    "unexpected eof")
_VERDICT_LINE = re.compile(r"^(?:%s)(?: |$)" % "|".join(re.escape(p) for p in TESTLIB_PREFIXES), re.M)


def verdict_message(stderr_text: str, limit: int) -> str:
    """The judge program's own verdict message: from the last line that starts the way testlib
    starts it, so debug output printed before it, or a message longer than ``limit``, cannot hide
    the `points`/`partially correct` that decides the verdict. Anything else: the tail."""
    text = stderr_text.strip()
    starts = [m.start() for m in _VERDICT_LINE.finditer(text)]
    if not starts:
        return text[-limit:]
    return text[starts[-1]:][:limit]


def is_partial(message: str) -> bool:
    """testlib's `_pc(k)` verdict: its exit code is k itself (0 for `_pc(0)`), so only the
    message tells it from OK, WA or PE."""
    return message.startswith("partially correct")


def _points_decision(who: str, msg: str) -> Decision:
    """Points (`quitp`, exit 7): a score, and never Accepted unless it is the full score —
    pass@k counts only complete solutions."""
    p = parse_points(msg)
    if p is None:
        return Decision(Verdict.SE, f"{who} gave points without a value: {msg}")
    return Decision(Verdict.OK if p >= 1.0 else Verdict.WA, msg, p)


def parse_points(message: str) -> float | None:
    """The value of testlib's `points <p> ...` message, clamped to [0, 1]."""
    words = message.split()
    if len(words) >= 2 and words[0] == "points":
        try:
            return min(1.0, max(0.0, float(words[1])))
        except ValueError:
            return None
    return None
