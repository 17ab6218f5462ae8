"""``cluster=slurm``: run on a multi-node Ray cluster inside a Slurm allocation.

Two ways in:

1. ``slurm/ibench.sbatch`` brought the cluster up (:mod:`ibench.cluster.bringup`) and runs the
   launch with ``IBENCH_CLUSTER_DIR`` / ``RAY_ADDRESS`` / the token in its environment: connect.
2. A job without such a cluster (a hydra-submitit sweep job: ``-m hydra/launcher=slurm``): bring
   one up over the job's own nodes (this host runs the head; other nodes get a worker through
   ``srun --overlap``), and stop it at the end. With several tasks in the job, only the task of
   rank 0 drives; the others raise :class:`NotTheDriver` at once (Hydra records that as their
   job's return; the launcher reads rank 0's).

Either way, :meth:`SlurmCluster.start` waits until the expected nodes joined, then surveys every
node's sandbox (:func:`ibench.cluster.judging.survey_nodes`) and logs a table; a node whose
sandbox differs from the others is logged as an error (``require_same_sandbox=true`` refuses to
run). Every verdict also records its node and sandbox label, so a mismatch stays visible in
the results.
"""

from __future__ import annotations

import logging
import os
import shlex
import socket
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import Cluster
from .hostlists import cpu_nodes_from, node_list
from .launchers import LocalLauncher, SrunLauncher
from .rayprocs import CLUSTER_ENV, ENV_CLUSTER_DIR, ENV_CLUSTER_NODES, ClusterSpec, RayCluster, apply_auth_env

log = logging.getLogger(__name__)


class NotTheDriver(Exception):
    """Raised on ranks > 0 of a multi-task Slurm job: rank 0 runs the evaluation."""


def read_env_file(path: str | Path) -> dict[str, str]:
    """``export K=V`` lines (as :mod:`ibench.cluster.bringup` writes them)."""
    out: dict[str, str] = {}
    for line in Path(path).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export "):]
        key, _, value = line.partition("=")
        parts = shlex.split(value) if value else [""]
        out[key.strip()] = parts[0] if parts else ""
    return out


class _MixedLauncher(SrunLauncher):
    """This host: the plain command; any other node: ``srun --overlap`` (a step beside the job's)."""

    def __init__(self, here: str) -> None:
        super().__init__()
        self.here = here
        if "--overlap" not in self.extra:
            self.extra.append("--overlap")

    def wrap(self, node, argv):
        if node == self.here:
            return list(argv)
        return super().wrap(node, argv)


