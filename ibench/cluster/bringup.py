"""Bring a Ray cluster up over a list of nodes, run a driver against it, tear it down.

The head goes on the first node, one worker on each other node; every node runs
``ray start --block`` in the foreground under a *launcher*:

- ``srun``: ``srun --nodes=1 --ntasks=1 --nodelist=NODE ...`` (inside a Slurm allocation);
- ``local``: the plain command on this machine (tests, benchmarks, a workstation). Several
  "nodes" on one host are several raylets: each gets its own node-manager, object-manager,
  dashboard-agent, metrics and runtime-env ports (picked free on the node) and its own socket
  names (Ray numbers them inside the shared session folder), so they never collide.

The node list comes from ``--nodes``, else ``$IBENCH_NODES`` (comma or space separated), else
``$SLURM_JOB_NODELIST`` expanded by ``scontrol show hostnames``, else this host.

Everything about one cluster lives in its *job folder* (on Slurm: on the shared filesystem)::

    auth_token     the cluster's Ray token (0600); RAY_AUTH_MODE=token on every node and driver
    head.json      the head's address, written by the head's node command
    nodes/<name>.json   pid, launcher command and log of each node process started from here
    logs/<name>.log     each node's ``ray start`` output
    cluster.env    ``export`` lines for a driver: RAY_ADDRESS, the token, IBENCH_CLUSTER_*

Command line (``slurm/ray_cluster.sh`` is a thin wrapper)::

    python -m ibench.cluster.bringup run  --job-dir D [--launcher srun|local] -- python -m ibench.launch cluster=slurm ...
    python -m ibench.cluster.bringup up   --job-dir D ...      # start, wait until every node joined, return
    python -m ibench.cluster.bringup down --job-dir D          # stop what ``up`` started (by pid)
    python -m ibench.cluster.bringup run  --cpu-nodes het ...   # heterogeneous job: vLLM on component 0, judging on the rest
    python -m ibench.cluster.bringup nodes                      # print the node list
    python -m ibench.cluster.bringup node --role head|worker --job-dir D --name N   # runs ON a node

``run`` re-runs a driver that died (``--driver-retries``): a driver resumes from its results store,
so a crashed driver costs only the samples in flight.

This module is the command line; the parts live beside it (and are re-exported here):
:mod:`~ibench.cluster.hostlists` (the node list, heterogeneous jobs' components),
:mod:`~ibench.cluster.launchers` (srun / local / ``ssh {node}``), :mod:`~ibench.cluster.rayprocs`
(the node processes, the job folder, the driver's environment), :mod:`~ibench.cluster.raynode`
(what runs on a node) and :mod:`~ibench.cluster.slurmjob` (the job's time limit, preemption, the
driver's re-runs).
"""

from __future__ import annotations

import argparse
import logging
import os
import shlex
import sys
from pathlib import Path
from typing import Sequence

# The bring-up's parts, re-exported: ``from ibench.cluster.bringup import ...`` keeps working.
from .hostlists import (ENV_NODES, BringupError, _split_top, cpu_nodes_from, expand_hostlist, het_groups,  # noqa: F401
                        node_list, scontrol_hostnames)
from .launchers import (ENV_SRUN_ARGS, CommandLauncher, Launcher, LocalLauncher, SrunLauncher,  # noqa: F401
                        make_launcher)
from .raynode import TEMP_OWNED, _make_temp_dir, _remove_temp_if_unused, _run_node, node_main, wait_main  # noqa: F401
from .rayprocs import (CLUSTER_ENV, ENV_CLUSTER_DIR, ENV_CLUSTER_NODES, ClusterSpec, NodeProc,  # noqa: F401
                       RayCluster, _read_json, _tail, _write_json, apply_auth_env, detect_ip, ensure_token,
                       free_port, kill_session, ray_env, session_pids, tcp_ready)
from .slurmjob import (ENV_SLURM_POLL, ENV_STOP_BEFORE_END, SlurmJob, _slurm_duration, run_driver,  # noqa: F401
                       stop_margin)

log = logging.getLogger("ibench.cluster.bringup")


def _spec_from_args(args: argparse.Namespace) -> ClusterSpec:
    nodes = node_list(args.nodes)
    job_dir = Path(args.job_dir or os.environ.get(ENV_CLUSTER_DIR) or _default_job_dir())
    temp = args.temp_dir or _default_temp_dir()
    return ClusterSpec(job_dir=job_dir, nodes=nodes, launcher=make_launcher(args.launcher), cpus=args.cpus,
                       gpus=args.gpus, head_cpus=args.head_cpus, head_gpus=args.head_gpus, temp_dir=temp,
                       object_store_bytes=args.object_store_memory, ip=args.ip, port=args.port,
                       timeout_s=args.timeout, ray_args=shlex.split(args.ray_args or ""),
                       cpu_nodes=cpu_nodes_from(args.cpu_nodes, nodes), gpu_node_cpus=args.gpu_node_cpus,
                       cpus_per_gpu=args.cpus_per_gpu)


def _default_job_dir() -> str:
    job = os.environ.get("SLURM_JOB_ID") or f"local-{os.getpid()}"
    return os.path.join(os.getcwd(), "outputs", "ray-clusters", job)


def _default_temp_dir() -> str:
    job = os.environ.get("SLURM_JOB_ID") or f"local-{os.getpid()}"
    return f"/tmp/ibench-ray-{job}"  # node-local and short: Ray's socket paths must stay < 108 bytes


