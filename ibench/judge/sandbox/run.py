"""Run one case through the native supervisor (a server per slot) and read back its report."""

from __future__ import annotations

import hashlib
import itertools
import os
import shutil
import stat
import subprocess
import time
from pathlib import Path

from .host import (Isolation, Slot, acquire_slot, busy_slots, detect_isolation, pick_cpu, record_cpu, runtime_binds,
                   slot_case_files)
from .messages import RunReport, RunRequest, parse_report

SUPERVISOR_SRC = Path(__file__).with_name("supervisor.c")
MAX_BINDS = 256  # supervisor.c's MAX_BINDS
MAX_LIST = 64  # supervisor.c's MAX_LIST: arguments and environment entries of each side

def build_supervisor(cache_dir: Path) -> Path:
    """Compile the supervisor once per machine (keyed by its source), atomically."""
    # the source and the parts it includes from its own folder (one translation unit)
    parts = sorted(SUPERVISOR_SRC.parent.glob("*.[ch]"))
    key = hashlib.sha256(b"".join(p.name.encode() + b"\0" + p.read_bytes() for p in parts)).hexdigest()[:16]
    out = cache_dir / "supervisor" / f"supervisor-{key}"
    if out.exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}")
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        raise RuntimeError("the judge needs gcc (or cc) to build its supervisor; install g++ (scripts/install.sh)")
    r = subprocess.run([cc, "-O2", "-o", str(tmp), str(SUPERVISOR_SRC)], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"building {SUPERVISOR_SRC} failed:\n{r.stderr[-2000:]}")
    os.chmod(tmp, 0o755)
    os.replace(tmp, out)
    return out


