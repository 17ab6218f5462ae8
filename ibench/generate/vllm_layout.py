"""Where a vLLM replica sits: its GPUs (tensor parallelism within a node, pipeline parallelism
across nodes), the engine arguments that say so, and the checks the preflight makes before any
GPU is held (the GPUs divide as TP × PP; the weights are on this node).

One replica is ``tensor_parallel_size × pipeline_parallel_size`` GPUs: ``pipeline_parallel_size``
stages, each a ``tensor_parallel_size``-way tensor-parallel group on one node (tensor parallelism
exchanges activations at every layer and wants NVLink; a pipeline stage hands on one activation
per micro-batch and crosses nodes well). ``model.replicas`` such replicas run side by side.

Nothing here imports vLLM or Ray.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .configs import plain_mapping

OFFLINE_VALUES = ("1", "true", "yes", "on")


@dataclass(frozen=True)
class Layout:
    """One replica's shape: ``tp`` GPUs per stage, ``pp`` stages, each GPU one Ray bundle."""

    tp: int = 1
    pp: int = 1
    gpus_per_bundle: float = 1.0
    cpus_per_bundle: float = 1.0

    @property
    def bundles_per_replica(self) -> int:
        return self.tp * self.pp

    @property
    def gpus_per_replica(self) -> float:
        return self.tp * self.pp * self.gpus_per_bundle

    def engine_kwargs(self, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """``vllm.LLM``'s keyword arguments: the parallel sizes, then the model's own
        ``engine_kwargs``; an engine over more than one GPU runs its workers through Ray (on the
        replica's placement group)."""
        kw: dict[str, Any] = {"tensor_parallel_size": self.tp}
        if self.pp > 1:
            kw["pipeline_parallel_size"] = self.pp
        kw.update(extra or {})
        if self.bundles_per_replica > 1:
            kw.setdefault("distributed_executor_backend", "ray")
        return kw

    def bundles(self) -> list[dict[str, float]]:
        """The replica's placement group: one bundle per GPU (CPU-only bundles for a CPU engine)."""
        bundle = {"CPU": self.cpus_per_bundle}
        if self.gpus_per_bundle:
            bundle["GPU"] = self.gpus_per_bundle
        return [dict(bundle) for _ in range(self.bundles_per_replica)]

    @property
    def strategy(self) -> str:
        """One node for a replica without pipeline stages (STRICT_PACK); with stages, as few
        nodes as hold it (PACK: each node's GPUs filled before the next is taken)."""
        return "STRICT_PACK" if self.pp == 1 else "PACK"

    @property
    def actor_gpus(self) -> float:
        """The engine's actor holds the GPU only when the replica is one GPU; otherwise vLLM's
        Ray workers take the bundles' GPUs."""
        return self.gpus_per_bundle if self.bundles_per_replica == 1 else 0.0


def slurm_gpus(env: Mapping[str, str] | None = None) -> tuple[int, int, str] | None:
    """(nodes, GPUs per node, where that comes from) of the Slurm job this runs in, from what the
    job asked for (``--nodes``, ``--gpus-per-node``); None outside a job or without a GPU request.
    In a heterogeneous job, component 0 (the GPU nodes of ``slurm/ibench-hetero.sbatch``)."""
    e = os.environ if env is None else env
    if not e.get("SLURM_JOB_ID"):
        return None
    het = "_HET_GROUP_0" if e.get("SLURM_HET_SIZE") else ""
    raw = e.get(f"SLURM_GPUS_PER_NODE{het}") or e.get("SLURM_GPUS_PER_NODE")
    flag = "--gpus-per-node"
    if raw is None and e.get("SLURM_GPUS_ON_NODE"):  # --gres=gpu:N: this node's count, taken for every node
        raw, flag = e["SLURM_GPUS_ON_NODE"], "GPUs on this node"
    if raw is None:
        return None
    try:  # "8", "a100:8", "gpu:a100:8"
        per_node = int(raw.split(",")[0].rpartition(":")[2].split("(")[0])
        nodes = int(e.get(f"SLURM_JOB_NUM_NODES{het}") or e.get("SLURM_JOB_NUM_NODES") or e.get("SLURM_NNODES") or 1)
    except ValueError:
        return None
    return nodes, per_node, f"the Slurm job ({nodes} node(s) × {flag}={raw})"


def layout_problems(layout: Layout, nodes: int, gpus_per_node: int, where: str, name: str = "") -> list[str]:
    """The GPUs a job asked for divide as TP × PP: a tensor-parallel group within one node's
    GPUs (and dividing them), a replica within the job's GPUs, and the job's GPUs a whole number
    of replicas. One "field: text" line per problem."""
    tp, pp = layout.tp, layout.pp
    if tp < 1 or pp < 1 or not layout.gpus_per_bundle:
        return []  # sizes below 1 are the setting checks'; a CPU replica needs no GPU
    total = nodes * gpus_per_node
    who = f"{name}: " if name else ""
    out = []
    if tp > gpus_per_node:
        out.append(f"model.tensor_parallel_size: {who}tensor_parallel_size={tp} is more GPUs than a node has "
                   f"({gpus_per_node}, {where}); tensor parallelism stays within a node: set "
                   f"tensor_parallel_size to at most {gpus_per_node} and pipeline_parallel_size for the nodes")
    elif gpus_per_node % tp:
        out.append(f"model.tensor_parallel_size: {who}tensor_parallel_size={tp} does not divide the "
                   f"{gpus_per_node} GPUs of a node ({where}); choose a divisor of {gpus_per_node}")
    if tp * pp > total:
        out.append(f"model.pipeline_parallel_size: {who}one replica is tensor_parallel_size × pipeline_parallel_size "
                   f"= {tp} × {pp} = {tp * pp} GPUs but {where} has {total}; ask for more nodes "
                   f"(--nodes={-(-tp * pp // max(gpus_per_node, 1))}) or lower the sizes")
    elif total % (tp * pp):
        out.append(f"model.pipeline_parallel_size: {who}the {total} GPUs of {where} do not divide into replicas of "
                   f"tensor_parallel_size × pipeline_parallel_size = {tp} × {pp} = {tp * pp}; ask for a multiple "
                   f"of {tp * pp} GPUs")
    return out


def looks_like_path(model: str) -> bool:
    return model.startswith(("/", "./", "../", "~")) or model in (".", "..")


def hf_cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """Where Hugging Face's hub keeps downloaded models on this node (``HF_HUB_CACHE``, else
    ``$HF_HOME/hub``, else ``~/.cache/huggingface/hub``)."""
    e = os.environ if env is None else env
    if e.get("HF_HUB_CACHE") or e.get("HUGGINGFACE_HUB_CACHE"):
        return Path(str(e.get("HF_HUB_CACHE") or e.get("HUGGINGFACE_HUB_CACHE"))).expanduser()
    home = e.get("HF_HOME") or os.path.join(e.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "huggingface")
    return Path(home).expanduser() / "hub"


def weights_problem(model: str, engine_kwargs: Mapping[str, Any] | None = None,
                    env: Mapping[str, str] | None = None) -> str | None:
    """The weights the engine will load are on this node: a local folder exists; a hub id, when
    the hub is off (``HF_HUB_OFFLINE=1``, compute nodes without internet), is in the cache (or in
    ``engine_kwargs.download_dir``). A "field: text" line, or None."""
    import socket

    e = os.environ if env is None else env
    host = socket.gethostname()
    if looks_like_path(model):
        path = Path(model).expanduser()
        if not path.is_dir():
            return (f"model.model: the weights folder {path} does not exist on this node ({host}); put the weights "
                    "on a filesystem every node sees (docs/SLURM.md, offline weights) or fix the path")
        if not (path / "config.json").is_file():
            return f"model.model: {path} (on {host}) holds no config.json: not a model folder"
        return None
    if str(e.get("HF_HUB_OFFLINE", "")).lower() not in OFFLINE_VALUES:
        return None  # downloaded by the engine (a compute node without internet: set HF_HUB_OFFLINE=1)
    download_dir = (engine_kwargs or {}).get("download_dir")
    cache = Path(str(download_dir)).expanduser() if download_dir else hf_cache_dir(e)
    snapshots = cache / ("models--" + model.replace("/", "--")) / "snapshots"
    if any(snapshots.glob("*/config.json")):
        return None
    source = "model.engine_kwargs.download_dir" if download_dir else "HF_HUB_CACHE / HF_HOME"
    return (f"model.model: HF_HUB_OFFLINE=1 but {model} is not in the Hugging Face cache on this node ({host}): "
            f"no {snapshots}/*/config.json ({source}); download it once where there is internet "
            f"(`hf download {model}` with the same HF_HOME on the shared filesystem) or set model.model to a "
            "local folder")


def gpus_available(cluster: Any) -> tuple[float | None, str]:
    """(GPUs a launch with this cluster config can use, where the figure comes from); None when
    it cannot be known before the cluster starts (a Ray cluster joined by address)."""
    import shutil
    import subprocess

    if cluster.get("address"):
        return None, f"the Ray cluster at {cluster.address}"
    if cluster.get("num_gpus") is not None:
        return float(cluster.num_gpus), "cluster.num_gpus"
    try:
        import ray

        if ray.is_initialized():
            return float(ray.cluster_resources().get("GPU", 0.0)), "the running Ray instance"
    except ImportError:
        pass
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        ids = [v for v in visible.split(",") if v.strip() and v.strip() != "-1"]
        return float(len(ids)), "CUDA_VISIBLE_DEVICES"
    smi = shutil.which("nvidia-smi")
    if smi:
        try:
            out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=20).stdout
            return float(sum(1 for line in out.splitlines() if line.startswith("GPU "))), "nvidia-smi -L"
        except (OSError, subprocess.SubprocessError):
            pass
    return 0.0, "this machine (no nvidia-smi)"


