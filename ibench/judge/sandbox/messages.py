"""What a run asks of the supervisor (:class:`RunRequest`) and what it reports back
(:class:`RunReport`, parsed from the supervisor's key=value lines)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

SIGNAL_NAMES = {1: "SIGHUP", 2: "SIGINT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS",
                8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV", 13: "SIGPIPE", 14: "SIGALRM",
                15: "SIGTERM", 24: "SIGXCPU", 25: "SIGXFSZ", 27: "SIGPROF", 31: "SIGSYS"}


@dataclass
class RunRequest:
    """One execution: a solver alone (batch, compile) or joined to an interactor."""

    solver: Path
    cpu_ms: int
    mem_kb: int
    wall_ms: int
    solver_args: list[str] = field(default_factory=list)
    solver_env: list[str] = field(default_factory=list)
    argv0: str | None = None
    stdin: Path | None = None  # batch
    stdout: Path | None = None  # batch
    interactor: Path | None = None
    interactor_args: list[str] = field(default_factory=list)
    interactor_env: list[str] = field(default_factory=list)
    case: Path | None = None  # opened as the interactor's fd 3
    # Interactive: a file whose bytes reach the solver's stdin before anything the interactor
    # writes (the batch variant: the hidden case, given up front)
    prefill: Path | None = None
    grace_ms: int = 1000
    wall_hard_ms: int | None = None  # how long a still-runnable solver may outlive wall_ms
    nproc: int = 16
    fsize_kb: int = 65536
    interactor_cpu_ms: int = 20000
    interactor_wall_ms: int = 0  # its own wall budget while it computes; 0: the solver's hard cap
    interactor_as_kb: int = 0  # the interactor's address-space cap; 0: none
    # In a box: host paths bound read-only (host, inside), on top of the loader and libraries
    binds: list[tuple[str, str]] = field(default_factory=list)
    # Bind the host's loader and shared libraries (/lib, /usr/lib, ...): a statically linked
    # solver needs none, and then its box holds no file whose page cache later samples share
    host_libs: bool = True
    # AF_UNIX sockets allowed (a runtime that needs them: the JVM); otherwise none (their buffers
    # are memory no limit counts without a memory cgroup)
    sockets: bool = False
    # The runtime's own threads park on futexes with timeouts (the JVM, Go): the deadlock look
    # then counts such a wait as blocked; otherwise a timed wait may wake and write
    runtime_parks: bool = False
    # The solver's output ends for the interactor only once the solver has ended, as the ICPC
    # tools relay it (the solver's own end comes first)
    hold_solver_output: bool = False
    export: str | None = None  # a file of the solver's working dir to hand back (a compiler's output)
    export_to: Path | None = None  # where the judge receives it; must not exist yet
    box_kb: int | None = None  # size of each writable tmpfs of the box (default: fsize_kb)
    address_space_kb: int | None = None  # only where no cgroup limits memory

    VARYING = frozenset({"case", "prefill", "stdin", "stdout", "export_to"})  # a case's own files

    def fixed_key(self) -> tuple:
        """Everything the request says but its per-case files (of those, only whether each is
        given): equal keys mean equal arguments but for those files. Kept once computed: a
        request is not changed after its first run, but through with_files()."""
        key = self.__dict__.get("_fixed_key")
        if key is None:
            key = tuple((v is None) if k in self.VARYING else tuple(v) if type(v) is list else v
                        for k, v in self.__dict__.items() if k != "_fixed_key")
            self.__dict__["_fixed_key"] = key
        return key

    def with_files(self, **files: Path | None) -> "RunRequest":
        """This request for another case: the same in all but the given VARYING files."""
        assert self.VARYING.issuperset(files), f"not a per-case file: {set(files) - self.VARYING}"
        other = object.__new__(RunRequest)
        other.__dict__.update(self.__dict__)
        if "_fixed_key" in other.__dict__ and any((self.__dict__[k] is None) != (v is None) for k, v in files.items()):
            del other.__dict__["_fixed_key"]  # which files are given is part of the key
        other.__dict__.update(files)
        return other


@dataclass
class ProcReport:
    exit_code: int | None = None
    signal: int | None = None
    cpu_us: int = 0
    maxrss_kb: int = 0
    killed: str = "none"  # none | judge | grace | wall | cpu (an exact reading over the CPU limit) | memory
    wall_us: int = 0

    @property
    def status_text(self) -> str:
        if self.signal is not None:
            name = SIGNAL_NAMES.get(self.signal, "")
            text = f"signal {self.signal}" + (f" ({name})" if name else "")
            return text + (f", killed by judge ({self.killed})" if self.killed != "none" and self.signal == 9 else "")
        if self.exit_code is not None:
            return f"exit {self.exit_code}"
        return "not run"


@dataclass
class RunReport:
    solver: ProcReport
    interactor: ProcReport | None
    wall_us: int
    wall_timeout: bool
    first_exit: str
    solver_cpu_at_interactor_exit_us: int | None = None
    cg_cpu_us: int | None = None
    cg_peak_kb: int | None = None
    oom_killed: bool = False
    solver_runnable_at_kill: bool | None = None  # scheduler state when the judge ended it
    interactor_runnable_at_kill: bool | None = None
    solver_exiting_at_interactor_exit: bool | None = None  # had the solver begun to exit by then?
    # had the solver closed its output (the interactor's input had no writer left) by then?
    solver_output_closed_at_interactor_exit: bool | None = None
    # held output (ICPC): the interactor was still running when the solver's end ended its input
    solver_output_released_first: bool | None = None
    setup_error: str = ""
    sandbox: str = ""
    prefill: str = ""  # with a prefill: "direct" (written into the pipe) or "relay" (too big for it)
    prefill_bytes: int | None = None
    solver_stderr_tail: str = ""  # filled in by the grader (where the run's stderr went)
    # Every other process of the solver's (children it never waited for), reaped at the case's
    # end: their CPU and their peaks, summed; and what the box's writable tmpfs held at the end.
    others_cpu_us: int = 0
    others_maxrss_kb: int = 0
    tmpfs_kb: int = 0
    # At the wall-clock cap: bytes the solver had written that its judge had not read yet, and
    # whether the solver was blocked writing into that pipe (the interactor busy with a flood)
    solver_output_pending: int | None = None
    solver_blocked_writing: bool | None = None
    solver_rss_at_kill_kb: int | None = None  # without a memory cgroup: what the memory check saw
    # Both sides were found blocked reading each other's pipe (nothing could happen): ended then,
    # this long after the first look that saw it (supervisor's stall.h)
    deadlock_after_us: int | None = None
    # What the solver's and the interactor's stderr captures held at the end (None: not reported)
    solver_stderr_bytes: int | None = None
    interactor_stderr_bytes: int | None = None

    @property
    def solver_cpu_ms(self) -> float:
        """Exact CPU of the solver's whole process tree: the cgroup where one measures it, else the
        solver's rusage (its waited-for children included) plus every process it left behind."""
        tree = self.solver.cpu_us + self.others_cpu_us
        us = self.cg_cpu_us if self.cg_cpu_us is not None else tree
        return max(us, tree) / 1000.0

    @property
    def solver_peak_kb(self) -> int:
        """The solver's own resident high-water mark (not the launcher's, not the page cache).
        Without a memory cgroup, which would count them, the peaks of the other processes it
        started and the files it left in the box's tmpfs are added (an upper bound: no memory
        the solver held escapes the limit)."""
        if self.cg_peak_kb is not None:
            return self.solver.maxrss_kb
        return self.solver.maxrss_kb + self.others_maxrss_kb + self.tmpfs_kb


