"""Judging on a Ray cluster: the judge task, who judged what, and the nodes' sandboxes.

- :func:`judge_sample` is the Ray judge task body: one :class:`~ibench.judge.Judge` per settings
  per worker process (its sandbox slot and compile caches stay warm), the result, the judge's
  wall time and the node that judged it as ``"<hostname>/<ray node id[:12]>"`` (two raylets on
  one host stay distinguishable). The sandbox label (``root+cgroup-v1+box+seccomp``,
  ``rlimit+seccomp``) is in the result itself, so every stored verdict says where and how it
  was judged.
- The loop that runs many samples through that task, bounded in flight, is
  :mod:`ibench.cluster.judge_loop` (the pipeline's and the benchmarks').
- :func:`survey_nodes` runs a probe on every alive node (hard node affinity) and reports each
  node's sandbox capabilities; :func:`sandbox_mismatches` finds nodes whose capabilities differ
  from the majority, from a survey or from stored verdict rows.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any, Callable, Sequence

from ibench.judge.outcome import SampleResult
from ibench.judge.settings import JudgeSettings

log = logging.getLogger(__name__)

NODE_ID_CHARS = 12


# -- identity -----------------------------------------------------------------------------------------
def ray_node_id() -> str:
    """This process's Ray node id ("" outside Ray)."""
    try:
        import ray

        if ray.is_initialized():
            return ray.get_runtime_context().get_node_id() or ""
    except Exception:  # noqa: BLE001 - identity is best effort
        pass
    return ""


def node_label(node_id: str | None = None) -> str:
    """``hostname/<node id prefix>``: what the store's ``node`` column holds."""
    nid = ray_node_id() if node_id is None else node_id
    host = socket.gethostname()
    return f"{host}/{nid[:NODE_ID_CHARS]}" if nid else host


@dataclass(frozen=True)
class NodeInfo:
    """One node's identity and sandbox capabilities (what a probe on it reports)."""

    node: str  # hostname/node-id prefix
    hostname: str
    node_id: str
    ip: str
    sandbox: str  # the isolation label the judge would use there
    isolation_warnings: tuple[str, ...] = ()
    compiler: str = ""
    cpus: int = 0
    pid: int = 0

    def capabilities(self) -> tuple[str, str]:
        """What must agree across nodes for verdicts to be comparable."""
        return (self.sandbox, self.compiler)


def local_node_info(settings: JudgeSettings | None = None) -> NodeInfo:
    from ibench.judge.sandbox import detect_isolation
    from ibench.judge.sandbox.run import build_supervisor, default_cache_dir

    settings = settings or JudgeSettings()
    try:
        supervisor = build_supervisor(default_cache_dir(settings.cache_dir))
        iso = detect_isolation(settings.isolation, str(supervisor))  # builds a real box to tell
        label, warnings = iso.label, (*iso.warnings, iso.bounds)
    except Exception as exc:  # noqa: BLE001 - a node that cannot sandbox must show up, not crash
        label, warnings = "unavailable", (f"{type(exc).__name__}: {exc}",)
    nid = ray_node_id()
    return NodeInfo(node=node_label(nid), hostname=socket.gethostname(), node_id=nid, ip=_ip(),
                    sandbox=label, isolation_warnings=warnings, compiler=_compiler_version(settings.compiler),
                    cpus=os.cpu_count() or 0, pid=os.getpid())


def _ip() -> str:
    try:
        import ray

        if ray.is_initialized():
            return ray.util.get_node_ip_address()
    except Exception:  # noqa: BLE001
        pass
    return ""


def _compiler_version(compiler: str) -> str:
    import subprocess

    try:
        out = subprocess.run([compiler, "--version"], capture_output=True, text=True, timeout=20).stdout
        return out.splitlines()[0].strip() if out else ""
    except (OSError, subprocess.TimeoutExpired):
        return "missing"


# -- the judge task -----------------------------------------------------------------------------------
def judge_sample(task: Any, code: str, language: str, settings: JudgeSettings) -> tuple[SampleResult, float, str]:
    """The judge task body: ``(result, judge wall seconds, node label)``.

    :class:`~ibench.cluster.judge_loop.JudgeLoop` runs this as its Ray judge task; the node
    label adds the Ray node id to the host name.
    """
    from ibench.judge import Judge

    judge = Judge.shared(settings)
    start = time.perf_counter()
    result = judge.judge(task, code, language=language)
    return result, time.perf_counter() - start, node_label()


