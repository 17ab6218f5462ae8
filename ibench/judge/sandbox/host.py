"""Host capabilities: which isolation the judge can use here, decided once per process.

Modes, strongest first:
- ``root``: the judge runs as root; the solver runs as a per-slot unprivileged uid inside a
  private mount namespace (task folders hidden, /proc with hidepid) and a per-slot cgroup
  (memory limit and OOM detection, process count, exact tree CPU time), plus seccomp and rlimits.
- ``rlimit``: no root (a typical Slurm node): rlimits (CPU, address space, stack, file size),
  seccomp (no network, no ptrace) and the process-group/subreaper clean-up only. The solver runs
  as the judge's own user and could read files that user can read; this is recorded as a warning
  in every result.
"""

from __future__ import annotations

import fcntl
import functools
import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

CGROUP_V1 = Path("/sys/fs/cgroup")
CGROUP_V2_ROOTS = (Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/unified"))
SLOT_UID_BASE = 61000  # solver uids: SLOT_UID_BASE + slot; no files on the host belong to them
MAX_SLOTS = 512


@dataclass
class Isolation:
    mode: str  # "root" | "rlimit"
    cgroup: str  # "v1" | "v2" | "none"
    mountns: bool
    warnings: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        parts = [self.mode]
        if self.cgroup != "none":
            parts.append(f"cgroup-{self.cgroup}")
        if self.mountns:
            parts.append("mountns")
        parts.append("seccomp")
        return "+".join(parts)


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


def _mountns_ok() -> bool:
    try:
        r = subprocess.run(["unshare", "--mount", "true"], capture_output=True, timeout=10)
        return r.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@functools.lru_cache(maxsize=None)
def detect_isolation(requested: str = "auto") -> Isolation:
    """The strongest isolation available, or the one requested (``root``/``rlimit``)."""
    if requested not in ("auto", "root", "rlimit"):
        raise ValueError(f"judge.isolation: expected auto, root or rlimit, got {requested!r}")
    is_root = os.geteuid() == 0
    if requested == "rlimit" or (requested == "auto" and not is_root):
        iso = Isolation("rlimit", "none", False)
        iso.warnings.append(
            "degraded sandbox (not root): no private mount namespace, cgroup or separate uid; "
            "the solver runs as the judge's user and could read files that user can read"
        )
        return iso
    if not is_root:
        raise RuntimeError("judge.isolation=root requested but the judge is not running as root")
    cgroup = "v1" if _v1_ok() else ("v2" if _v2_ok() else "none")
    iso = Isolation("root", cgroup, _mountns_ok())
    if cgroup == "none":
        iso.warnings.append("no usable cgroup: memory limit by peak RSS only, CPU time of the main process only")
    if not iso.mountns:
        iso.warnings.append("no mount namespace: task folders are not hidden from the solver by a mount")
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
    work: Path  # root-only: interactor files, tout, stderr captures
    scratch: Path  # the solver's working directory, owned by the slot uid
    cg_mem: str | None = None
    cg_pids: str | None = None
    cg_cpu: str | None = None
    cg_v2: str | None = None
    _lock_fd: int = -1


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
        slot = Slot(i, SLOT_UID_BASE + i if iso.mode == "root" else os.geteuid(),
                    base / f"slot{i}", base / f"slot{i}-sbx", _lock_fd=fd)
        slot.work.mkdir(mode=0o700, exist_ok=True)
        slot.scratch.mkdir(mode=0o700, exist_ok=True)
        if iso.mode == "root":
            os.chown(slot.scratch, slot.uid, slot.uid)
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
