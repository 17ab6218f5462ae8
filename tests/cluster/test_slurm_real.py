"""ibench on a real Slurm cluster: ``slurm/local/cluster.sh start`` (two slurmd nodes on this
machine, partitions ``debug`` and ``high``, and ``gpu``/``cpu`` for the heterogeneous job) or any
cluster with two idle nodes. CI's Slurm lane
(``.ci/lanes/slurm.sh``) runs them; elsewhere they are skipped unless a cluster answers and they
were asked for (``-m slurm_real``, or ``IBENCH_SLURM_REAL=1``), so ``pytest tests`` on a machine
that happens to run Slurm never submits jobs.

Faults are driven, not waited for: ``scancel --batch --signal=TERM`` (a clean stop), a
``scontrol update TimeLimit`` that brings the limit close, a job in the higher-priority partition
(preemption), ``scontrol requeue``. Runs use ``model=reference`` on two tasks (38 samples).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from slurm_real import (REPO, TASKS_2, cluster_state, figure, job, job_env, local_cluster_script,
                        local_slurmd_pid_file, log_text, run_dir, samples, sbatch, slurm_time, start_now, verdicts,
                        wait_done, wait_state, wait_verdicts)

pytestmark = [pytest.mark.slurm_real, pytest.mark.timeout(420)]
_state: list[str | None] = []


def _asked(config) -> bool:
    return "slurm_real" in (config.getoption("-m") or "") or os.environ.get("IBENCH_SLURM_REAL") in ("1", "require")


@pytest.fixture(autouse=True)
def _only_with_a_cluster(request):
    if not _asked(request.config):
        pytest.skip("real-Slurm tests run with -m slurm_real or IBENCH_SLURM_REAL=1 (CI's Slurm lane)")
    if not _state:
        _state.append(cluster_state())  # sinfo, once, at most 5 s
    if _state[0] is not None:
        if os.environ.get("IBENCH_SLURM_REAL") == "require":  # the lane started one: not having it fails
            pytest.fail(f"no Slurm cluster: {_state[0]}")
        pytest.skip(f"no Slurm cluster: {_state[0]}")


N2 = 38  # samples of the two-task run (the known solutions of guess-the-number and three-remainders)


def _once(run: Path) -> tuple[int, int]:
    """(verdicts, distinct sample ids): equal when every sample was judged exactly once."""
    v = verdicts(run)
    return v.height, v["sample_id"].n_unique()


def _compare_summary(a: Path, b: Path) -> None:
    sa, sb = json.loads((a / "summary.json").read_text()), json.loads((b / "summary.json").read_text())
    for key in ("n_tasks", "n_samples", "n_accepted", "n_judge_errors", "overall", "by_difficulty", "by_category",
                "failure_counts", "tasks"):
        assert sa[key] == sb[key], (f"summary[{key!r}] differs:\n{sa[key]}\n{sb[key]}\nfailures: "
                                    f"{sa['failure_counts']} vs {sb['failure_counts']}")


def _first_verdict_s(run: Path, info: dict[str, str]) -> float:
    return float(verdicts(run)["judged_at"].min()) - slurm_time(info["SubmitTime"])


# -- the shipped script, end to end ---------------------------------------------------------------
def test_sbatch_two_nodes_every_sample_once_and_summary_equals_a_local_run(tmp_path):
    t0 = time.time()
    jid = sbatch(tmp_path / "slurm", ["model=reference", TASKS_2])
    wait_verdicts(tmp_path / "slurm", 1, jid)  # (the figure below: submission to first verdict, unloaded)
    # The same evaluation on this machine without Slurm, meanwhile: its summary must be the same.
    local = tmp_path / "local"
    local_run = subprocess.Popen([sys.executable, "-m", "ibench.launch", "model=reference", TASKS_2,
                                  f"paths.output_dir={local}"], cwd=REPO, env=job_env(), stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
    info = wait_done(jid, timeout=300)
    log = log_text(tmp_path / "slurm", jid)
    assert info["JobState"] == "COMPLETED" and info["ExitCode"] == "0:0", log[-4000:]
    wall = time.time() - t0
    run = run_dir(tmp_path / "slurm")
    # The head on the first node (the batch script's), a worker on the other, each through srun.
    nodes = {json.loads(p.read_text())["name"]: json.loads(p.read_text())
             for p in (tmp_path / "slurm" / "ray-cluster" / "nodes").glob("*.json")}
    assert {n: d["role"] for n, d in nodes.items()} == {"node1": "head", "node2": "worker"}, nodes
    assert all(d["command"][0] == "srun" and f"--nodelist={n}" in d["command"] for n, d in nodes.items())
    assert "cluster up at" in log and "node1, node2" in log
    v = verdicts(run)
    assert _once(run) == (samples(run).height, samples(run).height) == (38, 38)
    assert v["node"].n_unique() == 2, "both Ray nodes judged"  # label host/<ray node id>
    assert not Path(f"/tmp/ibench-ray-{jid}").exists(), "Ray's temp folder is removed at the end"
    first = _first_verdict_s(run, info)
    figure("sbatch submission to first verdict", seconds=round(first, 1), job=jid,
           submission_to_end_s=round(wall, 1), samples=v.height)
    assert first < 120, f"first verdict {first:.0f}s after submission"
    _, err = local_run.communicate(timeout=300)
    assert local_run.returncode == 0, err[-3000:]
    _compare_summary(run, next(p.parent for p in local.rglob("summary.json")))


# -- the documented sweep, through hydra-submitit ------------------------------------------------
def test_submitit_sweep_one_run_folder_each_one_wandb_group_and_the_sweep_report(tmp_path):
    out = tmp_path / "sweep"
    t0 = time.time()
    cmd = [sys.executable, "-m", "ibench.launch", "-m", "hydra/launcher=slurm", "cluster=slurm", "model=reference",
           "bench.ids=[guess-the-number]", "sampling.reasoning_budget=1024,2048", f"paths.output_dir={out}",
           "hydra.launcher.partition=debug", "hydra.launcher.gpus_per_node=null", "hydra.launcher.cpus_per_task=2",
           "hydra.launcher.timeout_min=10"]
    proc = subprocess.run(cmd, cwd=REPO, env=job_env({"SUBMITIT_LOG_LEVEL": "ERROR"}), capture_output=True,
                          text=True, timeout=400)
    wall = time.time() - t0
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
    assert "UnsupportedInterpolationType" not in proc.stderr
    runs = sorted(p.parent for p in (out / "sweeps").rglob("summary.json"))
    assert [r.name.split(",")[0] for r in runs] == ["sampling.reasoning_budget=1024", "sampling.reasoning_budget=2048"]
    from omegaconf import OmegaConf

    groups = {OmegaConf.load(r / "config.resolved.yaml").wandb.group for r in runs}
    assert len(groups) == 1 and next(iter(groups)).startswith("sweep-"), groups
    array = next(iter(groups)).removeprefix("sweep-")
    for r in runs:
        assert list((r / "wandb").glob("offline-run-*")), f"no W&B run in {r}"
        assert _once(r)[0] == _once(r)[1] > 0
    # Each job brought Ray up over its own node, found by $SLURMD_NODENAME (node1/node2, not the host name).
    clusters = list((out / "ray-clusters").glob("*/nodes/*.json"))
    assert clusters and all(json.loads(p.read_text())["name"] in ("node1", "node2") for p in clusters), clusters
    first = min(float(verdicts(r)["judged_at"].min()) for r in runs) - t0
    figure("submitit sweep: submission to first verdict", seconds=round(first, 1), array=array,
           sweep_wall_s=round(wall, 1), runs=len(runs))
    report = subprocess.run([sys.executable, "-m", "ibench.results", "sweep", str(out / "sweeps"), "--out",
                             str(tmp_path / "report")], cwd=REPO, env=job_env(), capture_output=True, text=True,
                            timeout=120)
    assert report.returncode == 0, report.stderr[-3000:]
    table = (tmp_path / "report" / "sweep.csv").read_text().splitlines()
    assert table[0].startswith("model,sampling.reasoning_budget") and len(table) == 3, table


# -- faults ---------------------------------------------------------------------------------------
def test_scancel_batch_term_stops_cleanly_then_resubmit_resumes(tmp_path):
    out = tmp_path / "run"
    jid = sbatch(out, ["model=reference", TASKS_2])
    wait_verdicts(out, 3, jid)
    subprocess.run(["scancel", "--batch", "--signal=TERM", jid], check=True, timeout=30)
    info = wait_done(jid)
    log = log_text(out, jid)
    assert info["ExitCode"] == "143:0", f"{info['JobState']} {info['ExitCode']}\n{log[-3000:]}"
    assert log.count("interrupted (SIGTERM)") == 1 and "SIGINT" not in log, log[-3000:]
    assert "Connection lost" not in log, "W&B finished (only the batch script was signalled)"
    run = run_dir(out)
    before = _once(run)
    assert before[0] == before[1] >= 3
    jid2 = sbatch(out, ["model=reference", TASKS_2])
    info2 = wait_done(jid2, timeout=300)
    log2 = log_text(out, jid2)
    assert info2["JobState"] == "COMPLETED", log2[-3000:]
    assert _once(run) == (N2, N2)
    stored = verdicts(run).sort("judged_at").head(before[0])
    assert stored["sample_id"].n_unique() == before[0]
    assert "plan: generate" in log2 and f"{before[0]} verdict(s)" in log2, log2[-3000:]


def test_time_limit_stops_the_driver_before_it_and_a_requeue_resumes(tmp_path):
    out = tmp_path / "run"
    # The bring-up stops the driver 50 s before the limit: far off with --time=10; then the limit
    # is brought to one minute (the job has run ~25 s): the stop comes within a poll (2 s).
    jid = sbatch(out, ["model=reference", TASKS_2], ["--time=10"], env={"IBENCH_STOP_BEFORE_END_S": "50"})
    wait_verdicts(out, 1, jid)
    subprocess.run(["scontrol", "update", f"JobId={jid}", "TimeLimit=1"], check=True, timeout=30)
    info = wait_done(jid, timeout=120)
    log = log_text(out, jid)
    assert "reaches its time limit" in log, log[-3000:]
    assert info["ExitCode"] == "143:0" and log.count("interrupted (SIGTERM)") == 1, \
        f"{info['JobState']} {info['ExitCode']}\n{log[-3000:]}"
    judged = _once(run_dir(out))
    assert judged[0] == judged[1] < N2
    subprocess.run(["scontrol", "requeue", jid], check=True, timeout=30)
    subprocess.run(["scontrol", "update", f"JobId={jid}", "TimeLimit=10"], check=True, timeout=30)
    start_now(jid)
    info = wait_state(jid, ("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT"), timeout=300)
    assert info["JobState"] == "COMPLETED" and info["Restarts"] == "1", log_text(out, jid)[-3000:]
    assert _once(run_dir(out)) == (N2, N2)
    assert log_text(out, jid).count("ibench: job") == 2, "--open-mode=append keeps the first attempt's log"


def test_preemption_by_the_high_partition_requeues_and_resumes(tmp_path):
    out = tmp_path / "run"
    jid = sbatch(out, ["model=reference", TASKS_2])
    wait_verdicts(out, 3, jid)
    hi = subprocess.run(["sbatch", "--parsable", "--partition=high", "--nodes=2", "--exclusive",
                         f"--output={out}/high-%j.out", "--wrap", "sleep 2"], capture_output=True, text=True,
                        check=True, env=job_env(), timeout=30).stdout.strip()
    info = wait_state(jid, ("PENDING",), timeout=120)
    log = log_text(out, jid)
    assert info["Restarts"] == "1", f"requeued: {info}\n{log[-3000:]}"
    assert "is being preempted" in log and log.count("interrupted (SIGTERM)") == 1, log[-3000:]
    assert "Connection lost" not in log, "W&B finished before Slurm ended the job"
    wait_done(hi, timeout=60)
    start_now(jid)
    info = wait_done(jid, timeout=300)
    assert info["JobState"] == "COMPLETED", log_text(out, jid)[-3000:]
    assert _once(run_dir(out)) == (N2, N2)


def test_a_nodes_slurmd_killed_mid_run_loses_nothing(tmp_path):
    """SIGKILL node2's slurmd (slurm/local/cluster.sh node-kill): its job step (the Ray worker)
    runs on; Slurm declares the node down after SlurmdTimeout (30 s here) and requeues the job
    (NODE_FAIL). The run finishes, before or after that, with every sample judged once."""
    if not local_slurmd_pid_file("node2").is_file():
        pytest.skip("needs the local cluster of slurm/local/cluster.sh (its slurmd pid files)")
    out = tmp_path / "run"
    jid = sbatch(out, ["model=reference", TASKS_2])
    wait_verdicts(out, 1, jid)
    assert local_cluster_script("node-kill", "node2").returncode == 0
    try:
        end = time.monotonic() + 120
        info = job(jid)
        while time.monotonic() < end:
            info = job(jid)
            if info.get("JobState") not in ("RUNNING", "COMPLETING") or info.get("Restarts") != "0":
                break
            time.sleep(1)
    finally:
        assert local_cluster_script("node-start", "node2").returncode == 0
    wait_nodes_up = time.monotonic() + 60
    while time.monotonic() < wait_nodes_up and cluster_state() is not None:
        time.sleep(1)
    if info.get("Restarts") != "0" or info.get("JobState") == "PENDING":
        assert "NODE FAILURE" in log_text(out, jid), log_text(out, jid)[-3000:]
        start_now(jid)
        info = wait_done(jid, timeout=300)
    figure("slurmd of node2 killed mid-run", final_state=info.get("JobState"), restarts=info.get("Restarts"))
    assert info["JobState"] == "COMPLETED", log_text(out, jid)[-3000:]
    assert _once(run_dir(out)) == (N2, N2)


def test_cluster_tests_inside_an_allocation_ignore_its_slurm_variables(tmp_path):
    """The suite's local-cluster tests, run under srun (SLURM_* set), still mean this machine."""
    proc = subprocess.run(["srun", "--nodes=1", "--ntasks=1", "--exclusive", sys.executable, "-m", "pytest", "-q",
                           "-p", "no:cacheprovider", "tests/cluster/test_cluster_units.py",
                           "tests/cluster/test_multinode.py::test_bringup_script_starts_two_local_nodes"],
                          cwd=REPO, env=job_env(), capture_output=True, text=True, timeout=360)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout and "error" not in proc.stdout.splitlines()[-1]