def _add_cluster_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--job-dir", help=f"the cluster's folder (default ${ENV_CLUSTER_DIR} or outputs/ray-clusters/<job>)")
    p.add_argument("--nodes", help=f"comma-separated node names (default ${ENV_NODES}, then the Slurm allocation)")
    p.add_argument("--launcher", default="auto", help="srun | local | a prefix with {node} (default: srun in a Slurm job)")
    p.add_argument("--cpus", type=int, help="CPUs per node (default: what Ray detects)")
    p.add_argument("--gpus", type=int, help="GPUs per node (default: what Ray detects)")
    p.add_argument("--head-cpus", type=int)
    p.add_argument("--head-gpus", type=int)
    p.add_argument("--temp-dir", help="Ray's node-local temp root (default /tmp/ibench-ray-<job>)")
    p.add_argument("--object-store-memory", type=int)
    p.add_argument("--ip", help="the head's address (default: detected on the head)")
    p.add_argument("--port", type=int, help="the head's GCS port (default: a free one)")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds for every node to join")
    p.add_argument("--ray-args", help="extra `ray start` flags for every node")
    p.add_argument("--cpu-nodes", help="nodes that only judge (Ray sees no GPU there): a comma-separated list, or "
                   "`het`: every node outside component 0 of a heterogeneous job (slurm/ibench-hetero.sbatch)")
    p.add_argument("--gpu-node-cpus", type=int, help="with --cpu-nodes: Ray CPUs on the other (GPU) nodes "
                   "(default: --cpus-per-gpu per GPU the node sees)")
    p.add_argument("--cpus-per-gpu", type=float, default=1.0, help="with --cpu-nodes: Ray CPUs per GPU on the GPU "
                   "nodes (default 1: one per vLLM bundle, model.cpus_per_bundle=1)")


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    argv = list(sys.argv[1:] if argv is None else argv)
    command: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, command = argv[:i], argv[i + 1:]
    ap = _parser()
    args = ap.parse_args(argv)
    return _dispatch(ap, args, command)


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m ibench.cluster.bringup", description=(__doc__ or "").split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p_run = sub.add_parser("run", help="bring up, run the command after --, tear down")
    _add_cluster_args(p_run)
    p_run.add_argument("--driver-retries", type=int, default=int(os.environ.get("IBENCH_DRIVER_RETRIES", "1")))
    p_up = sub.add_parser("up", help="bring up and return (cluster.env in the job folder)")
    _add_cluster_args(p_up)
    p_down = sub.add_parser("down", help="stop the node processes `up` started")
    p_down.add_argument("--job-dir", required=True)
    p_down.add_argument("--grace", type=float, default=10.0)
    sub.add_parser("nodes", help="print the node list")
    p_node = sub.add_parser("node", help="(on a node) start its Ray node")
    p_node.add_argument("--role", choices=["head", "worker"], required=True)
    p_node.add_argument("--job-dir", required=True)
    p_node.add_argument("--name", required=True)
    p_node.add_argument("--num-cpus", type=int)
    p_node.add_argument("--num-gpus", type=int)
    p_node.add_argument("--cpus-per-gpu", type=float, help="Ray CPUs: this many per GPU the node sees")
    p_node.add_argument("--temp-dir")
    p_node.add_argument("--object-store-memory", type=int)
    p_node.add_argument("--ip")
    p_node.add_argument("--port", type=int)
    p_node.add_argument("--timeout", type=float, default=600.0)
    p_node.add_argument("--same-host", action="store_true", help="advertise the head's address (one-host tests)")
    p_node.add_argument("--ray-args")
    p_clean = sub.add_parser("clean", help="(on a node) remove Ray's temp folder if ibench made it and it is unused")
    p_clean.add_argument("--temp-dir", required=True)
    p_wait = sub.add_parser("wait", help="wait until N nodes are alive")
    p_wait.add_argument("--address", required=True)
    p_wait.add_argument("--nodes", type=int, required=True)
    p_wait.add_argument("--timeout", type=float, default=600.0)
    return ap


def _dispatch(ap: argparse.ArgumentParser, args: argparse.Namespace, command: list[str]) -> int:
    if args.cmd == "nodes":
        print("\n".join(node_list()))
        return 0
    if args.cmd == "node":
        return node_main(args)
    if args.cmd == "wait":
        return wait_main(args)
    if args.cmd == "clean":
        _remove_temp_if_unused(Path(args.temp_dir))
        return 0
    if args.cmd == "down":
        RayCluster.from_job_dir(args.job_dir).down(grace_s=args.grace)
        return 0
    spec = _spec_from_args(args)
    spec.die_with_parent = args.cmd == "run"  # `run` owns its cluster; `up` leaves it running
    cluster = RayCluster(spec)
    log.info("bringing up Ray on %d node(s) with %s: %s (job folder %s)", len(spec.nodes), spec.launcher.name,
             ",".join(spec.nodes), spec.job_dir)
    if args.cmd == "up":
        cluster.up()
        print(spec.job_dir / CLUSTER_ENV)
        return 0
    if not command:
        ap.error("run: give the driver command after --")
    cluster.up()
    log.info("cluster up at %s: %s", cluster.address, ", ".join(cluster.alive_nodes()))
    job = SlurmJob.current()
    try:
        return run_driver(cluster, command, retries=args.driver_retries, job=job)
    finally:
        cluster.down()
        if job is not None and job.preempted_seen:
            job.requeue()


if __name__ == "__main__":
    sys.exit(main())
