"""The Slurm job the bring-up runs in (time left, preemption, requeue) and the driver it runs:
re-run when it dies while the cluster is up, stopped with SIGTERM before the time limit or at a
preemption."""

from __future__ import annotations

import logging
import os
import re
import shlex
import shutil
import signal
import subprocess
import time
from typing import Mapping, Sequence

from .rayprocs import RayCluster

log = logging.getLogger("ibench.cluster.bringup")

ENV_STOP_BEFORE_END = "IBENCH_STOP_BEFORE_END_S"
ENV_SLURM_POLL = "IBENCH_SLURM_POLL_S"  # how often the job's state is read (time left, preemption)


def _slurm_duration(text: str) -> float | None:
    """Slurm's ``[D-]HH:MM:SS`` / ``MM:SS`` / ``MM`` as seconds; None for UNLIMITED and the like."""
    m = re.fullmatch(r"(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?", text.strip())
    if not m:
        return None
    days, a, b, c = m.groups()
    parts = [int(x) for x in (a, b, c) if x is not None]
    if len(parts) == 3:
        sec = parts[0] * 3600 + parts[1] * 60 + parts[2]
    elif len(parts) == 2:
        sec = parts[0] * 60 + parts[1] if days is None else parts[0] * 3600 + parts[1] * 60
    else:
        sec = parts[0] * 60 if days is None else parts[0] * 3600
    return float(sec + int(days or 0) * 86400)


class SlurmJob:
    """The Slurm job this process runs in, as ``scontrol show job`` reports it: its time left
    (the driver is stopped before the limit, whatever ``--time`` is) and whether it is being
    preempted (Slurm then ends the job's steps, the Ray nodes, at once and signals nothing to
    the batch script)."""

    def __init__(self, job_id: str) -> None:
        self.job_id = job_id
        self.preempted_seen = False  # run_driver stopped the driver because of a preemption

    def requeue(self) -> bool:
        """``scontrol requeue`` this job. After a preemption the driver stops in Slurm's grace
        time; a batch script that then exits on its own would end the job FAILED, not requeued."""
        try:
            proc = subprocess.run(["scontrol", "requeue", self.job_id], capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.SubprocessError) as exc:
            log.error("job %s: scontrol requeue failed: %s", self.job_id, exc)
            return False
        if proc.returncode != 0:
            log.error("job %s: scontrol requeue: %s", self.job_id, (proc.stderr or proc.stdout).strip())
            return False
        log.warning("job %s requeued (preempted): it resumes from its results store when it runs again", self.job_id)
        return True

    @classmethod
    def current(cls, env: Mapping[str, str] | None = None) -> "SlurmJob | None":
        e: Mapping[str, str] = os.environ if env is None else env
        job = e.get("SLURM_JOB_ID")
        return cls(job) if job and shutil.which("scontrol") else None

    def show(self) -> dict[str, str]:
        try:
            out = subprocess.run(["scontrol", "show", "job", "-o", self.job_id], capture_output=True, text=True,
                                 timeout=20).stdout
        except (OSError, subprocess.SubprocessError):
            return {}
        return dict(re.findall(r"(\w+)=(\S*)", out))

    def seconds_left(self, info: dict[str, str] | None = None) -> tuple[float, float] | None:
        """(seconds left, the time limit) or None (no limit, or scontrol did not answer)."""
        info = self.show() if info is None else info
        limit, ran = _slurm_duration(info.get("TimeLimit", "")), _slurm_duration(info.get("RunTime", ""))
        if limit is None or ran is None:
            return None
        return limit - ran, limit

    def preempted(self, info: dict[str, str] | None = None) -> bool:
        info = self.show() if info is None else info
        return info.get("PreemptTime", "None") not in ("None", "", "Unknown") or info.get("JobState") in (
            "PREEMPTED", "REQUEUED", "REQUEUE_FED", "REQUEUE_HOLD")


def stop_margin(limit_s: float, wanted: float | None = None) -> float:
    """How long before the time limit the driver is stopped: ``$IBENCH_STOP_BEFORE_END_S`` when
    set (as given), else 300 s but never more than a fifth of the limit (a 5-minute job still
    runs 4 minutes)."""
    if wanted is None and os.environ.get(ENV_STOP_BEFORE_END, "").strip():
        return max(0.0, float(os.environ[ENV_STOP_BEFORE_END]))
    return max(0.0, min(300.0 if wanted is None else wanted, limit_s / 5))