class Sandbox:
    """Runs cases in this process's slot with the strongest isolation the host offers."""

    BOX_WORKDIR = "/box"  # the solver's working dir inside the box
    BOX_STAGE = "/src"  # where the box sees the judge's staged inputs (sources, headers)

    def __init__(self, cache_dir: Path, isolation: str = "auto", pin_cpu: bool = True):
        self.supervisor = build_supervisor(cache_dir)
        self.isolation: Isolation = detect_isolation(isolation, str(self.supervisor))
        self.pin_cpu = pin_cpu
        self._net_epoch = next(_EPOCHS)
        self._cpu: int | None = None
        self._pinned: int | None = None  # the CPU chosen for this slot while it pins
        self._one_cpu = False  # the next runs trade many lines: solver and interactor on one CPU
        self._fixed: tuple[tuple[int, int, str], list[str]] | None = None
        self._payloads: dict[tuple, bytes] = {}

    def new_sample(self) -> None:
        """Runs from here on belong to a new sample: one that binds files of its own gets a
        network namespace and a box of its own (made once, shared by the sample's runs)."""
        self._net_epoch = next(_EPOCHS)
        self._cpu = None
        self._one_cpu = False

    @property
    def one_cpu(self) -> bool:
        return self._one_cpu

    @one_cpu.setter
    def one_cpu(self, chatty: bool) -> None:
        """Whether the next runs trade so many lines that solver and interactor should share a CPU
        whatever the node's load (set by the interactive grader from the queries it has seen)."""
        if chatty != self._one_cpu:
            self._one_cpu = chatty
            self._cpu = None  # placed again from the next run on

    def case_cpu(self) -> int:
        """The CPU these runs use (the one the fewest other judges' slots use), or -1 for all of
        them. One CPU on a full node (the host's judge slots as many as its CPUs: a judge that
        claims one CPU uses one, solver and interactor trade a core, and judges side by side do
        not slow each other) and for a chatty sample (``one_cpu``: a line between two CPUs costs
        a cross-CPU wake-up, 92 us a round trip on a 2-vCPU VM at stop 37 against 7 us on one CPU,
        ``bench_judge.py --round-trips``; guess-the-number's 40 cases of ~1,000 queries took
        2.3 s placed by the scheduler and 0.37 s on one CPU). All of them otherwise, so that a
        short exchange starts the interactor and the solver side by side (about 1 ms a case
        less than one after the other on one CPU, ``bench_judge.py --both``)."""
        if self._cpu is None:
            cpus = sorted(os.sched_getaffinity(0))
            pin = self.pin_cpu and len(cpus) > 1 and (
                self._one_cpu or _busy_slots_recently(len(cpus)) >= len(cpus))
            if not pin:
                if self._pinned is not None:
                    record_cpu(self.slot(), -1)
                self._pinned = None
                self._cpu = -1
            else:
                # chosen once while this slot pins: the CPU the fewest other slots use
                if self._pinned is None or self._pinned not in cpus:
                    self._pinned = pick_cpu(self.slot(), cpus)
                self._cpu = self._pinned
        return self._cpu

    @property
    def label(self) -> str:
        return self.isolation.label

    @property
    def compile_identity(self) -> str:
        """What a compile in this sandbox depends on besides its inputs: the mode and the
        supervisor's own build (a compile refused by one box, a CE, is not reused by another)."""
        return f"{self.isolation.label}+{self.supervisor.name}"

    @property
    def warnings(self) -> list[str]:
        return list(self.isolation.warnings)

    @property
    def boxed(self) -> bool:
        return self.isolation.box

    def slot(self) -> Slot:
        return acquire_slot(self.isolation)

    def private_dir(self) -> Path:
        """This slot's directory for the trusted side's files (stderr captures): the judge's own."""
        return self.slot().work

    def case_files_dir(self) -> Path:
        """This slot's directory for what the interactor writes each case (its log, transcript,
        stderr): the judge's own, in memory where the host has a tmpfs for it."""
        return self.case_dirs()[1]

    def case_dirs(self) -> tuple[Path, Path]:
        """private_dir() and case_files_dir() with one look at the slot (a case's hot path)."""
        slot = self.slot()
        return slot.work, slot_case_files(slot)

    def _judge_dir(self, suffix: str) -> Path:
        """A fresh directory of this slot that the judge alone writes and the solver may read:
        removed (never following a link) and re-created on every call."""
        d = self.slot().work.with_name(self.slot().work.name + suffix)
        if os.path.lexists(d):
            _remove_tree(d)
        d.mkdir(mode=0o755)
        os.chmod(d, 0o755)
        return d

    def program_dir(self) -> Path:
        """A fresh dir for a program the solver runs from but must not change (a staged script)."""
        return self._judge_dir("-prog")

    def stage_dir(self) -> Path:
        """A fresh dir for what a sandboxed compile reads (the source, a grader, its headers)."""
        return self._judge_dir("-stage")

    def visible(self, host_path: Path) -> str:
        """Where the solver sees a path of the stage dir: in a box at BOX_STAGE, else as it is."""
        if not self.boxed:
            return str(host_path)
        rel = Path(host_path).relative_to(self.slot().work.with_name(self.slot().work.name + "-stage"))
        return str(Path(self.BOX_STAGE) / rel)

    def stage_binds(self, stage: Path) -> list[tuple[str, str]]:
        return [(str(stage), self.BOX_STAGE)] if self.boxed else []

    @property
    def workdir(self) -> str:
        """The solver's working directory as the solver sees it."""
        return self.BOX_WORKDIR if self.boxed else str(self.slot().scratch)

    def scratch_dir(self) -> Path:
        """The host side of the solver's working directory. In a box it is only the mount point
        the box is built on and stays empty; without one it is emptied before every run."""
        return self._scratch(self.slot())

    def _scratch(self, slot: Slot) -> Path:
        d = slot.scratch
        if not self.boxed:
            for entry in os.scandir(d):
                _remove_tree(Path(entry.path))
        # Boxless as root, the solver (the slot's uid) works in it; in a box it is the judge's.
        # One process may judge in both modes, so the owner is set for the mode of this run (and
        # remembered: only this process's runs change it, a solver cannot give a dir away).
        euid = os.geteuid()
        owner = slot.uid if not self.boxed else euid
        if euid == 0 and slot.scratch_owner != owner:
            if os.lstat(d).st_uid != owner:
                os.chown(d, owner, owner, follow_symlinks=False)
            slot.scratch_owner = owner
        return d

    def run(self, req: RunRequest, solver_stderr: Path | None = None,
            interactor_stderr: Path | None = None, keep_scratch: bool = False) -> RunReport:
        """Run one execution; without a box the scratch dir is emptied first unless the caller
        filled it. Every path is made absolute: the slot's supervisor server keeps the working
        directory it was started in, which need not be this process's any more."""
        slot = self.slot()
        scratch = slot.scratch if keep_scratch else self._scratch(slot)
        epoch = self._net_epoch if req.binds and req.export is None else SHARED_EPOCH
        # A sample's cases differ only in their files: what else the request says is encoded once.
        key = (req.fixed_key(), solver_stderr, interactor_stderr, scratch, slot.index, self.isolation.label,
               epoch, self.case_cpu())
        fixed = self._payloads.get(key)
        if fixed is None:
            if len(self._payloads) >= 64:
                self._payloads.clear()
            fixed = self._payloads[key] = _encode(self._fixed_args(req, slot, scratch, solver_stderr,
                                                                   interactor_stderr, epoch))
        varying: list[str] = []
        files: list[tuple[str, Path | None]] = ([("--case", req.case), ("--prefill", req.prefill)]
                                                if req.interactor is not None
                                                else [("--stdin", req.stdin), ("--stdout", req.stdout)])
        if req.export is not None:
            files.append(("--export-to", req.export_to))
        for flag, path in files:
            if path is not None:
                varying += [flag, _abs(path)]
        return parse_report(self._request(fixed + _encode(varying) + b"\0"), self.label)

    def _fixed_args(self, req: RunRequest, slot: Slot, scratch: Path, solver_stderr: Path | None,
                    interactor_stderr: Path | None, epoch: int) -> list[str]:
        """The request's arguments but for its per-case files (RunRequest.VARYING)."""
        iso = self.isolation
        for name in ("solver_args", "solver_env", "interactor_args", "interactor_env"):
            if len(getattr(req, name)) > MAX_LIST:  # the supervisor would drop the rest
                raise RuntimeError(f"RunRequest.{name}: {len(getattr(req, name))} entries; the supervisor takes "
                                   f"at most {MAX_LIST}")
        args = ["--solver", _abs(req.solver), "--solver-dir", _abs(scratch),
                "--cpu-ms", str(req.cpu_ms), "--mem-kb", str(req.mem_kb), "--wall-ms", str(req.wall_ms),
                "--grace-ms", str(req.grace_ms), "--wall-hard-ms", str(req.wall_hard_ms or req.wall_ms),
                "--nproc", str(req.nproc), "--fsize-kb", str(req.fsize_kb),
                "--interactor-cpu-ms", str(req.interactor_cpu_ms), "--interactor-wall-ms", str(req.interactor_wall_ms),
                "--interactor-as-kb", str(req.interactor_as_kb)]
        if req.argv0:
            args += ["--argv0", req.argv0]
        for a in req.solver_args:
            args += ["--sarg", a]
        for e in req.solver_env:
            args += ["--senv", e]
        if solver_stderr is not None:
            args += ["--stderr", _abs(solver_stderr)]
        if req.interactor is not None:
            args += ["--interactor", _abs(req.interactor), "--interactor-dir", _abs(slot.work)]
            for a in req.interactor_args:
                args += ["--iarg", a]
            for e in req.interactor_env:
                args += ["--ienv", e]
            if interactor_stderr is not None:
                args += ["--interactor-stderr", _abs(interactor_stderr)]
        if iso.box:
            # The box (and its network namespace) outlives a sample where nothing of the sample
            # is bound into it: its init resets it after every case, and the next sample's
            # program and limits come with the case. A sample whose own files are bound in (a
            # staged script, classes: re-created for each sample) gets a box of its own.
            args += ["--userns" if iso.mode == "userns" else "--box", "--workdir", self.BOX_WORKDIR,
                     "--net-epoch", str(epoch)]
            if req.box_kb:
                args += ["--box-kb", str(req.box_kb)]
            binds = [(p, p) for p in (runtime_binds() if req.host_libs else ())] + \
                [(_abs(h), inside) for h, inside in req.binds]
            if len(dict.fromkeys(binds)) > MAX_BINDS:  # the supervisor would drop the rest
                raise RuntimeError(f"a box of {len(binds)} binds: the supervisor takes at most {MAX_BINDS}")
            for host, inside in dict.fromkeys(binds):
                args += ["--bind", host] + (["--bind-at", inside] if inside != host else [])
        if req.sockets:
            args += ["--sockets"]
        if req.runtime_parks:
            args += ["--runtime-parks"]
        if req.hold_solver_output:
            args += ["--hold-solver-output"]
        if req.export is not None and req.export_to is not None:
            args += ["--export", req.export]
        args += self._slot_args(slot)
        args += ["--cpu", str(self.case_cpu())]
        if iso.cgroup == "none":
            # Without a memory cgroup the address-space rlimit is the only hard memory cap.
            as_kb = req.address_space_kb or (req.mem_kb + 65536)
            args += ["--as-kb", str(as_kb)]
        return args

    def _slot_args(self, slot: Slot) -> list[str]:
        """What every request of this slot and mode says the same way: the solver's uid, Landlock,
        the slot's cgroups (built once)."""
        key = (slot.index, slot.uid, self.isolation.label)
        if self._fixed is None or self._fixed[0] != key:
            iso, args = self.isolation, []
            if slot.uid != os.geteuid():  # as root, in every mode: the slot's unprivileged uid
                args += ["--uid", str(slot.uid), "--gid", str(slot.uid)]
            if iso.landlock:
                args += ["--landlock"]
            if iso.mode == "root":
                for name, val in (("--cg-mem", slot.cg_mem), ("--cg-pids", slot.cg_pids),
                                  ("--cg-cpu", slot.cg_cpu), ("--cg-v2", slot.cg_v2)):
                    if val:
                        args += [name, val]
            self._fixed = (key, args)
        return self._fixed[1]

    def _request(self, payload: bytes) -> str:
        """Send one case to this slot's supervisor server and read its report. The server is
        started on first use and restarted if it died (its report then says why). It is one
        per process, as the slot is: every judge of the process shares it, so the box it keeps
        for a sample never sits in the slot's cgroups while another judge runs a case there."""
        for attempt in range(2):
            server = _SERVER.get("proc")
            if server is None or server.poll() is not None:
                server = subprocess.Popen([str(self.supervisor), "--server"], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
                _SERVER.update(proc=server, binary=self.supervisor.name)
            elif _SERVER.get("binary") != self.supervisor.name:
                self.close()
                continue
            assert server.stdin is not None and server.stdout is not None
            try:
                # One write each way, on the raw descriptors: the server sends a report and its
                # end mark in one write, so a reply usually takes one read.
                sent, fd = 0, server.stdin.fileno()
                while sent < len(payload):
                    sent += os.write(fd, payload[sent:])
                out = server.stdout.fileno()
                reply = b""
                while not reply.endswith(END_MARK):
                    chunk = os.read(out, 65536)
                    if not chunk:
                        break
                    reply += chunk
                if reply.endswith(END_MARK):
                    return reply[:-len(END_MARK)].decode("utf-8", "replace")
                text = reply.decode("utf-8", "replace")
                if "setup_error=" in text:
                    return text
            except BrokenPipeError:
                pass
            self.close()
        return "setup_error=the supervisor server died twice in a row\n"

    def close(self) -> None:
        """End this process's supervisor server (the next run starts a new one)."""
        server = _SERVER.pop("proc", None)
        if server is not None:
            try:
                server.kill()
                server.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        _SERVER.clear()


END_MARK = b"__end__\n"  # the line that ends every reply of the supervisor server


# The slot's supervisor server: one per process (a forked child starts its own), and a sample
# counter that is unique in the process, so two judges never share a sample's namespaces.
_SERVER: dict = {}
# A forked child (a pool worker) neither uses nor ends its parent's server.
os.register_at_fork(after_in_child=_SERVER.clear)
_EPOCHS = itertools.count(1)
SHARED_EPOCH = 0  # the epoch of the slot's one box for samples that bind nothing of their own


_BUSY: dict[int, tuple[float, int]] = {}  # enough -> (when counted, count)
BUSY_SLOTS_TTL_S = 0.5


def _busy_slots_recently(enough: int) -> int:
    """busy_slots, counted at most every BUSY_SLOTS_TTL_S: a node fills and empties over
    seconds, and counting takes a lock attempt per slot, which short samples would feel."""
    now = time.monotonic()
    seen = _BUSY.get(enough)
    if seen is None or now - seen[0] > BUSY_SLOTS_TTL_S:
        seen = (now, busy_slots(enough))
        _BUSY[enough] = seen
    return seen[1]


def _encode(args: list[str]) -> bytes:
    """Arguments as the server reads them: each ended by a NUL (a request ends with one more)."""
    return "\0".join(args).encode() + b"\0" if args else b""


def _abs(path: str | Path) -> str:
    text = os.fspath(path)
    return text if text.startswith("/") else os.path.abspath(text)


def _remove_tree(path: Path) -> None:
    """Remove a file or a whole tree without following links, without recursion and through
    descriptors (one open at a time), so neither a planted symlink nor a tree thousands of levels
    deep, longer than any path may be, can turn clean-up against the judge or make it fail."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(st.st_mode):
        os.unlink(path)
        return
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    os.chmod(path, 0o700)
    fd = os.open(path, flags)
    names: list[str] = []  # the way down from ``path``
    try:
        while True:
            sub = None
            with os.scandir(fd) as it:
                for e in it:
                    if e.is_dir(follow_symlinks=False):
                        sub = e.name
                        break
                    os.unlink(e.name, dir_fd=fd)
            if sub is not None:
                os.chmod(sub, 0o700, dir_fd=fd)  # a dir (checked without following links)
                child = os.open(sub, flags, dir_fd=fd)
                os.close(fd)
                fd = child
                names.append(sub)
                continue
            if not names:
                break
            parent = os.open("..", flags, dir_fd=fd)
            os.close(fd)
            fd = parent
            os.rmdir(names.pop(), dir_fd=fd)
    finally:
        os.close(fd)
    os.rmdir(path)


def default_cache_dir(configured: str | None = None) -> Path:
    path = Path(configured or os.environ.get("IBENCH_CACHE") or Path.home() / ".cache" / "ibench")
    path.mkdir(parents=True, exist_ok=True)
    return path


def head_and_tail(path: Path, limit: int) -> str:
    """A file of at most ``limit`` bytes as it is; a longer one as its first and last halves of
    that (a compiler's first error is the one that explains the rest)."""
    try:
        size = os.path.getsize(path)
    except OSError:
        return ""
    if size <= limit:
        return tail(path, limit)
    with open(path, "rb") as f:
        head = f.read(limit // 2).decode("utf-8", "replace")
    return f"{head}\n[... {size - limit} bytes left out ...]\n{tail(path, limit // 2)}"


def tail(path: Path, limit: int, size: int | None = None) -> str:
    """The last ``limit`` bytes of a file as text (invalid UTF-8 replaced). ``size``: what the
    supervisor reported the file to hold; 0 spares the read."""
    if size == 0 or limit <= 0:
        return ""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return ""
    try:
        if size is None:
            size = os.fstat(fd).st_size
        return os.pread(fd, min(size, limit), max(0, size - limit)).decode("utf-8", "replace")
    except OSError:
        return ""
    finally:
        os.close(fd)


__all__ = ["Sandbox", "build_supervisor", "default_cache_dir", "head_and_tail", "tail"]