# -- sandbox capabilities across nodes ----------------------------------------------------------------
def _probe(settings: JudgeSettings) -> dict:
    return asdict(local_node_info(settings))


def survey_nodes(settings: JudgeSettings | None = None, timeout_s: float = 300.0) -> list[NodeInfo]:
    """Ask every alive node (hard affinity, zero CPUs) what sandbox it would judge in."""
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    settings = settings or JudgeSettings()
    probe = ray.remote(_probe)
    refs = {}
    for n in ray.nodes():
        if not n.get("Alive"):
            continue
        refs[n["NodeID"]] = probe.options(num_cpus=0, max_retries=1, scheduling_strategy=NodeAffinitySchedulingStrategy(
            node_id=n["NodeID"], soft=False)).remote(settings)
    out = []
    ready, missing = ray.wait(list(refs.values()), num_returns=len(refs), timeout=timeout_s)
    for nid, ref in refs.items():
        if ref in ready:
            try:
                d = ray.get(ref)
                d["isolation_warnings"] = tuple(d["isolation_warnings"])
                out.append(NodeInfo(**d))
                continue
            except Exception as exc:  # noqa: BLE001
                err = f"{type(exc).__name__}: {exc}"
        else:
            err = f"no answer within {timeout_s:.0f}s"
        out.append(NodeInfo(node=f"?/{nid[:NODE_ID_CHARS]}", hostname="?", node_id=nid, ip="", sandbox="unreachable",
                            isolation_warnings=(err,)))
    return out


def check_isolation(settings: JudgeSettings, log_line: Callable[[str], None] = log.info) -> list[NodeInfo]:
    """Survey every node that will judge (this one outside Ray), report each node's isolation,
    and refuse (:class:`~ibench.judge.judge.IsolationError`) where ``judge.require_isolation``
    is set and a node cannot build the allowlist box: its verdicts could be forged."""
    from ibench.judge.judge import IsolationError

    try:
        import ray

        many = ray.is_initialized() and sum(1 for n in ray.nodes() if n.get("Alive")) > 1
        nodes = survey_nodes(settings) if many else [local_node_info(settings)]
    except ImportError:
        nodes = [local_node_info(settings)]
    for n in nodes:
        note = f" ({'; '.join(n.isolation_warnings)})" if n.isolation_warnings else ""
        log_line(f"node {n.node}: sandbox {n.sandbox}{note}")
    weak = [n for n in nodes if "box" not in n.sandbox.split("+")]
    if weak and settings.require_isolation:
        raise IsolationError("judge.require_isolation=true, but these nodes cannot build the allowlist box "
                             "(a solver there could read the hidden cases): "
                             + "; ".join(f"{n.node}: {n.sandbox}" for n in weak))
    return nodes


def sandbox_mismatches(rows: Sequence[NodeInfo] | Any) -> dict[str, str]:
    """Nodes whose sandbox differs from the majority: ``{node: "its label (majority: label)"}``.

    ``rows`` is a survey (:class:`NodeInfo` list) or a verdicts table (polars DataFrame or list of
    dicts with ``node`` and ``sandbox`` columns; rows without a sandbox label, e.g. samples without
    code, are ignored).
    """
    per_node: dict[str, Counter] = {}
    if hasattr(rows, "iter_rows"):
        table: Any = rows  # a polars DataFrame (not imported here)
        rows = list(table.select("node", "sandbox").iter_rows(named=True))
    for r in rows:
        node, label = (r.node, r.sandbox) if isinstance(r, NodeInfo) else (r.get("node") or "", r.get("sandbox") or "")
        if label:
            per_node.setdefault(node, Counter())[label] += 1
    if not per_node:
        return {}
    node_label_ = {n: c.most_common(1)[0][0] for n, c in per_node.items()}
    majority = Counter(node_label_.values()).most_common(1)[0][0]
    out = {}
    for n, c in per_node.items():
        labels = sorted(c)
        if labels != [majority]:
            out[n] = f"{', '.join(labels)} (majority: {majority})"
    return out
