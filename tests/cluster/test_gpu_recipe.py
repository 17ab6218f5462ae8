"""The GPU Slurm recipe's checks and engine arguments, without GPUs and without importing vLLM:
the preflight refuses (exit 2, the field named, in under 2 s) a job whose GPUs do not divide as
tensor_parallel_size × pipeline_parallel_size, a tensor-parallel group larger than a node, and
weights missing on the node (a local folder, or a hub id under HF_HUB_OFFLINE=1); the engine
arguments and placement groups come from TP and PP (ibench.generate.vllm_layout)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from ibench.generate.vllm_layout import Layout, layout_problems, slurm_gpus, weights_problem

REPO = Path(__file__).resolve().parents[2]
BIG = "model=qwen3-235b-a22b-a100x16"  # TP 8 x PP 2: two 8-GPU nodes per replica


@pytest.fixture
def job(monkeypatch, tmp_path):
    """A Slurm job's environment (what sbatch sets), no GPUs visible, the hub on-line."""
    for var in ("CUDA_VISIBLE_DEVICES", "HF_HUB_OFFLINE", "SLURM_HET_SIZE", "SLURM_GPUS_ON_NODE", "SLURM_NNODES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))

    def set_job(nodes: int, gpus_per_node: str) -> None:
        monkeypatch.setenv("SLURM_JOB_ID", "4242")
        monkeypatch.setenv("SLURM_JOB_NUM_NODES", str(nodes))
        monkeypatch.setenv("SLURM_GPUS_PER_NODE", gpus_per_node)

    return set_job


def preflight_cli(args: list[str], capsys) -> tuple[int, str, float]:
    from ibench.run.check import main

    t0 = time.perf_counter()
    rc = main(args)
    took = time.perf_counter() - t0
    return rc, capsys.readouterr().err, took


def test_a_job_whose_gpus_do_not_divide_as_tp_times_pp_is_refused(job, capsys):
    job(3, "a100:8")  # 24 GPUs: not a multiple of 8 x 2
    rc, err, took = preflight_cli([BIG, "cluster=slurm"], capsys)
    assert rc == 2 and took < 2.0, (rc, took, err)
    assert "model.pipeline_parallel_size:" in err and "24 GPUs" in err and "8 × 2 = 16" in err


def test_a_replica_larger_than_the_job_is_refused_with_the_nodes_it_needs(job, capsys):
    job(1, "8")
    rc, err, took = preflight_cli([BIG, "cluster=slurm"], capsys)
    assert rc == 2 and took < 2.0
    assert "model.pipeline_parallel_size:" in err and "--nodes=2" in err


def test_tensor_parallelism_beyond_a_node_is_refused(job, capsys):
    job(4, "4")  # 16 GPUs in all, but TP 8 cannot span two 4-GPU nodes
    rc, err, took = preflight_cli([BIG, "cluster=slurm"], capsys)
    assert rc == 2 and took < 2.0
    assert "model.tensor_parallel_size:" in err and "stays within a node" in err
    rc, err, _ = preflight_cli([BIG, "cluster=slurm", "model.tensor_parallel_size=3", "model.pipeline_parallel_size=1"],
                               capsys)
    assert rc == 2 and "model.tensor_parallel_size:" in err and "does not divide" in err


def test_the_same_model_on_the_gpus_it_needs_passes(job, capsys):
    job(2, "gpu:a100:8")
    rc, err, took = preflight_cli([BIG, "cluster=slurm"], capsys)
    assert rc == 0 and took < 2.0, err
    job(4, "8")  # two replicas' worth
    assert preflight_cli([BIG, "cluster=slurm"], capsys)[0] == 0


def test_pipeline_parallel_size_below_one_is_refused(job, capsys):
    job(2, "8")
    rc, err, _ = preflight_cli([BIG, "cluster=slurm", "model.pipeline_parallel_size=0"], capsys)
    assert rc == 2 and "model.pipeline_parallel_size: 0; expected at least 1" in err


def test_a_weights_folder_missing_on_the_node_is_refused(job, capsys, tmp_path):
    job(2, "8")
    missing = tmp_path / "weights" / "Qwen3-235B"
    rc, err, took = preflight_cli([BIG, "cluster=slurm", f"model.model={missing}"], capsys)
    assert rc == 2 and took < 2.0
    assert "model.model:" in err and str(missing) in err and "does not exist on this node" in err
    missing.mkdir(parents=True)
    (missing / "config.json").write_text("{}")
    assert preflight_cli([BIG, "cluster=slurm", f"model.model={missing}"], capsys)[0] == 0


def test_offline_hub_weights_must_be_in_the_cache(job, capsys, monkeypatch, tmp_path):
    job(2, "8")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    rc, err, took = preflight_cli([BIG, "cluster=slurm"], capsys)
    assert rc == 2 and took < 2.0
    assert "model.model: HF_HUB_OFFLINE=1 but Qwen/Qwen3-235B-A22B-Thinking-2507 is not in the Hugging Face cache" in err
    snap = tmp_path / "hf" / "hub" / "models--Qwen--Qwen3-235B-A22B-Thinking-2507" / "snapshots" / "abc123"
    snap.mkdir(parents=True)
    (snap / "config.json").write_text("{}")
    assert preflight_cli([BIG, "cluster=slurm"], capsys)[0] == 0


def test_the_command_exits_2_naming_the_field():
    """`python -m ibench.run.check` as slurm/ibench.sbatch runs it: exit 2 and the field."""
    env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "SLURM_JOB_ID": "7", "SLURM_JOB_NUM_NODES": "3",
           "SLURM_GPUS_PER_NODE": "8", "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-m", "ibench.run.check", BIG, "cluster=slurm"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert "model.pipeline_parallel_size:" in proc.stderr


def test_slurm_gpus_reads_the_jobs_request():
    assert slurm_gpus({}) is None
    assert slurm_gpus({"SLURM_JOB_ID": "1", "SLURM_JOB_NUM_NODES": "2"}) is None  # no GPUs asked for
    assert slurm_gpus({"SLURM_JOB_ID": "1", "SLURM_JOB_NUM_NODES": "2", "SLURM_GPUS_PER_NODE": "gpu:a100:8"})[:2] == (2, 8)
    assert slurm_gpus({"SLURM_JOB_ID": "1", "SLURM_NNODES": "3", "SLURM_GPUS_ON_NODE": "4"})[:2] == (3, 4)
    het = {"SLURM_JOB_ID": "1", "SLURM_HET_SIZE": "2", "SLURM_JOB_NUM_NODES": "5", "SLURM_JOB_NUM_NODES_HET_GROUP_0": "1",
           "SLURM_GPUS_PER_NODE_HET_GROUP_0": "8"}
    assert slurm_gpus(het)[:2] == (1, 8)  # the GPU component, not the whole job


def test_layout_problems_are_pure_arithmetic():
    assert layout_problems(Layout(8, 2), 2, 8, "job") == []
    assert layout_problems(Layout(4, 1), 1, 8, "job") == []
    assert layout_problems(Layout(4, 2), 1, 8, "job") == []  # PP within one node works too
    assert layout_problems(Layout(2, 1, gpus_per_bundle=0), 1, 0, "job") == []  # a CPU replica
    assert [p.split(":")[0] for p in layout_problems(Layout(4, 1), 1, 6, "job")] == [
        "model.tensor_parallel_size", "model.pipeline_parallel_size"]


def test_engine_arguments_and_placement_come_from_tp_and_pp():
    big = Layout(8, 2)
    kw = big.engine_kwargs({"max_model_len": 40960})
    assert kw == {"tensor_parallel_size": 8, "pipeline_parallel_size": 2, "max_model_len": 40960,
                  "distributed_executor_backend": "ray"}
    assert len(big.bundles()) == 16 and big.bundles()[0] == {"CPU": 1.0, "GPU": 1.0}
    assert big.strategy == "PACK" and big.actor_gpus == 0.0
    one = Layout(1, 1)
    assert one.engine_kwargs({}) == {"tensor_parallel_size": 1}  # one GPU: no Ray executor
    assert one.strategy == "STRICT_PACK" and one.actor_gpus == 1.0
    tp4 = Layout(4, 1)
    assert tp4.engine_kwargs({"distributed_executor_backend": "mp"})["distributed_executor_backend"] == "mp"
    assert "pipeline_parallel_size" not in tp4.engine_kwargs() and tp4.strategy == "STRICT_PACK"
    cpu = Layout(1, 1, gpus_per_bundle=0)
    assert cpu.bundles() == [{"CPU": 1.0}]


def test_the_worked_config_builds_the_backend_without_vllm():
    """conf/model/qwen3-235b-a22b-a100x16.yaml as Hydra composes it -> VLLMBackend -> the engine's
    arguments; vllm is never imported."""
    from hydra import compose, initialize_config_dir
    from hydra.utils import instantiate

    from ibench.run import config

    had_vllm = "vllm" in sys.modules
    with initialize_config_dir(config_dir=str(config.CONF_DIR), version_base="1.3"):
        cfg = compose("config", overrides=[BIG])
    backend = instantiate(cfg.model)
    kw = backend.layout.engine_kwargs(backend.engine_kwargs)
    assert (kw["tensor_parallel_size"], kw["pipeline_parallel_size"]) == (8, 2)
    assert kw["distributed_executor_backend"] == "ray" and kw["reasoning_parser"] == "qwen3"
    assert backend.layout.gpus_per_replica == 16 and backend.layout.strategy == "PACK"
    assert had_vllm or "vllm" not in sys.modules


def test_weights_problem_on_its_own(tmp_path):
    assert weights_problem("Qwen/Qwen3-32B", env={}) is None  # on-line: the engine downloads
    assert "does not exist" in weights_problem(str(tmp_path / "nope"), env={})
    (tmp_path / "empty").mkdir()
    assert "no config.json" in weights_problem(str(tmp_path / "empty"), env={})
    dl = tmp_path / "dl"
    msg = weights_problem("org/m", {"download_dir": str(dl)}, env={"HF_HUB_OFFLINE": "1"})
    assert msg and "model.engine_kwargs.download_dir" in msg
    (dl / "models--org--m" / "snapshots" / "r1").mkdir(parents=True)
    (dl / "models--org--m" / "snapshots" / "r1" / "config.json").write_text("{}")
    assert weights_problem("org/m", {"download_dir": str(dl)}, env={"HF_HUB_OFFLINE": "1"}) is None
