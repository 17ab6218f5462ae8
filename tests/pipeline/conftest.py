"""Shared fixtures for the pipeline tests: one local Ray instance per test session (starting Ray
costs seconds), and small task folders built in tmp_path."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


@pytest.fixture(scope="session")
def ray_session():
    """A local Ray with 2 CPUs and 2 *declared* GPUs (logical resources only: the vLLM wiring test
    places its actors on them with a stand-in engine; nothing touches a real GPU)."""
    import ray

    # The stand-in engine modules must be importable in Ray's worker processes, which Ray's
    # local node starts with this process's environment.
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    paths = [str(HERE), str(REPO), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    started = False
    if not ray.is_initialized():
        ray.init(num_cpus=2, num_gpus=2, include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
        started = True
    yield ray
    if started:
        ray.shutdown()
