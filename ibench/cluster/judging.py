"""Judging on a Ray cluster: the judge task, who judged what, and a bounded map with idempotent keys.

- :func:`judge_sample` is the Ray judge task body: one :class:`~ibench.judge.Judge` per settings
  per worker process (its sandbox slot and compile caches stay warm), the result, the judge's
  wall time and the node that judged it as ``"<hostname>/<ray node id[:12]>"`` (two raylets on
  one host stay distinguishable). The sandbox label (``root+cgroup-v1+box+seccomp``,
  ``rlimit+seccomp``) is in the result itself, so every stored verdict says where and how it
  was judged.
- :func:`judge_all` runs many samples through that task, at most ``max_inflight`` at a time,
  retried by Ray when a worker or node dies (``max_retries``; such failures are system failures,
  a judge *exception* is not retried), each result recorded once under its key however often
  its task ran.
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
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterable, Sequence

from ibench.judge.results import CompileInfo, SampleResult
from ibench.judge.settings import JudgeSettings
from ibench.judge.verdict import Verdict

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

    The pipeline runs this as its Ray judge task; the node label adds the Ray node id to the
    host name.
    """
    from ibench.judge import Judge

    judge = Judge.shared(settings)
    start = time.perf_counter()
    result = judge.judge(task, code, language=language)
    return result, time.perf_counter() - start, node_label()


def judge_error(message: str) -> SampleResult:
    return SampleResult(verdict=Verdict.SE, cases=[], compile=CompileInfo(ok=False, ms=0.0, cached=False),
                        sandbox="", message=message, warnings=[message])


# -- many samples -------------------------------------------------------------------------------------
@dataclass
class JudgeJob:
    key: str  # idempotency key (e.g. the store's sample_id)
    task: Any  # ibench.tasks.model.Task
    code: str
    language: str = "cpp"


@dataclass
class Outcome:
    key: str
    result: SampleResult
    wall_s: float
    node: str
    submitted_at: float
    finished_at: float

    @property
    def verdict(self) -> str:
        return self.result.verdict.value


@dataclass
class JudgeRun:
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    duplicates: int = 0  # results that arrived for a key already recorded (dropped)
    failed: int = 0  # tasks that failed for good (recorded as SE)
    wall_s: float = 0.0

    def by_node(self) -> Counter:
        return Counter(o.node for o in self.outcomes.values())

    def cases(self) -> int:
        return sum(len(o.result.cases) for o in self.outcomes.values())


def judge_all(jobs: Iterable[JudgeJob], settings: JudgeSettings, judge_cpus: float = 1.0, max_retries: int = 3,
              max_inflight: int = 0, spread: bool = True,
              on_outcome: Callable[[Outcome], None] | None = None) -> JudgeRun:
    """Judge every job on the connected Ray cluster; one :class:`Outcome` per key.

    A task whose worker or node dies is re-run by Ray up to ``max_retries`` times on a live node;
    one that still fails is recorded as a judge error (SE), never dropped. A key submitted twice,
    or a result arriving for a key already recorded, is recorded once.
    """
    import ray

    remote = ray.remote(judge_sample).options(num_cpus=judge_cpus, max_retries=max_retries, retry_exceptions=False,
                                              scheduling_strategy="SPREAD" if spread else "DEFAULT")
    if not max_inflight:
        cpus = ray.cluster_resources().get("CPU", 1)
        max_inflight = max(2, int(2 * cpus / max(judge_cpus, 1e-3)))
    settings_ref = ray.put(settings)
    task_refs: dict[str, Any] = {}
    run = JudgeRun()
    pending = list(jobs)
    pending.reverse()
    seen: set[str] = set()
    inflight: dict[Any, tuple[JudgeJob, float]] = {}
    start = time.perf_counter()

    def record(job: JudgeJob, result: SampleResult, wall: float, node: str, t0: float) -> None:
        if job.key in run.outcomes:
            run.duplicates += 1
            return
        out = Outcome(job.key, result, wall, node, t0, time.perf_counter() - start)
        run.outcomes[job.key] = out
        if on_outcome:
            on_outcome(out)

    while pending or inflight:
        while pending and len(inflight) < max_inflight:
            job = pending.pop()
            if job.key in seen:
                run.duplicates += 1
                continue
            seen.add(job.key)
            tid = job.task.problem_id
            if tid not in task_refs:
                task_refs[tid] = ray.put(job.task)
            ref = remote.remote(task_refs[tid], job.code, job.language, settings_ref)
            inflight[ref] = (job, time.perf_counter() - start)
        ready, _ = ray.wait(list(inflight), num_returns=1, timeout=1.0)
        if not ready:
            continue
        rest = [r for r in inflight if r not in ready]
        if rest:
            more, _ = ray.wait(rest, num_returns=len(rest), timeout=0)
            ready = [*ready, *more]
        for ref in ready:
            job, t0 = inflight.pop(ref)
            try:
                result, wall, node = ray.get(ref)
            except Exception as exc:  # noqa: BLE001 - retries spent: a judge error, never the model's
                run.failed += 1
                log.error("judge task for %s failed for good: %s", job.key, exc)
                result, wall, node = judge_error(f"judge task failed: {type(exc).__name__}: {str(exc)[-500:]}"), 0.0, ""
            record(job, result, wall, node, t0)
    run.wall_s = time.perf_counter() - start
    return run


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
        rows = list(rows.select("node", "sandbox").iter_rows(named=True))
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