# -- a heterogeneous cluster: vLLM on the GPU node, judging on the CPU node -----------------------
def _partitions() -> set[str]:
    out = subprocess.run(["sinfo", "-h", "-o", "%R"], capture_output=True, text=True, timeout=30, env=job_env())
    return set(out.stdout.split())


def test_hetero_job_generates_on_the_gpu_node_and_judges_on_the_cpu_node(tmp_path):
    """slurm/ibench-hetero.sbatch as a heterogeneous job: component 0 in partition ``gpu`` (node1,
    its fake GPU asked for), component 1 in ``cpu`` (node2, no GPU asked for). The model is the
    vLLM backend with a stand-in engine (tests/cluster/crashy_vllm.py, no crash marker: each reply
    names the Ray node that produced it) in one GPU bundle. Evidence: the bring-up's
    ray_nodes.json (node1 1 GPU + 1 CPU, the bundle's; node2 0 GPU), every reply made on node1,
    every verdict judged on node2 (the verdicts' ``node`` column: host/<ray node id>)."""
    if not {"gpu", "cpu"} <= _partitions():
        pytest.skip("needs partitions gpu and cpu (slurm/local/cluster.sh's layout)")
    t0 = time.time()
    jid = sbatch(tmp_path, ["model=tiny-cpu", "model.engine_module=crashy_vllm", "model.model=fake/model",
                            "model.gpus_per_bundle=1", "model.cpus_per_bundle=1", "bench.ids=[guess-the-number]",
                            "sampling.n=4"],
                 ["--gpus-per-node=1", ":", "--nodes=1"], script="slurm/ibench-hetero.sbatch",
                 env={"PYTHONPATH": f"{REPO}{os.pathsep}{REPO / 'tests' / 'cluster'}"})
    info = wait_done(jid, timeout=240)
    log = log_text(tmp_path, jid)
    assert info["JobState"] == "COMPLETED" and info["ExitCode"] == "0:0", log[-4000:]
    nodes = {json.loads(p.read_text())["name"]: json.loads(p.read_text())["command"]
             for p in (tmp_path / "ray-cluster" / "nodes").glob("*.json")}
    assert "--het-group=0" in nodes["node1"] and "--het-group=1" in nodes["node2"], nodes
    ray_nodes = {r["name"]: r for r in json.loads((tmp_path / "ray-cluster" / "ray_nodes.json").read_text())["nodes"]}
    assert (ray_nodes["node1"]["gpus"], ray_nodes["node1"]["cpus"]) == (1, 1), ray_nodes
    assert ray_nodes["node2"]["gpus"] == 0 and ray_nodes["node2"]["judges_only"], ray_nodes
    assert "generation on node1 (1 GPU, 1 CPU); judging on node2" in log, log[-3000:]
    run = run_dir(tmp_path)
    made_on = {json.loads(r.splitlines()[0])["node"] for r in samples(run)["response"]}
    assert made_on == {ray_nodes["node1"]["node_id"]}, "the vLLM replica ran on the GPU node"
    judged_on = set(verdicts(run)["node"])
    assert judged_on == {f"{ray_nodes['node2']['host']}/{ray_nodes['node2']['node_id'][:12]}"}, judged_on
    assert _once(run) == (4, 4)
    figure("heterogeneous job (gpu + cpu partitions): submission to end", seconds=round(time.time() - t0, 1),
           job=jid, generated_on="node1", judged_on="node2")
