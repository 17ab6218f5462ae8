"""Fast checks of the cluster layer, without starting Ray: node lists, launchers, the cluster
environment file, driver re-runs, sandbox mismatch detection, cluster=slurm's connection logic,
the Slurm scripts and launcher config, and the sweep report."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from ibench.cluster.bringup import (BringupError, ClusterSpec, NodeProc, RayCluster, SrunLauncher, expand_hostlist,
                                    make_launcher, node_list, run_driver)
from ibench.cluster.judging import NodeInfo, sandbox_mismatches
from ibench.cluster.slurm import NotTheDriver, SlurmCluster, read_env_file

REPO = Path(__file__).resolve().parents[2]


# -- node lists ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("spec, names", [
    ("gpu[01-03,07]", ["gpu01", "gpu02", "gpu03", "gpu07"]),
    ("a1,b[2-3],c", ["a1", "b2", "b3", "c"]),
    ("n[8-10]", ["n8", "n9", "n10"]),
    ("rack[1-2]-n[1-2]", ["rack1-n1", "rack1-n2", "rack2-n1", "rack2-n2"]),
    ("single", ["single"]),
])
def test_expand_hostlist(spec, names):
    assert expand_hostlist(spec) == names


def test_node_list_precedence(monkeypatch):
    env = {"IBENCH_NODES": "x, y", "SLURM_JOB_NODELIST": "gpu[1-2]"}
    assert node_list("a,b", env) == ["a", "b"]
    assert node_list(None, env) == ["x", "y"]
    monkeypatch.setattr("shutil.which", lambda name, *a, **k: None)  # no scontrol here: the expander
    assert node_list(None, {"SLURM_JOB_NODELIST": "gpu[1-2]"}) == ["gpu1", "gpu2"]
    assert len(node_list(None, {})) == 1  # this host
    with pytest.raises(BringupError):
        node_list("a,a", {})


def test_launchers(monkeypatch):
    argv = ["python", "-m", "ibench.cluster.bringup", "node"]
    srun = SrunLauncher(extra=["--gpus-per-task=8"]).wrap("gpu07", argv)
    assert srun[:4] == ["srun", "--nodes=1", "--ntasks=1", "--nodelist=gpu07"] and srun[-4:] == argv
    assert "--gpus-per-task=8" in srun
    assert make_launcher("local").wrap("n1", argv) == argv
    assert make_launcher("ssh {node}").wrap("n1", argv) == ["ssh", "n1", *argv]
    monkeypatch.delenv("SLURM_JOB_ID", raising=False)
    assert make_launcher("auto").name == "local"
    with pytest.raises(BringupError):
        make_launcher("nonsense")



def test_heterogeneous_job_components_launcher_and_node_resources(monkeypatch, tmp_path):
    """slurm/ibench-hetero.sbatch: the nodes of a heterogeneous job's components (component 0,
    the GPU nodes, first), ``srun --het-group=I``, CPU nodes without GPUs, GPU nodes with one Ray
    CPU per GPU (what the vLLM bundles take)."""
    from ibench.cluster.bringup import cpu_nodes_from, het_groups
    from ibench.cluster.raynode import visible_gpus

    monkeypatch.setattr("shutil.which", lambda name, *a, **k: None)  # the expander, not scontrol
    env = {"SLURM_HET_SIZE": "2", "SLURM_JOB_NODELIST": "g1", "SLURM_JOB_NODELIST_HET_GROUP_0": "g1",
           "SLURM_JOB_NODELIST_HET_GROUP_1": "c[1-2]"}
    assert het_groups(env) == {"g1": 0, "c1": 1, "c2": 1} and het_groups({"SLURM_JOB_NODELIST": "g1"}) == {}
    nodes = node_list(None, env)
    assert nodes == ["g1", "c1", "c2"]
    assert cpu_nodes_from("het", nodes, env) == ["c1", "c2"] and cpu_nodes_from("c2", nodes, env) == ["c2"]
    with pytest.raises(BringupError, match="not a heterogeneous"):
        cpu_nodes_from("het", nodes, {})
    srun = SrunLauncher(extra=[], groups=het_groups(env))
    assert srun.wrap("c2", ["x"])[:3] == ["srun", "--het-group=1", "--nodes=1"]
    spec = ClusterSpec(job_dir=tmp_path, nodes=nodes, cpu_nodes=["c1", "c2"])
    assert spec.resources("c1") == (None, 0, None) and spec.resources("g1") == (None, None, 1.0)
    argv = RayCluster(spec)._node_argv("head", "g1", *spec.resources("g1"))
    assert argv[argv.index("--cpus-per-gpu") + 1] == "1" and "--num-cpus" not in argv
    assert ClusterSpec(job_dir=tmp_path, nodes=nodes, cpu_nodes=["c1"], gpu_node_cpus=4).resources("g1")[0] == 4
    assert ClusterSpec(job_dir=tmp_path, nodes=nodes).resources("c1") == (None, None, None)  # not heterogeneous
    with pytest.raises(BringupError):
        ClusterSpec(job_dir=tmp_path, nodes=nodes, cpu_nodes=["elsewhere"])
    assert visible_gpus({"CUDA_VISIBLE_DEVICES": "0,1"}) == 2 and visible_gpus({"CUDA_VISIBLE_DEVICES": ""}) == 0
    assert visible_gpus({"SLURM_GPUS_ON_NODE": "8"}) == 8 and visible_gpus({}) == 0
    sbatch = (REPO / "slurm" / "ibench-hetero.sbatch").read_text()
    assert "#SBATCH hetjob" in sbatch and "--cpu-nodes het" in sbatch and "cluster=slurm-hetero" in sbatch

# -- the environment a driver gets ---------------------------------------------------------------------
def test_env_file_round_trip(tmp_path):
    c = RayCluster(ClusterSpec(job_dir=tmp_path / "job", nodes=["h"]))
    (tmp_path / "job").mkdir()
    c.address = "10.0.0.1:6380"
    c.procs["h"] = NodeProc("h", "head", "h", [], tmp_path / "h.log", os.getpid())
    env = read_env_file(c.write_env_file())
    assert env == {"RAY_ADDRESS": "10.0.0.1:6380", "RAY_AUTH_MODE": "token",
                   "RAY_AUTH_TOKEN_PATH": str(tmp_path / "job" / "auth_token"),
                   "IBENCH_CLUSTER_DIR": str(tmp_path / "job"), "IBENCH_CLUSTER_NODES": "1"}


def test_driver_is_rerun_while_the_cluster_is_up(tmp_path):
    """A driver that dies is run again (it resumes from its store); not when the head is gone."""
    c = RayCluster(ClusterSpec(job_dir=tmp_path, nodes=["h"]))
    c.procs["h"] = NodeProc("h", "head", "h", [], tmp_path / "h.log", os.getpid())  # "alive": this process
    counter = tmp_path / "attempts"
    script = (f"import pathlib,sys; p=pathlib.Path({str(counter)!r}); n=int(p.read_text()) if p.exists() else 0; "
              "p.write_text(str(n+1)); sys.exit(0 if n >= 1 else 3)")
    assert run_driver(c, [sys.executable, "-c", script], retries=2) == 0
    assert counter.read_text() == "2"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    c.procs["h"] = NodeProc("h", "head", "h", [], tmp_path / "h.log", dead.pid, dead)
    counter.unlink()
    assert run_driver(c, [sys.executable, "-c", script], retries=2) == 3
    assert counter.read_text() == "1"


# -- sandboxes across nodes ----------------------------------------------------------------------------
def test_sandbox_mismatch_is_visible():
    survey = [NodeInfo("a/1", "a", "1", "", "root+cgroup-v1+box+seccomp"),
              NodeInfo("b/2", "b", "2", "", "root+cgroup-v1+box+seccomp"),
              NodeInfo("c/3", "c", "3", "", "rlimit+seccomp")]
    assert sandbox_mismatches(survey) == {"c/3": "rlimit+seccomp (majority: root+cgroup-v1+box+seccomp)"}
    assert sandbox_mismatches(survey[:2]) == {}
    import polars as pl

    verdicts = pl.DataFrame({"node": ["a/1", "a/1", "b/2", "b/2", "c/3"],
                             "sandbox": ["root+x", "root+x", "root+x", "", "rlimit+seccomp"]})
    assert set(sandbox_mismatches(verdicts)) == {"c/3"}  # rows without a label (no code) are ignored


# -- cluster=slurm -------------------------------------------------------------------------------------
def test_slurm_cluster_reads_the_bringup_env(tmp_path, monkeypatch):
    job = tmp_path / "job"
    job.mkdir()
    (job / "cluster.env").write_text("export RAY_ADDRESS=10.1.2.3:6379\nexport RAY_AUTH_MODE=token\n"
                                     f"export RAY_AUTH_TOKEN_PATH={job}/auth_token\nexport IBENCH_CLUSTER_NODES=4\n")
    monkeypatch.setenv("IBENCH_CLUSTER_DIR", str(job))
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    env = SlurmCluster()._connection()
    assert env["RAY_ADDRESS"] == "10.1.2.3:6379" and env["IBENCH_CLUSTER_NODES"] == "4"
    assert SlurmCluster(address="ray://h:10001")._connection()["RAY_ADDRESS"] == "ray://h:10001"


def test_slurm_cluster_without_a_cluster(monkeypatch):
    for k in ("IBENCH_CLUSTER_DIR", "RAY_ADDRESS"):
        monkeypatch.delenv(k, raising=False)
    import ray

    if ray.is_initialized():
        pytest.skip("a Ray connection is open in this process")
    with pytest.raises(RuntimeError, match="no Ray cluster to join"):
        SlurmCluster(start_if_missing=False).start()
    monkeypatch.setenv("SLURM_PROCID", "1")  # a second task of a multi-task job: rank 0 drives
    c = SlurmCluster()
    with pytest.raises(NotTheDriver):
        c.start()
    assert not c.is_driver


def test_cluster_configs_compose():
    from hydra import compose, initialize_config_dir
    from hydra.utils import instantiate

    from ibench.run import config

    with initialize_config_dir(str(config.CONF_DIR), version_base="1.3"):
        cfg = compose("config", overrides=["cluster=slurm", "hydra/launcher=slurm"], return_hydra_config=True)
    c = instantiate(cfg.cluster)
    assert isinstance(c, SlurmCluster) and c.jobs_dir.endswith("ray-clusters")
    assert cfg.hydra.launcher._target_.endswith("SlurmLauncher")
    assert cfg.hydra.launcher.gpus_per_node == 8 and cfg.hydra.launcher.max_num_timeout > 0


def test_launcher_config_renders_an_sbatch_script(tmp_path, monkeypatch):
    """The launcher config's keys are ones submitit accepts; the script it would submit."""
    from hydra import compose, initialize_config_dir
    from omegaconf import OmegaConf

    from ibench.run import config

    fake_srun = tmp_path / "bin" / "srun"
    fake_srun.parent.mkdir()
    fake_srun.write_text("#!/bin/sh\nexit 0\n")
    fake_srun.chmod(fake_srun.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{fake_srun.parent}{os.pathsep}{os.environ['PATH']}")
    with initialize_config_dir(str(config.CONF_DIR), version_base="1.3"):
        cfg = compose("config", overrides=["cluster=slurm", "hydra/launcher=slurm", "hydra.launcher.partition=a100",
                                           f"hydra.sweep.dir={tmp_path}/sweep"], return_hydra_config=True)
    params = OmegaConf.to_container(cfg.hydra.launcher, resolve=True)
    params.pop("_target_")
    import submitit
    from hydra_plugins.hydra_submitit_launcher.config import BaseQueueConf

    # As BaseSubmititLauncher.launch maps them:
    ex = submitit.AutoExecutor(folder=params.pop("submitit_folder"), cluster="slurm",
                               slurm_max_num_timeout=params.pop("max_num_timeout"))
    base = set(OmegaConf.structured(BaseQueueConf).keys())
    ex.update_parameters(**{k if k in base else f"slurm_{k}": v for k, v in params.items()})
    text = ex._executor._make_submission_file_text("python -u -m submitit.core._submit X", "uid")
    assert "#SBATCH --gpus-per-node=8" in text and "#SBATCH --partition=a100" in text
    assert "#SBATCH --cpus-per-task=64" in text and "#SBATCH --time=1440" in text
    line = '[ -n "$IBENCH_WANDB_GROUP" ] || export IBENCH_WANDB_GROUP="sweep-$SLURM_ARRAY_JOB_ID"'
    assert line in text
    # Hydra resolves the launcher's config a second time when it submits (an escaped \${VAR}
    # became an interpolation there: UnsupportedInterpolationType); the setup lines survive it.
    again = OmegaConf.to_container(OmegaConf.create(OmegaConf.to_container(cfg.hydra.launcher, resolve=True)),
                                   resolve=True)
    assert line in again["setup"]


def test_slurm_scripts():
    for script in ("slurm/ibench.sbatch", "slurm/ray_cluster.sh"):
        subprocess.run(["bash", "-n", str(REPO / script)], check=True)
        assert os.access(REPO / script, os.X_OK)
    sbatch = (REPO / "slurm" / "ibench.sbatch").read_text()
    assert "ibench.cluster.bringup run" in sbatch and "ibench.launch cluster=slurm" in sbatch
    out = subprocess.run(["bash", str(REPO / "slurm" / "ray_cluster.sh"), "nodes"], capture_output=True, text=True,
                         env={**os.environ, "IBENCH_NODES": "n1,n2"}, check=True)
    assert out.stdout.split() == ["n1", "n2"]


# -- the sweep report ----------------------------------------------------------------------------------
def _fake_run(root: Path, budget: int, model: str, solved: list[int]) -> Path:
    """A run folder as ibench.launch leaves it: config.resolved.yaml + summary files."""
    from omegaconf import OmegaConf

    from ibench.results.metrics import summarize
    from ibench.results.report import write_files
    from ibench.tasks.model import Task, TaskKind

    run = root / model / f"sampling.reasoning_budget={budget}"
    run.mkdir(parents=True)
    tasks = [Task(root=root, task_id=f"t{i}", kind=TaskKind.INTERACTIVE, cpu_time_limit_ms=1000, memory_limit_mb=256,
                  difficulty="Easy", categories=("Search",), cases=()) for i in range(len(solved))]
    verdicts = {f"t{i}": ["OK"] * c + ["WA"] * (10 - c) for i, c in enumerate(solved)}
    s = summarize(model, tasks, verdicts, ks=[1, 5], bootstrap=50, confidence=0.9, seed=0)
    write_files(s, run, plots=False)
    OmegaConf.save(OmegaConf.create({"model": {"name": model}, "sampling": {"name": "reasoning_budget",
                                     "reasoning_budget": budget, "n": 10}, "paths": {"root_dir": str(run)}}),
                   run / "config.resolved.yaml")
    return run


def test_sweep_report(tmp_path):
    from ibench.results.sweep import collect, main

    for model, curve in {"qwen3-32b": [[1, 0], [4, 2], [8, 5]], "qwen3-14b": [[0, 0], [2, 1], [5, 3]]}.items():
        for budget, solved in zip([4096, 16384, 32768], curve):
            _fake_run(tmp_path / "sweeps", budget, model, solved)
    key, runs = collect([tmp_path / "sweeps"])
    assert key == "sampling.reasoning_budget" and len(runs) == 6
    big = [r for r in runs if r.model == "qwen3-32b"]
    assert [r.value for r in big] == [4096, 16384, 32768]
    assert [round(r.pass_at[1], 3) for r in big] == [0.05, 0.3, 0.65]
    out = tmp_path / "report"
    assert main([str(tmp_path / "sweeps"), "--out", str(out)]) == 0
    assert (out / "sweep.png").stat().st_size > 5000
    table = (out / "sweep.csv").read_text().splitlines()
    assert table[0].startswith("model,sampling.reasoning_budget,pass@1") and len(table) == 7
    assert "| qwen3-32b | 32768 | 0.650 |" in (out / "sweep.md").read_text()


# -- the Slurm side of the bring-up (issue 17) ------------------------------------------------------
def test_slurm_durations_and_the_stop_margin(monkeypatch):
    from ibench.cluster.bringup import _slurm_duration, stop_margin

    assert [_slurm_duration(t) for t in ("00:05:00", "5:00", "1-00:00:00", "2-03", "10", "UNLIMITED")] == [
        300, 300, 86400, 2 * 86400 + 3 * 3600, 600, None]
    monkeypatch.delenv("IBENCH_STOP_BEFORE_END_S", raising=False)
    assert stop_margin(86400) == 300 and stop_margin(300) == 60  # a 5-minute job still runs 4
    monkeypatch.setenv("IBENCH_STOP_BEFORE_END_S", "50")
    assert stop_margin(60) == 50  # set by hand: as given


def test_slurm_job_state_from_scontrol(tmp_path, monkeypatch):
    from ibench.cluster.bringup import SlurmJob

    fake = tmp_path / "scontrol"
    fake.write_text("#!/bin/sh\necho 'JobId=7 JobState=RUNNING RunTime=00:01:00 TimeLimit=00:05:00 "
                    "PreemptTime=2026-12-02T13:04:42 Command=/a b/c'\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    job = SlurmJob.current({"SLURM_JOB_ID": "7"})
    assert job is not None and job.seconds_left() == (240.0, 300.0) and job.preempted()
    assert not job.preempted({"JobState": "RUNNING", "PreemptTime": "None"})
    assert SlurmJob.current({}) is None


def test_the_head_is_found_by_slurmd_nodename():
    from ibench.cluster.slurm import this_node

    assert this_node(["node1", "node2"], {"SLURMD_NODENAME": "node2"}) == "node2"
    assert this_node(["node1"], {"SLURMD_NODENAME": "elsewhere"}) not in ("elsewhere",)


def test_ray_temp_folder_removed_only_when_ibench_made_it_and_no_node_uses_it(tmp_path):
    from ibench.cluster.bringup import _make_temp_dir, _remove_temp_if_unused

    theirs = tmp_path / "theirs"
    theirs.mkdir()
    _make_temp_dir(theirs)
    assert not _remove_temp_if_unused(theirs) and theirs.is_dir()  # a folder that existed stays
    ours = tmp_path / "ours"
    _make_temp_dir(ours)
    (ours / ".ibench-nodes").mkdir()
    (ours / ".ibench-nodes" / f"node1.{os.getpid()}").write_text("")  # a live node process
    assert not _remove_temp_if_unused(ours)
    (ours / ".ibench-nodes" / f"node1.{os.getpid()}").unlink()
    (ours / ".ibench-nodes" / "node2.999999999").write_text("")  # a dead one
    assert _remove_temp_if_unused(ours) and not ours.exists()


def test_a_driver_killed_by_a_signal_exits_128_plus_n(tmp_path):
    from ibench.cluster.bringup import run_driver

    cluster = RayCluster(ClusterSpec(job_dir=tmp_path / "job", nodes=["n1"]))
    rc = run_driver(cluster, [sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGTERM)"],
                    retries=0)
    assert rc == 143


def test_sigterm_through_rays_keyboardinterrupt_is_still_sigterm():
    import signal as sig

    from ibench.run import interrupts

    with interrupts.interrupt_signals():
        try:
            interrupts._on_term(sig.SIGTERM, None)
        except interrupts.Terminated:
            pass
        # Ray's ray.wait catches the Terminated raised inside it and raises a bare KeyboardInterrupt:
        assert interrupts.signum_of(KeyboardInterrupt()) == sig.SIGTERM
    with interrupts.interrupt_signals():
        assert interrupts.signum_of(KeyboardInterrupt()) == sig.SIGINT  # Ctrl-C
