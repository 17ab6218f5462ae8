"""Helpers for the multi-node tests (imported by conftest.py and the test modules; a uniquely
named module, since every test folder has a ``conftest``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "tests" / "judge"))

from judge_fixtures import build_guess_task  # noqa: E402

from ibench.cluster.bringup import ClusterSpec, LocalLauncher, RayCluster, session_pids  # noqa: E402
from ibench.cluster.slurm import read_env_file  # noqa: E402

# Fast node-failure detection for the tests (GCS health checks; Ray's defaults take ~30 s).
FAST_FAILURE = {"RAY_health_check_initial_delay_ms": "1000", "RAY_health_check_period_ms": "1000",
                "RAY_health_check_timeout_ms": "1000", "RAY_health_check_failure_threshold": "3"}
OBJECT_STORE = 80 * 1024 * 1024
# Drivers print their result after this mark: Ray forwards its own warnings (lagging heartbeats,
# dead nodes) to the driver's stdout, so "the last line" is not reliably ours.
RESULT_MARK = "IBENCH-RESULT "


def result_of(stdout: str) -> dict:
    lines = [line for line in stdout.splitlines() if line.startswith(RESULT_MARK)]
    assert len(lines) == 1, f"expected one {RESULT_MARK!r} line on the driver's stdout:\n{stdout[-3000:]}"
    return json.loads(lines[0][len(RESULT_MARK):])


def node_env() -> dict[str, str]:
    paths = [str(REPO), str(HERE), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return {"PYTHONPATH": os.pathsep.join(dict.fromkeys(paths)), "RAY_DEDUP_LOGS": "0",
            "RAY_USAGE_STATS_ENABLED": "0", **FAST_FAILURE}


def build_tasks(root: Path, n: int = 2) -> Path:
    """``n`` copies of the guess-the-number task (ids guess0, guess1, ...) in ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        src = build_guess_task(root / f"_build{i}")
        meta = json.loads((src / "meta.json").read_text())
        meta["problem_id"] = f"guess{i}"
        (src / "meta.json").write_text(json.dumps(meta))
        shutil.move(str(src), str(root / f"guess{i}"))
        shutil.rmtree(root / f"_build{i}")
    return root


class LocalTwoNodes:
    """The cluster the bring-up script started, and handles to its node processes."""

    def __init__(self, job_dir: Path, temp_dir: Path) -> None:
        self.job_dir = job_dir
        self.temp_dir = temp_dir
        loaded = RayCluster.from_job_dir(job_dir)
        self.cluster = RayCluster(ClusterSpec(job_dir=job_dir, nodes=list(loaded.procs), launcher=LocalLauncher(),
                                              temp_dir=str(temp_dir), object_store_bytes=OBJECT_STORE,
                                              timeout_s=120, env=node_env()))
        self.cluster.procs = loaded.procs
        self.cluster.address = loaded.address
        self.env_file = job_dir / "cluster.env"

    def driver_env(self) -> dict[str, str]:
        env = {**os.environ, **node_env(), **read_env_file(self.env_file)}
        env.pop("RAY_AUTH_TOKEN", None)
        env["RAY_ADDRESS"] = self.cluster.address
        return env

    def driver(self, *args: str, timeout: float = 180) -> dict:
        """Run ``cluster_driver.py ARGS`` against the cluster; its JSON line."""
        proc = subprocess.run([sys.executable, str(HERE / "cluster_driver.py"), *args], env=self.driver_env(),
                              capture_output=True, text=True, timeout=timeout)
        assert proc.returncode == 0, f"driver failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}"
        return result_of(proc.stdout)

    def all_pids(self) -> list[int]:
        return [pid for p in self.cluster.procs.values() for pid in session_pids(p.pid)]

    def teardown(self) -> None:
        self.cluster.down(grace_s=0)
        shutil.rmtree(self.temp_dir, ignore_errors=True)
