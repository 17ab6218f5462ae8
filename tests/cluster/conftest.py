"""Fixtures for the multi-node tests: a two-node Ray cluster on this machine, brought up by the
bring-up script itself (``slurm/ray_cluster.sh up --launcher local``: a head and a worker, two
separate ``ray start`` processes with their own ports), and small judgeable tasks.

Every Ray process started here runs in a session the fixture knows by pid; teardown kills those
sessions (never ``ray stop``, which would stop every Ray on the machine) and removes the temp dir,
even when a test failed. Drivers run as subprocesses (``cluster_driver.py``): the test process
never holds a Ray connection, so other test modules' Ray instances are unaffected.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from cluster_fixtures import OBJECT_STORE, REPO, LocalTwoNodes, node_env


def slurm_free_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """``env`` without the ``SLURM_*`` variables of an allocation this suite may run inside
    (``SLURM_CONF``, which names the cluster, stays): the tests that mean a cluster on this
    machine must not pick up the allocation's node list, CPUs or job id."""
    env = dict(os.environ if env is None else env)
    return {k: v for k, v in env.items() if not k.startswith("SLURM_") or k == "SLURM_CONF"}


@pytest.fixture(scope="session", autouse=True)
def _no_slurm_allocation_env():
    """Run inside `salloc`/`srun`/`sbatch`, the suite still means this machine: drop SLURM_*
    for the whole session (the real-cluster tests pass their own job's variables explicitly)."""
    mp = pytest.MonkeyPatch()
    for key in list(os.environ):
        if key.startswith("SLURM_") and key != "SLURM_CONF":
            mp.delenv(key)
    yield
    mp.undo()


@pytest.fixture(scope="module")
def two_nodes(tmp_path_factory):
    """Head ``head`` (1 CPU) and worker ``gpu1`` (1 CPU, 1 declared GPU), via slurm/ray_cluster.sh."""
    job_dir = tmp_path_factory.mktemp("raycluster") / "job"
    temp_dir = Path(tempfile.mkdtemp(prefix="ibr-", dir="/tmp"))  # short: Ray's socket paths < 108 bytes
    env = {**os.environ, **node_env(), "PYTHON": sys.executable}  # the nodes' Ray = this test's (versions match)
    env.pop("RAY_ADDRESS", None)
    cmd = ["bash", str(REPO / "slurm" / "ray_cluster.sh"), "up", "--launcher", "local", "--nodes", "head,gpu1",
           "--job-dir", str(job_dir), "--temp-dir", str(temp_dir), "--cpus", "1", "--head-gpus", "0", "--gpus", "2",
           "--object-store-memory", str(OBJECT_STORE), "--timeout", "150"]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=240)
    cluster = LocalTwoNodes(job_dir, temp_dir) if (job_dir / "nodes").is_dir() else None
    try:
        assert proc.returncode == 0, f"bring-up failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}"
        assert cluster is not None
        yield cluster
    finally:
        if cluster is not None:
            cluster.teardown()
        else:
            shutil.rmtree(temp_dir, ignore_errors=True)


def pytest_configure(config):
    config.addinivalue_line("markers", "multinode: starts several Ray nodes on this machine (slow)")