def replica_problems(model: Any, cluster: Any) -> list[str]:
    """The weights are on this node, and the GPUs hold the replica: in a Slurm job, the GPUs it
    asked for divide as TP × PP (:func:`layout_problems`); elsewhere this machine has one
    replica's GPUs."""
    out: list[str] = []
    if str(model.get("engine_module", "vllm")) == "vllm":  # a stand-in engine (tests) loads no weights
        problem = weights_problem(str(model.model), plain_mapping(model.get("engine_kwargs")))
        if problem:
            out.append(problem)
    tp, pp = int(model.tensor_parallel_size), int(model.get("pipeline_parallel_size", 1))
    layout = Layout(tp, pp, float(model.get("gpus_per_bundle", 1.0)))
    if tp < 1 or pp < 1 or layout.gpus_per_replica <= 0:
        return out
    job = slurm_gpus() if str(cluster.get("_target_", "")).endswith("SlurmCluster") else None
    if job is not None:
        return out + layout_problems(layout, *job, name=str(model.name))
    need = layout.gpus_per_replica
    have, where = gpus_available(cluster)
    if have is not None and have < need:
        out.append(f"model.tensor_parallel_size: one replica of {model.name} needs {need:g} GPU(s) "
                   f"(tensor_parallel_size={tp} × pipeline_parallel_size={pp}) but {where} has {have:g}; run it on "
                   "GPU nodes (cluster=slurm), or choose model=reference or an OpenAI-compatible server")
    return out

