"""Helpers for the real-Slurm tests (tests/cluster/test_slurm_real.py): a Slurm cluster is up
(slurm/local/cluster.sh start, or any cluster with two idle nodes in its default partition),
jobs are submitted with sbatch, watched with scontrol, and their run folders read back."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import polars as pl

REPO = Path(__file__).resolve().parents[2]
# Small runs: two tasks, 38 known solutions.
TASKS_2 = "bench.ids=[guess-the-number,three-remainders]"
FIGURES_ENV = "IBENCH_SLURM_FIGURES"  # the lane's file of measured figures (one JSON object a line)


def cluster_state(timeout: float = 5.0) -> str | None:
    """Why the real-Slurm tests cannot run, or None when they can: sinfo answers (quickly) and
    shows two nodes that can take jobs."""
    if not shutil.which("sinfo") or not shutil.which("sbatch"):
        return "no Slurm client (sinfo/sbatch) on this machine"
    try:
        out = subprocess.run(["sinfo", "-h", "-N", "-o", "%N %t"], capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"sinfo failed: {exc}"
    if out.returncode != 0:
        return f"sinfo failed: {(out.stderr or out.stdout).strip()[:200]}"
    nodes = {line.split()[0] for line in out.stdout.splitlines()
             if len(line.split()) == 2 and line.split()[1].rstrip("*~#") in ("idle", "mix", "alloc", "comp")}
    if len(nodes) < 2:
        return f"fewer than two usable Slurm nodes: {out.stdout.strip()!r}"
    return None


def job_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment jobs are submitted with: no allocation's SLURM_* (SLURM_CONF stays),
    W&B offline, quick state polls in the bring-up."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM_") or k == "SLURM_CONF"}
    env.update({"WANDB_MODE": "offline", "IBENCH_SLURM_POLL_S": "2", "RAY_DEDUP_LOGS": "0",
                "PYTHONPATH": str(REPO)})
    env.pop("RAY_ADDRESS", None)
    env.update(extra or {})
    return env


def sbatch(out: Path, launch_args: list[str], sbatch_args: list[str] = (), env: dict[str, str] | None = None,
           script: str = "slurm/ibench.sbatch") -> str:
    """Submit ``script`` (from the repository, as a user would) with the run under ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    cmd = ["sbatch", "--parsable", f"--output={out}/slurm-%j.out", *sbatch_args, script,
           *launch_args, f"paths.output_dir={out}/outputs"]
    env_ = job_env({"IBENCH_CLUSTER_DIR": str(out / "ray-cluster"), **(env or {})})
    proc = subprocess.run(cmd, cwd=REPO, env=env_, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, f"sbatch failed: {proc.stderr}"
    return proc.stdout.strip().split(";")[0]


def job(job_id: str) -> dict[str, str]:
    out = subprocess.run(["scontrol", "show", "job", "-o", job_id], capture_output=True, text=True, timeout=30).stdout
    return dict(re.findall(r"(\w+)=(\S*)", out))


def wait_state(job_id: str, states: tuple[str, ...], timeout: float, poll: float = 1.0) -> dict[str, str]:
    """Until the job is in one of ``states`` (scontrol's JobState)."""
    end = time.monotonic() + timeout
    info: dict[str, str] = {}
    while time.monotonic() < end:
        info = job(job_id)
        if info.get("JobState") in states:
            return info
        time.sleep(poll)
    raise AssertionError(f"job {job_id} not {states} within {timeout:.0f}s: {info.get('JobState')} "
                         f"({info.get('Reason')})")


def wait_done(job_id: str, timeout: float = 240) -> dict[str, str]:
    return wait_state(job_id, ("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY",
                               "PREEMPTED", "BOOT_FAIL", "DEADLINE"), timeout)


def run_dir(out: Path) -> Path:
    found = [p.parent for p in (out / "outputs").rglob("store.json")]
    assert len(found) == 1, f"expected one run folder under {out}: {found}"
    return found[0].parent


def verdict_count(out: Path) -> int:
    try:
        return len(verdicts(run_dir(out)))
    except (AssertionError, OSError, pl.exceptions.PolarsError):
        return 0


def wait_verdicts(out: Path, n: int, job_id: str, timeout: float = 180) -> int:
    """Until ``n`` verdicts are stored (journal files are flushed as they come)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = verdict_count(out)
        if got >= n:
            return got
        info = job(job_id)
        state = info.get("JobState")
        assert state in ("PENDING", "RUNNING", "CONFIGURING"), (
            f"job {job_id} ended ({state}, ExitCode={info.get('ExitCode')}, Reason={info.get('Reason')}) before "
            f"{n} verdicts; the end of its log:\n{log_tail(out, job_id)}")
        time.sleep(1.0)
    raise AssertionError(f"fewer than {n} verdicts within {timeout:.0f}s")


def verdicts(run: Path) -> pl.DataFrame:
    from ibench.results.store import read_table

    return read_table(run / "results", "verdicts")


def samples(run: Path) -> pl.DataFrame:
    from ibench.results.store import read_table

    return read_table(run / "results", "samples")


def log_text(out: Path, job_id: str) -> str:
    return (out / f"slurm-{job_id}.out").read_text(errors="replace")


def log_tail(out: Path, job_id: str, lines: int = 60) -> str:
    """The last lines of a job's log (for a failure's message: a job that ended says why there)."""
    try:
        return "\n".join(log_text(out, job_id).splitlines()[-lines:])
    except OSError as exc:
        return f"(no log: {exc})"


def slurm_time(text: str) -> float:
    """scontrol's local time stamp (2026-12-02T13:00:19) as epoch seconds."""
    return time.mktime(time.strptime(text, "%Y-%m-%dT%H:%M:%S"))


def start_now(job_id: str) -> None:
    """A requeued job waits (BeginTime) before it may start again; start it now. (Not in the
    same second as its end: slurmd revoked the job's old credential then, and a launch at once
    is killed as "Job credential revoked".)"""
    time.sleep(3)
    subprocess.run(["scontrol", "update", f"JobId={job_id}", "StartTime=now"], capture_output=True, timeout=30)


def figure(name: str, **values) -> None:
    """Record a measured figure for the lane's summary (and print it: pytest -s shows it)."""
    row = {"figure": name, **values}
    print("FIGURE", json.dumps(row))
    path = os.environ.get(FIGURES_ENV)
    if path:
        with open(path, "a") as fh:
            fh.write(json.dumps(row) + "\n")


def local_cluster_script(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(REPO / "slurm" / "local" / "cluster.sh"), *args], capture_output=True,
                          text=True, timeout=60, env=job_env())


def local_slurmd_pid_file(node: str) -> Path:
    return Path(os.environ.get("IBENCH_SLURM_DIR", "/tmp/ibench-slurm")) / "run" / f"slurmd-{node}.pid"