def parse_report(text: str, sandbox: str) -> RunReport:
    kv = dict(line.split("=", 1) for line in text.split("\n") if "=" in line)
    get = kv.get

    def proc(prefix: str) -> ProcReport | None:
        killed = get(prefix + "_killed")
        if killed is None:
            return None
        code, sig = get(prefix + "_exit"), get(prefix + "_signal")
        return ProcReport(
            exit_code=int(code) if code is not None else None,
            signal=int(sig) if sig is not None else None,
            cpu_us=int(get(prefix + "_cpu_us", 0)),
            maxrss_kb=int(get(prefix + "_maxrss_kb", 0)),
            killed=killed,
            wall_us=int(get(prefix + "_wall_us", 0)),
        )

    def opt_int(key: str) -> int | None:
        v = get(key)
        return int(v) if v is not None and v.isdigit() else None  # a negative figure: not measured

    def flag(key: str) -> bool | None:
        v = get(key)
        return None if v is None else v == "1"

    return RunReport(
        solver=proc("solver") or ProcReport(),
        interactor=proc("interactor"),
        wall_us=int(get("wall_us", 0)),
        wall_timeout=get("wall_timeout") == "1",
        first_exit=get("first_exit", "none"),
        solver_cpu_at_interactor_exit_us=opt_int("solver_cpu_at_interactor_exit_us"),
        cg_cpu_us=opt_int("cg_cpu_us"),
        cg_peak_kb=opt_int("cg_peak_kb"),
        oom_killed=get("cg_oom") == "1",
        solver_runnable_at_kill=flag("solver_runnable_at_kill"),
        interactor_runnable_at_kill=flag("interactor_runnable_at_kill"),
        solver_exiting_at_interactor_exit=flag("solver_exiting_at_interactor_exit"),
        solver_output_closed_at_interactor_exit=flag("solver_output_closed_at_interactor_exit"),
        solver_output_released_first=flag("solver_output_released_first"),
        setup_error=get("setup_error", ""),
        sandbox=sandbox,
        prefill=get("prefill", ""),
        prefill_bytes=opt_int("prefill_bytes"),
        others_cpu_us=opt_int("solver_others_cpu_us") or 0,
        others_maxrss_kb=opt_int("solver_others_maxrss_kb") or 0,
        tmpfs_kb=opt_int("box_tmpfs_kb") or 0,
        solver_output_pending=opt_int("solver_output_pending"),
        solver_blocked_writing=flag("solver_blocked_writing"),
        solver_rss_at_kill_kb=opt_int("solver_rss_at_kill_kb"),
        deadlock_after_us=opt_int("deadlock_after_us") if get("deadlock") == "1" else None,
        solver_stderr_bytes=opt_int("solver_stderr_bytes"),
        interactor_stderr_bytes=opt_int("interactor_stderr_bytes"),
    )


__all__ = ["SIGNAL_NAMES", "ProcReport", "RunReport", "RunRequest", "parse_report"]