class _DriverWatch:
    """The running driver and what stops it: signals to this process (forwarded to the driver),
    and, in a Slurm job, its time limit (read every ``$IBENCH_SLURM_POLL_S``, checked every
    second) and a preemption."""

    def __init__(self, job: "SlurmJob | None") -> None:
        self.job = job
        self.signal: int | None = None  # the signal that stopped the driver (forwarded or ours)
        self.proc: subprocess.Popen | None = None
        self.deadline: float | None = None
        self.margin = 0.0
        self.next_check = 0.0

    def forward(self, signum: int, _frame: object = None) -> None:
        self.signal = signum
        p = self.proc
        if p is not None and p.poll() is None:
            p.send_signal(signum)

    def watch(self) -> None:
        job = self.job
        if job is None or self.signal is not None:
            return
        now = time.monotonic()
        info: dict[str, str] = {}
        if now >= self.next_check:  # scontrol every poll; the deadline is checked every second
            self.next_check = now + float(os.environ.get(ENV_SLURM_POLL, "10"))
            info = job.show()
            left = job.seconds_left(info) if info else None
            if left is not None:
                remaining, limit = left
                self.margin = stop_margin(limit)
                self.deadline = now + remaining - self.margin
        if info and job.preempted(info):
            log.warning("job %s is being preempted (Slurm ends its Ray nodes; PreemptTime=%s): stopping the driver; "
                        "the job is requeued and resumes from its results store", job.job_id,
                        info.get("PreemptTime", "?"))
            job.preempted_seen = True
            self.forward(signal.SIGTERM)
        elif self.deadline is not None and now >= self.deadline:
            log.warning("job %s reaches its time limit in %.0f s: stopping the driver (SIGTERM; $%s sets how long "
                        "before the limit)", job.job_id, max(0.0, self.deadline + self.margin - now),
                        ENV_STOP_BEFORE_END)
            self.forward(signal.SIGTERM)

    def run_once(self, command: Sequence[str], env: dict[str, str]) -> int:
        """One driver attempt; its exit status as a shell reports it (128 + N when killed by N)."""
        self.proc = subprocess.Popen(list(command), env=env)
        while True:
            try:
                rc = self.proc.wait(timeout=1.0)
                break
            except subprocess.TimeoutExpired:
                self.watch()
        return 128 - rc if rc < 0 else rc


def run_driver(cluster: RayCluster, command: Sequence[str], retries: int = 1, job: "SlurmJob | None" = None) -> int:
    """Run ``command`` with the cluster's environment; re-run it if it fails while every node is
    still up (a driver that dies resumes from its results store). SIGTERM/SIGINT (scancel, the
    job's time limit) go to the driver, then the cluster is stopped.

    In a Slurm job (``job``): the driver gets SIGTERM :func:`stop_margin` before the job's time
    limit (read from scontrol, again every poll: a changed limit counts), and when Slurm says
    the job is being preempted (its Ray nodes are being ended), the driver gets SIGTERM at once:
    it stores what was judged, finishes W&B and exits 143, before Slurm requeues the job (the
    requeued job resumes)."""
    env = cluster.driver_env()
    w = _DriverWatch(job)
    old = {s: signal.signal(s, w.forward) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGUSR1)}
    rc = 1
    try:
        for attempt in range(retries + 1):
            log.info("driver attempt %d/%d: %s", attempt + 1, retries + 1, shlex.join(command))
            rc = w.run_once(command, env)
            if rc == 0 or w.signal is not None:
                break
            if len(cluster.alive_nodes()) < 1 or not cluster.procs[cluster.spec.nodes[0]].alive():
                if job is not None and job.preempted():
                    job.preempted_seen = True
                    log.warning("job %s is being preempted; the driver exited %d; the job is requeued", job.job_id, rc)
                else:
                    log.error("driver exited %d and the head is gone; not retrying", rc)
                break
            log.warning("driver exited %d; re-running it (it resumes from its results store)", rc)
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    return rc
