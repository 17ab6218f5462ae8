"""Several Ray nodes on this machine: the bring-up script, judging spread over nodes, a node that
dies mid-run, a vLLM actor that dies mid-request, and the per-node sandbox survey.

Slow (a Ray node takes ~10-20 s to start on a small machine): marked ``slow`` and ``multinode``
(``pytest -m "not multinode"`` skips them), and still part of the default ``pytest tests``.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections import Counter, defaultdict

import polars as pl
import pytest
from cluster_fixtures import HERE, REPO, RESULT_MARK, build_tasks, node_env, result_of

from ibench.cluster.bringup import session_pids
from ibench.results.store import read_table

pytestmark = [pytest.mark.slow, pytest.mark.multinode, pytest.mark.timeout(400)]


def test_bringup_script_starts_two_local_nodes(two_nodes):
    env = two_nodes.env_file.read_text()
    assert "RAY_ADDRESS=" in env and "RAY_AUTH_MODE=token" in env and "IBENCH_CLUSTER_NODES=2" in env
    head = json.loads((two_nodes.job_dir / "head.json").read_text())
    assert head["name"] == "head" and head["address"] == two_nodes.cluster.address
    assert (two_nodes.job_dir / "auth_token").stat().st_mode & 0o077 == 0  # the token is private
    # Two separate `ray start` processes, each the leader of its own session.
    assert sorted(two_nodes.cluster.procs) == ["gpu1", "head"]
    assert all(p.alive() for p in two_nodes.cluster.procs.values())
    out = two_nodes.driver("nodes")
    assert len(out["nodes"]) == 2 and len({n["id"] for n in out["nodes"]}) == 2
    names = sorted(k.split(":", 1)[1] for n in out["nodes"] for k in n["resources"] if k.startswith("ibench_node:"))
    assert names == ["gpu1", "head"]
    gpus = {k.split(":", 1)[1]: n["resources"].get("GPU", 0) for n in out["nodes"] for k in n["resources"]
            if k.startswith("ibench_node:")}
    assert gpus == {"head": 0, "gpu1": 2}
    # The survey reached both nodes; on one host they share a sandbox, so nothing differs.
    assert len(out["survey"]) == 2 and {s["node_id"] for s in out["survey"]} == {n["id"] for n in out["nodes"]}
    assert len({s["sandbox"] for s in out["survey"]}) == 1 and out["mismatches"] == {}


def test_both_nodes_judge_each_sample_once(two_nodes, tmp_path):
    tasks = build_tasks(tmp_path / "tasks", n=2)
    out = two_nodes.driver("judge", "--tasks", str(tasks), "--samples", "6", "--slow")
    assert len(out["keys"]) == 12 and out["duplicates"] == 1 and out["failed"] == 0
    assert out["verdicts"] == ["OK"]
    by_node = out["by_node"]
    assert sum(by_node.values()) == 12
    # Both nodes judged, and the label names the Ray node (host/node-id), not just the host.
    assert len(by_node) == 2, by_node
    assert {label.split("/")[1] for label in by_node} == {nid[:12] for nid in out["node_ids"]}
    assert len(out["sandboxes"]) == 1


def test_vllm_actor_dies_mid_request_and_is_restarted(two_nodes, tmp_path):
    tasks = build_tasks(tmp_path / "tasks", n=3)
    marker = tmp_path / "engine-crashed"
    out = two_nodes.driver("vllm", "--tasks", str(tasks), "--marker", str(marker))
    assert marker.exists()  # the engine did die, inside a request
    assert out["errors"] == []
    assert out["completions"] == [[f"guess{t}", i] for t in range(3) for i in range(2)]  # nothing lost
    # The actor sits on the GPU node; its new incarnation is a new process.
    nodes = two_nodes.driver("nodes")["nodes"]
    gpu_node = next(n["id"] for n in nodes if n["resources"].get("GPU"))
    assert out["engine_nodes"] == [gpu_node]
    assert int(marker.read_text()) not in out["engine_pids"]


def test_vllm_replica_dies_for_good_and_its_prompts_are_requeued(two_nodes, tmp_path):
    # Two replicas, no restarts: the first engine to serve dies for good; its unfinished prompts
    # must be re-queued to the surviving replica, not recorded as failed samples.
    tasks = build_tasks(tmp_path / "tasks", n=3)
    marker = tmp_path / "engine-crashed"
    out = two_nodes.driver("vllm", "--tasks", str(tasks), "--marker", str(marker), "--replicas", "2",
                           "--max-restarts", "0")
    assert marker.exists()
    assert out["errors"] == []
    assert out["completions"] == [[f"guess{t}", i] for t in range(3) for i in range(2)]
    assert int(marker.read_text()) not in out["engine_pids"] and len(out["engine_pids"]) == 1


def test_node_dies_mid_run_every_sample_judged_exactly_once(two_nodes, tmp_path):
    # A third node joins for this test and is killed while it judges.
    two_nodes.cluster.start_node("victim", "worker", cpus=1, gpus=0)
    two_nodes.cluster.wait_nodes(3, 150)
    tasks = build_tasks(tmp_path / "tasks", n=3)
    store = tmp_path / "results"
    exec_log = tmp_path / "executions.jsonl"
    exec_log.touch()
    n_per_task = 5
    proc = subprocess.Popen([sys.executable, str(HERE / "cluster_driver.py"), "pipeline", "--tasks", str(tasks),
                             "--samples", str(n_per_task), "--store", str(store), "--exec-log", str(exec_log)],
                            env=two_nodes.driver_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        victim_pid = two_nodes.cluster.procs["victim"].pid
        victim_label = None
        deadline = time.monotonic() + 150
        killed_keys: set[str] = set()
        while time.monotonic() < deadline and proc.poll() is None:
            events = [json.loads(line) for line in exec_log.read_text().splitlines() if line.strip()]
            # Which node label is the victim's: the one whose worker pids live in its session.
            victim_pids = set(session_pids(victim_pid))
            for e in events:
                if e["pid"] in victim_pids:
                    victim_label = e["node"]
            if victim_label:
                started = {e["key"] for e in events if e["node"] == victim_label and e["event"] == "start"}
                ended = {e["key"] for e in events if e["node"] == victim_label and e["event"] == "end"}
                if started - ended:  # the victim is in the middle of judging a sample: kill it now
                    killed_keys = started - ended
                    two_nodes.cluster.kill_node("victim")
                    break
            time.sleep(0.05)
        assert killed_keys, ("the victim node never judged anything", proc.poll(), victim_label, exec_log.read_text()[-3000:],
                             proc.stderr.read()[-3000:] if proc.poll() is not None else "")
        stdout, stderr = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, f"{stdout[-3000:]}\n{stderr[-6000:]}"
    out = result_of(stdout)
    assert out["alive"] == 2  # the head and gpu1 finished the run

    # Every sample has exactly one verdict row in what the pipeline wrote (parts + journal,
    # before the store's read-time de-duplication), and every verdict is right.
    rows = []
    vdir = store / "verdicts"
    for part in sorted(vdir.glob("part-*.parquet")):
        rows.extend(pl.read_parquet(part).select("sample_id", "task_id", "sample_index", "verdict", "node")
                    .iter_rows(named=True))
    journal = vdir / "_journal.jsonl"
    if journal.exists():
        rows.extend(json.loads(line) for line in journal.read_text().splitlines() if line.strip())
    counts = Counter(r["sample_id"] for r in rows)
    assert len(counts) == 3 * n_per_task and set(counts.values()) == {1}, counts
    assert {r["verdict"] for r in rows} == {"OK"}
    assert out["verdicts"] == {f"guess{t}": ["OK"] * n_per_task for t in range(3)}
    # The samples cut short on the victim were judged again elsewhere (Ray retried them), and
    # each still has one verdict, from a surviving node.
    events = [json.loads(line) for line in exec_log.read_text().splitlines() if line.strip()]
    ends = defaultdict(set)
    for e in events:
        if e["event"] == "end":
            ends[e["key"]].add(e["node"])
    for key in killed_keys:
        assert ends[key] and victim_label not in ends[key], (key, ends[key])
    by_key_task = {(r["task_id"], r["sample_index"]): r["node"] for r in rows}
    assert len(by_key_task) == 3 * n_per_task
    print(f"pipeline {out['wall_s']:.1f}s; verdicts by node {dict(Counter(by_key_task.values()))}; "
          f"cut short on the victim and re-judged: {sorted(killed_keys)}")


def test_driver_dies_and_the_rerun_resumes_from_the_store(two_nodes, tmp_path):
    """SIGKILL the driver mid-run, run the same command again: it finishes from the results store,
    every sample ends with exactly one verdict, and none already judged is judged again."""
    tasks = build_tasks(tmp_path / "tasks", n=2)
    store = tmp_path / "results"
    exec_log = tmp_path / "executions.jsonl"
    exec_log.touch()
    cmd = [sys.executable, str(HERE / "cluster_driver.py"), "pipeline", "--tasks", str(tasks), "--samples", "6",
           "--store", str(store), "--exec-log", str(exec_log)]
    first = subprocess.Popen(cmd, env=two_nodes.driver_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and first.poll() is None:
            journal = store / "verdicts" / "_journal.jsonl"
            parts = list((store / "verdicts").glob("part-*.parquet")) if (store / "verdicts").is_dir() else []
            n = (len(journal.read_text().splitlines()) if journal.exists() else 0) + 4 * len(parts)
            if n >= 3:
                first.kill()  # the driver dies (SIGKILL: no clean-up of any kind)
                break
            time.sleep(0.05)
        first.communicate(timeout=60)
    finally:
        if first.poll() is None:
            first.kill()
            first.communicate()
    assert first.returncode == -9, "the driver finished before it could be killed"
    judged_before = {(r["task_id"], r["sample_index"]) for r in read_table(store, "verdicts").iter_rows(named=True)}
    assert 0 < len(judged_before) < 12
    resume_started = time.time()

    out = two_nodes.driver("pipeline", "--tasks", str(tasks), "--samples", "6", "--store", str(store),
                           "--exec-log", str(exec_log))
    assert out["verdicts"] == {"guess0": ["OK"] * 6, "guess1": ["OK"] * 6}
    verdicts = read_table(store, "verdicts")
    assert verdicts.height == 12 and verdicts["sample_id"].n_unique() == 12
    # Raw rows (every part and journal line written by both runs): one per sample. A row can
    # only repeat, identically, if a crash hit between writing a part and resetting the journal.
    raw = pl.concat([pl.read_parquet(p).select("sample_id", "judged_at")
                     for p in sorted((store / "verdicts").glob("part-*.parquet"))]
                    + ([pl.read_parquet(store / "verdicts.parquet").select("sample_id", "judged_at")]
                       if (store / "verdicts.parquet").exists() else []))
    assert raw.unique().height == 12
    # Nothing that had a verdict before the crash was judged again.
    rejudged = set()
    for line in exec_log.read_text().splitlines():
        e = json.loads(line)
        task, _, sample = e["key"].partition(":// sample ")
        if e["event"] == "start" and e["t"] >= resume_started and (task, int(sample)) in judged_before:
            rejudged.add((task, int(sample)))
    assert not rejudged, rejudged


def test_launch_with_cluster_slurm_joins_the_running_cluster(two_nodes, tmp_path):
    """`python -m ibench.launch cluster=slurm` as slurm/ibench.sbatch runs it: the address and
    token from the bring-up's environment, every node checked, the evaluation run across them."""
    tasks = build_tasks(tmp_path / "tasks", n=2)
    out = tmp_path / "run"
    env = two_nodes.driver_env()
    env.pop("RAY_ADDRESS")  # as in the sbatch job: cluster.env in $IBENCH_CLUSTER_DIR is the source
    assert env["IBENCH_CLUSTER_DIR"] == str(two_nodes.job_dir)
    proc = subprocess.run([sys.executable, "-m", "ibench.launch", "cluster=slurm", f"bench.tasks_dir={tasks}",
                           "bench.non_adaptive_cases=2", f"hydra.run.dir={out}", "wandb=disabled",
                           "pipeline.progress=false"], cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
    log = proc.stdout + proc.stderr
    assert log.count("sandbox=") >= 2  # the survey of both nodes
    summary = json.loads((out / "summary.json").read_text())
    assert summary["n_samples"] == 2 and summary["overall"]["pass_at"]["1"] == 1.0
    v = pl.read_parquet(out / "results" / "verdicts.parquet")
    assert v.height == 2 and v["sandbox"].str.len_chars().min() > 0 and v["node"].str.len_chars().min() > 0


def test_cluster_slurm_starts_its_own_ray_in_a_job_without_one(tmp_path):
    """A hydra-submitit sweep job: no bring-up ran, so cluster=slurm starts Ray over the job's
    node(s) itself (here: this host as a one-node allocation) and stops it at the end."""
    host = socket.gethostname()
    env = {**os.environ, **node_env(), "SLURM_JOB_ID": f"t{os.getpid()}", "SLURM_JOB_NODELIST": host,
           "SLURM_PROCID": "0", "PATH": os.environ["PATH"]}
    for k in ("RAY_ADDRESS", "IBENCH_CLUSTER_DIR", "IBENCH_CLUSTER_NODES", "SLURM_CPUS_ON_NODE"):
        env.pop(k, None)
    temp = f"/tmp/ibr-own-{os.getpid()}"
    script = f"""
import json, ray
from ibench.cluster.slurm import SlurmCluster
c = SlurmCluster(jobs_dir={str(tmp_path)!r}, cpus_per_node=1, gpus_per_node=0, temp_dir={temp!r}, wait_s=150,
                 stop_grace_s=0)
c.start()
try:
    nodes = [n for n in ray.nodes() if n["Alive"]]
    print({RESULT_MARK!r} + json.dumps({{"nodes": len(nodes), "survey": [i.sandbox for i in c.nodes], "pids": c._own_cluster.procs[{host!r}].pid}}))
finally:
    c.stop()
"""
    proc = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-5000:]
    out = result_of(proc.stdout)
    assert out["nodes"] == 1 and len(out["survey"]) == 1
    assert session_pids(out["pids"]) == []  # stopped with the run
    assert (tmp_path / env["SLURM_JOB_ID"] / "auth_token").exists()