class SlurmCluster(Cluster):
    def __init__(self, name: str = "slurm", address: str | None = None, cluster_dir: str | None = None,
                 expected_nodes: int | None = None, wait_s: float = 900.0, survey: bool = True,
                 require_same_sandbox: bool = False, start_if_missing: bool = True, cpus_per_node: int | None = None,
                 gpus_per_node: int | None = None, temp_dir: str | None = None, jobs_dir: str | None = None,
                 stop_grace_s: float = 5.0, runtime_env: dict[str, Any] | None = None,
                 cpu_nodes: str | list[str] | None = None, gpu_node_cpus: int | None = None,
                 cpus_per_gpu: float = 1.0, **_: object) -> None:
        self.name = name
        self.address = address
        self.cluster_dir = cluster_dir
        self.expected_nodes = expected_nodes
        self.wait_s = float(wait_s)
        self.survey = survey
        self.require_same_sandbox = require_same_sandbox
        self.start_if_missing = start_if_missing
        self.cpus_per_node = cpus_per_node
        self.gpus_per_node = gpus_per_node
        self.temp_dir = temp_dir
        self.jobs_dir = jobs_dir
        self.stop_grace_s = float(stop_grace_s)
        self.runtime_env = dict(runtime_env or {})
        # cluster=slurm-hetero: nodes that only judge (``het``: outside component 0 of a
        # heterogeneous job), and the GPU nodes' Ray CPUs (see ClusterSpec.cpu_nodes)
        self.cpu_nodes = cpu_nodes
        self.gpu_node_cpus = gpu_node_cpus
        self.cpus_per_gpu = float(cpus_per_gpu)
        self.nodes: list = []  # the survey (NodeInfo), after start()
        self.mismatches: dict[str, str] = {}
        self.is_driver = True
        self._own_cluster: RayCluster | None = None
        self._connected = False

    # -- where is the cluster ----------------------------------------------------------------
    def _connection(self) -> dict[str, str]:
        """Address + token settings, from (in order) the arguments, the cluster folder's
        ``cluster.env`` and the environment."""
        env: dict[str, str] = {}
        cdir = self.cluster_dir or os.environ.get(ENV_CLUSTER_DIR)
        if cdir and (Path(cdir) / CLUSTER_ENV).is_file():
            env.update(read_env_file(Path(cdir) / CLUSTER_ENV))
        for key in ("RAY_ADDRESS", "RAY_AUTH_MODE", "RAY_AUTH_TOKEN_PATH", ENV_CLUSTER_NODES):
            if key not in env and os.environ.get(key):
                env[key] = os.environ[key]
        if self.address:
            env["RAY_ADDRESS"] = self.address
        return env

    def _bring_up_here(self) -> dict[str, str]:
        """No cluster to join: start one over this job's nodes (rank 0 only)."""
        rank = int(os.environ.get("SLURM_PROCID", "0"))
        if rank > 0:
            self.is_driver = False
            raise NotTheDriver(f"Slurm task rank {rank}: rank 0 drives this job's Ray cluster")
        job = os.environ.get("SLURM_JOB_ID", f"local-{os.getpid()}")
        nodes = node_list()
        here = this_node(nodes)
        if here in nodes:  # this host is the head
            nodes = [here, *[n for n in nodes if n != here]]
        else:
            nodes = [here]
        base = Path(self.jobs_dir or os.path.join(os.getcwd(), "outputs", "ray-clusters"))
        spec = ClusterSpec(job_dir=base / job, nodes=nodes, launcher=_MixedLauncher(here) if len(nodes) > 1
                           else LocalLauncher(), cpus=self.cpus_per_node, gpus=self.gpus_per_node,
                           temp_dir=self.temp_dir or f"/tmp/ibench-ray-{job}", timeout_s=self.wait_s,
                           die_with_parent=True, cpu_nodes=self._cpu_node_list(nodes),
                           gpu_node_cpus=self.gpu_node_cpus, cpus_per_gpu=self.cpus_per_gpu)
        log.info("no Ray cluster to join: starting one on %d node(s): %s", len(nodes), ", ".join(nodes))
        self._own_cluster = RayCluster(spec).up()
        return self._own_cluster.env

    def _cpu_node_list(self, nodes: list[str]) -> list[str]:
        spec = self.cpu_nodes
        if not spec:
            return []
        return cpu_nodes_from(spec if isinstance(spec, str) else ",".join(spec), nodes)

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> None:
        import ray

        if ray.is_initialized():
            log.info("reusing the Ray connection already open in this process")
            return
        env = self._connection()
        if not env.get("RAY_ADDRESS"):
            if not self.start_if_missing:
                raise RuntimeError("cluster=slurm: no Ray cluster to join (no cluster.address, no "
                                   f"${ENV_CLUSTER_DIR}/{CLUSTER_ENV}, no $RAY_ADDRESS); run under "
                                   "slurm/ibench.sbatch, or allow cluster.start_if_missing")
            env = self._bring_up_here()
        apply_auth_env(env)
        expected = self.expected_nodes or int(env.get(ENV_CLUSTER_NODES) or 0) or None
        kwargs: dict[str, Any] = {"address": env["RAY_ADDRESS"], "log_to_driver": True, "configure_logging": False}
        if self.runtime_env:
            kwargs["runtime_env"] = self.runtime_env
        ray.init(**kwargs)
        self._connected = True
        if expected:
            self.wait_for_nodes(expected)
        log.info("Ray cluster at %s: %d node(s), %s", env["RAY_ADDRESS"], len(alive_nodes()),
                 {k: v for k, v in ray.cluster_resources().items() if k in ("CPU", "GPU")})
        if self.cpu_nodes:
            self.log_layout()
        if self.survey:
            self.check_sandboxes()

    def log_layout(self) -> dict[str, list[str]]:
        """A heterogeneous cluster's two kinds of node, as Ray sees them: those with GPUs (the vLLM
        replicas' placement groups go there) and those without (judging). A cluster without
        one of the two is logged as an error: the evaluation still runs, on what there is."""
        layout: dict[str, list[str]] = {"gpu": [], "cpu": []}
        for n in alive_nodes():
            res = n.get("Resources", {})
            name = next((k.split(":", 1)[1] for k in res if k.startswith("ibench_node:")), n.get("NodeID", "?")[:12])
            kind = "gpu" if res.get("GPU", 0) > 0 else "cpu"
            layout[kind].append(f"{name} ({res.get('GPU', 0):g} GPU, {res.get('CPU', 0):g} CPU)")
        log.info("heterogeneous cluster: generation on %s; judging on %s", ", ".join(layout["gpu"]) or "no GPU node",
                 ", ".join(layout["cpu"]) or "no CPU-only node")
        if not layout["gpu"] or not layout["cpu"]:
            log.error("cluster=slurm-hetero expects GPU nodes and CPU-only nodes (slurm/ibench-hetero.sbatch); "
                      "this cluster has %s", "no GPU node" if not layout["gpu"] else "no CPU-only node")
        return layout

    def wait_for_nodes(self, n: int) -> None:
        deadline = time.monotonic() + self.wait_s
        while len(alive_nodes()) < n:
            if time.monotonic() > deadline:
                raise RuntimeError(f"only {len(alive_nodes())} of {n} Ray node(s) joined within {self.wait_s:.0f}s")
            time.sleep(1.0)

    def check_sandboxes(self) -> dict[str, str]:
        from .judging import sandbox_mismatches, survey_nodes

        self.nodes = survey_nodes()
        for info in self.nodes:
            log.info("node %-28s sandbox=%s compiler=%s", info.node, info.sandbox, info.compiler)
        self.mismatches = sandbox_mismatches(self.nodes)
        if self.mismatches:
            msg = "nodes judge in a different sandbox than the others: " + "; ".join(
                f"{n}: {d}" for n, d in self.mismatches.items())
            if self.require_same_sandbox:
                raise RuntimeError(msg)
            log.error("%s. Their verdicts carry their own node and sandbox labels (verdicts.parquet: node, "
                      "sandbox).", msg)
        return self.mismatches

    def stop(self) -> None:
        if self._connected:
            import ray

            ray.shutdown()
            self._connected = False
        if self._own_cluster is not None:
            self._own_cluster.down(grace_s=self.stop_grace_s)
            self._own_cluster = None


def this_node(nodes: list[str], env: dict[str, str] | None = None) -> str:
    """This node's name in the allocation's node list: ``$SLURMD_NODENAME`` (Slurm's name for
    the node; several node names can share one host, and a host name need not be the node
    name), else the host name or its short form."""
    source: Mapping[str, str] = os.environ if env is None else env
    name = source.get("SLURMD_NODENAME", "")
    if name and name in nodes:
        return name
    here = socket.gethostname()
    short = here.split(".")[0]
    if here not in nodes and short in nodes:
        return short
    return here


def alive_nodes() -> list[dict]:
    import ray

    return [n for n in ray.nodes() if n.get("Alive")]
