"""Host capabilities: which isolation the judge can use here, decided once per process.

Modes, strongest first (docs/JUDGE.md has the table of what each guarantees):
- ``root``: the judge runs as root. The solver runs in an allowlist box (fresh mount, PID, IPC,
  network and UTS namespaces; a filesystem built from nothing out of read-only binds of what
  its language needs) as a per-slot unprivileged uid in a per-slot cgroup (memory limit and OOM
  detection, process count, exact tree CPU time), plus seccomp and rlimits.
- ``userns``: no root (a typical Slurm node) but unprivileged user namespaces: the same box,
  built through a user namespace; rlimits for memory and processes and exact rusage CPU time
  stand in for the cgroup.
- ``rlimit``: neither: rlimits, seccomp and process-group clean-up, and a hard floor: never as
  root with capabilities (as root the solver runs as the slot's unprivileged uid, with none) and
  never able to write what a later run trusts (Landlock confines its writes to its working dir;
  a host without root and without Landlock is refused). The solver could still read whatever
  its user can read; every result says so, and ``judge.require_isolation`` refuses to judge.
"""

from __future__ import annotations

import ctypes
import fcntl
import functools
import os
import shutil
import stat
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

CGROUP_V1 = Path("/sys/fs/cgroup")
CGROUP_V2_ROOTS = (Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/unified"))
SLOT_UID_BASE = 61000  # solver uids: SLOT_UID_BASE + slot; no files on the host belong to them
MAX_SLOTS = 512


MODES = ("auto", "root", "userns", "rlimit")


@dataclass
class Isolation:
    mode: str  # "root" | "userns" | "rlimit"
    cgroup: str  # "v1" | "v2" | "none"
    box: bool  # the allowlist box (namespaces + a filesystem built from nothing)
    warnings: list[str] = field(default_factory=list)
    landlock: bool = False  # rlimit mode: the solver's writes confined to its working dir

    @property
    def label(self) -> str:
        parts = [self.mode]
        if self.cgroup != "none":
            parts.append(f"cgroup-{self.cgroup}")
        if self.box:
            parts.append("box")
        parts.append("seccomp")
        return "+".join(parts)

    @property
    def bounds(self) -> str:
        """Which of the solver's resources this mode bounds, and how (the launch's sandbox line)."""
        if self.cgroup != "none":
            return "bounds: memory, CPU and processes by the slot's cgroup (the whole process tree)"
        mem = ("address space per process; verdict figure = peaks of every process + the box's tmpfs at the end"
               if self.box else "address space per process; verdict figure = peaks of every process")
        cpu = "exact rusage of every process, reaped and summed" + ("" if self.box else " by the supervisor")
        writes = "" if self.box else ("; writes: Landlock, working dir only" if self.landlock
                                      else "; writes: the slot uid's permissions")
        # Kernel memory outside every process that no cgroup counts here: what bounds it
        kernel = ("; kernel memory: no SysV or mq objects, no xattrs, no sockets but the JVM's (seccomp), "
                  "4096 inodes per box tmpfs" if self.box else
                  "; kernel memory: no SysV or mq objects, no xattrs, no sockets but the JVM's (seccomp); "
                  "files in the working dir unbounded in number")
        return f"bounds: memory by {mem}; CPU by {cpu}; processes by RLIMIT_NPROC{writes}{kernel}"

    @property
    def isolated(self) -> bool:
        """Hidden data out of the solver's reach: what ``judge.require_isolation`` demands."""
        return self.box


def _v1_ok() -> bool:
    need = ("memory", "pids", "cpuacct")
    if not all((CGROUP_V1 / c / "cgroup.procs").exists() for c in need):
        return False
    try:
        for c in need:
            d = CGROUP_V1 / c / "ibench"
            d.mkdir(exist_ok=True)
        return True
    except OSError:
        return False


def _v2_root() -> Path | None:
    for root in CGROUP_V2_ROOTS:
        ctl = root / "cgroup.controllers"
        if ctl.exists() and {"memory", "pids"} <= set(ctl.read_text().split()):
            return root
    return None


def _v2_ok() -> bool:
    """A v2 hierarchy we can delegate to: an `ibench` child whose children get the memory and
    pids controllers (inside a container the root's subtree may be closed to us)."""
    root = _v2_root()
    if root is None:
        return False
    parent = root / "ibench"
    try:
        parent.mkdir(exist_ok=True)
        for d in (root, parent):
            try:
                (d / "cgroup.subtree_control").write_text("+memory +pids +cpu")
            except OSError:
                pass
        probe = parent / "probe"
        probe.mkdir(exist_ok=True)
        ok = (probe / "memory.max").exists() and (probe / "pids.max").exists()
        probe.rmdir()
        return ok
    except OSError:
        return False


def _box_ok(supervisor: Path, userns: bool) -> str:
    """Build one real box around /bin/true; '' when it works, else why not."""
    true = os.path.realpath(shutil.which("true") or "/bin/true")
    with tempfile.TemporaryDirectory(prefix="ibench-probe-") as d:
        args = [str(supervisor), "--solver", true, "--solver-dir", d, "--userns" if userns else "--box",
                "--cpu-ms", "2000", "--wall-ms", "10000", "--mem-kb", str(256 * 1024)]
        for p in runtime_binds():
            args += ["--bind", p]
        if userns:
            args += ["--as-kb", str(512 * 1024)]
        else:  # a uid no slot uses: the probe shares nothing with a judge running beside it
            args += ["--uid", str(SLOT_UID_BASE + MAX_SLOTS), "--gid", str(SLOT_UID_BASE + MAX_SLOTS)]
        try:
            r = subprocess.run(args, capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired) as e:
            return str(e)
    kv = dict(line.partition("=")[::2] for line in r.stdout.splitlines())
    if kv.get("setup_error"):
        return kv["setup_error"]
    if kv.get("solver_exit") != "0":
        return f"the probe ended with {r.stdout.strip()!r}"
    return ""


@functools.lru_cache(maxsize=1)
def _runtime_binds() -> tuple[str, ...]:
    paths = ["/lib", "/lib64", "/lib32", "/libx32", "/usr/lib", "/usr/lib64", "/usr/lib32", "/usr/libx32",
             "/etc/ld.so.cache"]
    return tuple(p for p in paths if os.path.lexists(p))


def runtime_binds() -> list[str]:
    """What every dynamically linked program needs: the loader, the shared libraries and the
    loader's cache (top-level dirs that are symlinks, as on merged-/usr systems, stay symlinks).
    Looked up once per process: every case of every sample asks."""
    return list(_runtime_binds())


@functools.lru_cache(maxsize=None)
def detect_isolation(requested: str = "auto", supervisor: str = "") -> Isolation:
    """The strongest isolation available, or the one requested (``root``/``userns``/``rlimit``).
    ``supervisor`` is the built supervisor binary: a box is used only where one really builds."""
    if requested not in MODES:
        raise ValueError(f"judge.isolation: expected one of {', '.join(MODES)}, got {requested!r}")
    is_root = os.geteuid() == 0
    sup = Path(supervisor) if supervisor else None
    if requested == "rlimit":
        return _rlimit_isolation("judge.isolation=rlimit was requested")
    if requested == "root" and not is_root:
        raise RuntimeError("judge.isolation=root requested but the judge is not running as root")
    if requested == "userns" and is_root:
        raise RuntimeError("judge.isolation=userns is the box for a judge without root; as root the judge uses "
                           "isolation=root (the same box, plus a per-slot uid and cgroup)")
    if is_root:
        cgroup = "v1" if _v1_ok() else ("v2" if _v2_ok() else "none")
        why = _box_ok(sup, userns=False) if sup else "no supervisor to probe with"
        iso = Isolation("root", cgroup, not why)
        if cgroup == "none":
            iso.warnings.append("no usable cgroup: memory limit by peak RSS only, CPU time of the main process only")
        if why:
            iso.warnings.append(f"no allowlist box on this host ({why}): the solver could read files its slot "
                                "user can read (judge.require_isolation=true refuses this)")
        return iso
    why = _box_ok(sup, userns=True) if sup else "no supervisor to probe with"
    if not why:
        return Isolation("userns", "none", True)
    if requested == "userns":
        raise RuntimeError(f"judge.isolation=userns requested but no user-namespace box builds here: {why}")
    return _rlimit_isolation(f"not root, and no user-namespace box builds here ({why})")


@functools.lru_cache(maxsize=None)
def landlock_abi() -> int:
    """The kernel's Landlock ABI version (0: none, or the LSM is not enabled)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        nr = {"x86_64": 444, "aarch64": 444}.get(os.uname().machine)
        if nr is None:
            return 0
        v = libc.syscall(nr, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
        return max(0, int(v))
    except (OSError, AttributeError):
        return 0


class UnconfinedHostError(RuntimeError):
    """rlimit mode where the judged code could write what later runs trust."""


def _rlimit_isolation(reason: str) -> Isolation:
    root = os.geteuid() == 0
    if not root and not landlock_abi():
        raise UnconfinedHostError(
            f"judge.isolation: no sandbox can run here: {reason}; rlimit mode needs root (to run the solver "
            "as an unprivileged uid) or Landlock (to confine its writes), and this host has neither, so a "
            "judged program could rewrite the compile cache and forge later verdicts")
    iso = Isolation("rlimit", "none", False, landlock=bool(landlock_abi()))
    who = "the slot's unprivileged uid, no capabilities" if root else "the judge's user"
    writes = "writes confined to its working dir (Landlock)" if iso.landlock else "writes limited by that uid's permissions"
    iso.warnings.append(
        f"degraded sandbox: {reason}; no namespaces or cgroup: the solver runs as {who}, {writes}, and could "
        "read files that user can read (judge.require_isolation=true refuses this)")
    return iso


@dataclass
class Slot:
    """A per-process execution slot: its own uid, cgroups and private directories.

    Slots let many judges (Ray workers, validate jobs) run on one machine at once without
    sharing a cgroup or a uid (RLIMIT_NPROC counts per uid). A slot is held through an
    fcntl lock for the life of the process, so a crashed process frees it automatically.
    """

    index: int
    uid: int
    work: Path  # the judge's own: stderr captures, staged inputs, the interactor's working dir
    scratch: Path  # in a box only a mount point; without one the solver's working directory
    # the judge's own: what the interactor writes each case (its log, transcript and stderr),
    # on a memory file system where the runtime dir is on disk (case_files_base); else `work`
    case_files: Path = Path()
    cg_mem: str | None = None
    cg_pids: str | None = None
    cg_cpu: str | None = None
    cg_v2: str | None = None
    scratch_owner: int = -1  # the owner this process last gave the scratch dir (-1: not yet)
    _lock_fd: int = -1
    _claim_fd: int = -1  # as root: the host-wide claim on the slot's uid and cgroups


_SLOT: Slot | None = None


def _forget_slot_in_child() -> None:
    # A forked child (a process-pool worker) inherits the parent's slot and its lock: sharing
    # it would mean one cgroup, one uid and one scratch dir for two judges at once.
    global _SLOT
    _SLOT = None


os.register_at_fork(after_in_child=_forget_slot_in_child)


def runtime_dir() -> Path:
    """Per-machine runtime files: slot locks and private dirs, the solver scratch dirs and the
    precompiled header. As root it sits outside /tmp, /var/tmp and /dev/shm, which the solver's
    mount namespace replaces with fresh tmpfs instances."""
    configured = os.environ.get("IBENCH_RUNTIME_DIR")
    if configured:
        base = Path(configured).resolve()
    elif os.geteuid() == 0:
        base = Path("/run/ibench") if Path("/run").is_dir() else Path("/var/lib/ibench")
    else:
        base = Path(tempfile.gettempdir()) / f"ibench-rt-{os.geteuid()}"
    base.mkdir(mode=0o711, parents=True, exist_ok=True)
    return base


def fs_type(path: Path) -> str:
    """The type of the file system ``path`` lives on (the longest mount point above it in
    /proc/self/mounts), or "" where that cannot be read."""
    try:
        lines = Path("/proc/self/mounts").read_text().splitlines()
    except OSError:
        return ""
    target = os.path.realpath(path)
    best, kind = "", ""
    for line in lines:
        parts = line.split()
        if len(parts) < 3:
            continue
        mnt = parts[1].replace("\\040", " ")
        if (target == mnt or target.startswith(mnt.rstrip("/") + "/")) and len(mnt) >= len(best):
            best, kind = mnt, parts[2]
    return kind


@functools.lru_cache(maxsize=1)
def case_files_base() -> Path | None:
    """Where slots keep the files an interactor writes every case, when the runtime dir is on a
    disk (a container's /run): /dev/shm/ibench-<uid>. Creating, truncating and removing three
    files per case on a journaling file system is on every case's critical path (about 0.05 ms
    here); these files are bounded (testlib's message, judge.transcript_bytes, the query log) and
    the solver's own captures stay on disk. None (keep them beside the runtime dir) where the
    runtime dir is memory already or configured, or /dev/shm is not a tmpfs."""
    if os.environ.get("IBENCH_RUNTIME_DIR") or fs_type(runtime_dir()) == "tmpfs":
        return None
    shm = Path("/dev/shm")
    return shm / f"ibench-{os.geteuid()}" if fs_type(shm) == "tmpfs" else None


def _case_files_dir(slot_index: int, fallback: Path) -> Path:
    """The slot's case-files dir, made if need be: below case_files_base when that is a
    directory of the judge's own user (mode 0700; another user's directory there, or a link, is
    never used: then ``fallback``)."""
    base = case_files_base()
    if base is None:
        return fallback
    try:
        base.mkdir(mode=0o700, exist_ok=True)
        st = os.lstat(base)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
            return fallback
        if st.st_mode & 0o7777 != 0o700:
            os.chmod(base, 0o700)
    except OSError:
        return fallback
    d = base / f"slot{slot_index}"
    d.mkdir(mode=0o700, exist_ok=True)
    _own(d)
    return d


def slot_case_files(slot: Slot) -> Path:
    """The slot's case-files dir; made again for the same slot where a clean-up of /dev/shm
    took it (taking another slot would keep this one's lock held)."""
    if slot.case_files != slot.work and not slot.case_files.exists():
        slot.case_files = _case_files_dir(slot.index, slot.work)
    return slot.case_files


def _own(d: Path) -> None:
    """A slot dir as the judge's own, whatever an earlier run left there: a directory (not a
    link) owned by the judge's user, mode 0700, so no solver of any slot can write it."""
    st = os.lstat(d)
    if stat.S_ISDIR(st.st_mode) and st.st_uid != os.geteuid() and os.geteuid() == 0:
        os.chown(d, 0, 0, follow_symlinks=False)  # a boxless run's scratch dir, back to the judge
        st = os.lstat(d)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
        raise RuntimeError(f"judge slot dir {d} is not a directory owned by the judge's user; remove it")
    if st.st_mode & 0o7777 != 0o700:
        os.chmod(d, 0o700)


def busy_slots(enough: int) -> int:
    """How many judge slots of this host are held (by any process, this one included), counting
    up to ``enough``: a slot's lock that cannot be taken is held."""
    locks = runtime_dir() / "locks"
    busy = 0
    for i in range(MAX_SLOTS):
        try:
            fd = os.open(locks / f"slot{i}.lock", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            break  # slots are taken lowest first: none was ever made past here
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            busy += 1
            if busy >= enough:
                return busy
        finally:
            os.close(fd)  # (a lock taken here goes with the descriptor)
    return busy


def pick_cpu(slot: "Slot", cpus: list[int]) -> int:
    """The CPU a slot pins its samples to: of ``cpus``, the one the fewest other held
    slots are pinned to (each slot writes its choice into its own lock file), the slot's index
    modulo the CPUs breaking ties. By index alone, slots 0 and 2 of three judges on two CPUs
    shared one CPU while the other served a judge that mostly waited (validate's stalling
    probes), so the busy judges ran on one core."""
    locks = runtime_dir() / "locks"
    taken: dict[int, int] = {}
    guard = os.open(locks / "cpus.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(guard, fcntl.LOCK_EX)  # one chooser at a time: judges start together
        for i in range(MAX_SLOTS):
            if i == slot.index:
                continue
            try:
                fd = os.open(locks / f"slot{i}.lock", os.O_RDONLY | os.O_CLOEXEC)
            except OSError:
                break  # slots are taken lowest first: none was ever made past here
            try:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    continue  # not held: what it says is an ended judge's choice
                except OSError:
                    pass
                text = os.pread(fd, 32, 0).decode(errors="replace")
                if text.startswith("cpu="):
                    cpu = int(text[4:].split()[0]) if text[4:].split() else -1
                    taken[cpu] = taken.get(cpu, 0) + 1
            except ValueError:
                pass
            finally:
                os.close(fd)
        preferred = cpus[slot.index % len(cpus)]
        chosen = min(cpus, key=lambda c: (taken.get(c, 0), c != preferred, c))
        record_cpu(slot, chosen)
        return chosen
    finally:
        os.close(guard)


def record_cpu(slot: "Slot", cpu: int) -> None:
    """Write the CPU this slot pins to (-1: none) into its lock file, for pick_cpu's count."""
    if slot._lock_fd >= 0:
        data = f"cpu={cpu}\n".encode().ljust(16)
        os.pwrite(slot._lock_fd, data, 0)


# As root a slot's uid (SLOT_UID_BASE + index) and cgroups (.../ibench/slotN) are the host's,
# whatever IBENCH_RUNTIME_DIR says: every root judge claims them here too, so two judges with
# different runtime dirs (two installs, a test run beside an evaluation) never share one.
HOST_CLAIMS = Path("/run/lock/ibench-slots")


def _claim_host_slot(index: int) -> int | None:
    """The host-wide claim on slot ``index`` (a descriptor holding its lock), or None when
    another judge of this host holds it."""
    base = HOST_CLAIMS if HOST_CLAIMS.parent.is_dir() else Path("/var/lock/ibench-slots")
    base.mkdir(mode=0o700, parents=True, exist_ok=True)
    st = os.lstat(base)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != 0:
        raise RuntimeError(f"judge slot claims: {base} is not a directory owned by root; remove it")
    fd = os.open(base / f"slot{index}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def acquire_slot(iso: Isolation) -> Slot:
    global _SLOT
    if _SLOT is not None and _SLOT.work.exists():
        return _SLOT
    base = runtime_dir()
    locks = base / "locks"
    locks.mkdir(exist_ok=True)
    for i in range(MAX_SLOTS):
        fd = os.open(locks / f"slot{i}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        os.set_inheritable(fd, False)
        claim = _claim_host_slot(i) if os.geteuid() == 0 else -1
        if claim is None:  # this index's uid and cgroups are another judge's (another runtime dir)
            os.close(fd)
            continue
        # As root the solver is never root, whatever the mode: the slot's own unprivileged uid.
        slot = Slot(i, SLOT_UID_BASE + i if os.geteuid() == 0 else os.geteuid(),
                    base / f"slot{i}", base / f"slot{i}-sbx", _lock_fd=fd, _claim_fd=claim)
        # A held lock file's record is its holder's CPU for pick_cpu: the last holder's choice
        # stays in the file, and read as this holder's (an unpinned validate lane's, say) it
        # sent both of a 2-CPU node's working judges to the other CPU, each at half speed.
        record_cpu(slot, -1)
        for d in (slot.work, slot.scratch):
            d.mkdir(mode=0o700, exist_ok=True)
            _own(d)
        slot.case_files = _case_files_dir(i, slot.work)
        if os.geteuid() == 0 and not iso.box:
            os.chown(slot.scratch, slot.uid, slot.uid)  # boxless, the solver works in it
        if iso.mode == "root":
            if iso.cgroup == "v1":
                for ctl, attr in (("memory", "cg_mem"), ("pids", "cg_pids"), ("cpuacct", "cg_cpu")):
                    d = CGROUP_V1 / ctl / "ibench" / f"slot{i}"
                    d.mkdir(exist_ok=True)
                    setattr(slot, attr, str(d))
            elif iso.cgroup == "v2":
                root = _v2_root()
                assert root is not None
                d = root / "ibench" / f"slot{i}"  # controllers enabled by _v2_ok()
                d.mkdir(exist_ok=True)
                slot.cg_v2 = str(d)
        _SLOT = slot
        return slot
    raise RuntimeError(f"no free judge slot under {locks} (more than {MAX_SLOTS} judges on this machine?)")
