"""The one bounded judging loop on Ray: the pipeline's, the benchmarks' and the tests'.

:class:`JudgeLoop` pulls :class:`JudgeJob` objects from a :class:`JobSource`, keeps at most
``max_inflight`` Ray judge tasks (:func:`~ibench.cluster.judging.judge_sample`) in flight, and
hands each result to ``on_result`` once. A task whose worker or node dies is re-run by Ray
(``max_retries``); one that still fails is a judge error (SE), never dropped and never the
model's. A result that is SE is judged again up to ``rejudge_se`` times. A key pulled twice is
judged once.

The pipeline's source streams from generation (:mod:`ibench.run.pipeline`); :func:`judge_all` runs
a fixed list (``scripts/bench_scale.py``, ``tests/cluster``), so the benchmark measures the
loop a run uses.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Protocol

from ibench.judge.outcome import SampleResult
from ibench.judge.settings import JudgeSettings
from ibench.judge.verdict import Verdict
from ibench.results.records import error_result

log = logging.getLogger(__name__)

TICK_S = 1.0  # how often on_tick runs while the loop waits


@dataclass
class JudgeJob:
    key: str  # idempotency key (the store's sample_id)
    task: Any  # ibench.tasks.model.Task
    code: str
    language: str = "cpp"
    payload: Any = None  # the caller's own record, handed back with the result
    attempt: int = 1  # 1 + the judge errors (SE) it was judged again after
    label: str = ""  # how log lines name it ("" = its key)


@dataclass
class Outcome:
    key: str
    result: SampleResult
    wall_s: float
    node: str
    submitted_at: float
    finished_at: float
    attempt: int = 1

    @property
    def verdict(self) -> str:
        return self.result.verdict.value


class JobSource(Protocol):
    """Where the loop's jobs come from."""

    def next(self, timeout: float) -> JudgeJob | None:
        """The next job, or None when none came within ``timeout`` seconds (or none will)."""

    @property
    def exhausted(self) -> bool:
        """No job will come any more."""


class ListSource:
    """A fixed list of jobs, in order."""

    def __init__(self, jobs: Iterable[JudgeJob]) -> None:
        self._jobs = list(jobs)
        self._jobs.reverse()

    def next(self, timeout: float) -> JudgeJob | None:
        return self._jobs.pop() if self._jobs else None

    @property
    def exhausted(self) -> bool:
        return not self._jobs


def inflight_limit(max_inflight: int, judge_cpus: float) -> int:
    """``max_inflight``, or (0) twice as many tasks as the cluster's CPUs hold: one running and
    one queued per slot, so a slot never waits on the driver."""
    if max_inflight:
        return max_inflight
    import ray

    cpus = int(ray.cluster_resources().get("CPU", 1))
    return max(2, int(2 * cpus / max(judge_cpus, 1e-3)))


class JudgeLoop:
    """Judge what a :class:`JobSource` yields on the connected Ray cluster, bounded in flight."""

    def __init__(self, settings: JudgeSettings, judge_cpus: float = 1.0, max_retries: int = 2,
                 max_inflight: int = 0, rejudge_se: int = 0, spread: bool = True) -> None:
        self.settings = settings
        self.judge_cpus = judge_cpus
        self.max_retries = max_retries
        self.max_inflight = max_inflight
        self.rejudge_se = rejudge_se
        self.spread = spread
        self.duplicates = 0  # jobs pulled for a key already submitted (dropped)
        self.failed = 0  # tasks that failed for good (recorded as SE)

    def run(self, source: JobSource, on_result: Callable[[JudgeJob, Outcome], None],
            on_tick: Callable[[], None] | None = None) -> None:
        import ray

        from ibench.cluster import judging  # looked up per run: a test may trace the task body

        limit = inflight_limit(self.max_inflight, self.judge_cpus)
        remote = ray.remote(judging.judge_sample).options(
            num_cpus=self.judge_cpus, max_retries=self.max_retries, retry_exceptions=False,
            scheduling_strategy="SPREAD" if self.spread else "DEFAULT")
        settings_ref = ray.put(self.settings)
        task_refs: dict[str, Any] = {}
        seen: set[str] = set()
        inflight: dict[Any, tuple[JudgeJob, float]] = {}
        retry: list[JudgeJob] = []
        start = time.perf_counter()
        last_tick = 0.0

        def submit(job: JudgeJob) -> None:
            tid = job.task.task_id
            if tid not in task_refs:
                task_refs[tid] = ray.put(job.task)
            inflight[remote.remote(task_refs[tid], job.code, job.language, settings_ref)] = (
                job, time.perf_counter() - start)

        def collect(ref: Any) -> None:
            job, t0 = inflight.pop(ref)
            try:
                result, wall, node = ray.get(ref)
            except Exception as exc:  # noqa: BLE001 - retries spent: a judge error, never the model's
                self.failed += 1
                log.error("judge task for %s failed for good: %s", job.label or job.key, exc)
                result, wall, node = error_result(f"judge task failed: {type(exc).__name__}: {str(exc)[-800:]}"), 0.0, ""
            if result.verdict is Verdict.SE and job.attempt <= self.rejudge_se:
                log.warning("judge error on %s (%s); re-judging (attempt %d)", job.label or job.key, result.message, job.attempt + 1)
                job.attempt += 1
                retry.append(job)
                return
            if result.verdict is Verdict.SE:
                log.error("JUDGE ERROR on %s: %s", job.label or job.key, result.message)
            on_result(job, Outcome(job.key, result, wall, node, t0, time.perf_counter() - start, job.attempt))

        try:
            while inflight or retry or not source.exhausted:
                while len(inflight) < limit and (retry or not source.exhausted):  # 1. fill the free slots
                    if retry:
                        submit(retry.pop(0))
                        continue
                    job = source.next(0.05 if inflight else 0.2)
                    if job is None:
                        break
                    if job.key in seen:
                        self.duplicates += 1
                        continue
                    seen.add(job.key)
                    submit(job)
                if inflight:  # 2. collect what finished (all that did, in one pass)
                    ready, _ = ray.wait(list(inflight), num_returns=1, timeout=0.2)
                    if ready:
                        rest = [r for r in inflight if r not in ready]
                        more, _ = ray.wait(rest, num_returns=len(rest), timeout=0) if rest else ([], [])
                        for ref in [*ready, *more]:
                            collect(ref)
                now = time.monotonic()
                if on_tick and now - last_tick >= TICK_S:
                    last_tick = now
                    on_tick()
        except BaseException as exc:
            # On Ctrl-C the judge workers got the same SIGINT; cancelling their tasks then trips a
            # Ray core check (abort). ray.shutdown ends them anyway.
            if not isinstance(exc, KeyboardInterrupt):
                for ref in inflight:
                    ray.cancel(ref, force=True)
            raise


# -- a fixed list of jobs -------------------------------------------------------------------------
@dataclass
class JudgeRun:
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    duplicates: int = 0  # jobs for a key already recorded (dropped)
    failed: int = 0  # tasks that failed for good (recorded as SE)
    wall_s: float = 0.0

    def by_node(self) -> Counter:
        return Counter(o.node for o in self.outcomes.values())

    def cases(self) -> int:
        return sum(len(o.result.cases) for o in self.outcomes.values())


def judge_all(jobs: Iterable[JudgeJob], settings: JudgeSettings, judge_cpus: float = 1.0, max_retries: int = 3,
              max_inflight: int = 0, spread: bool = True, rejudge_se: int = 0,
              on_outcome: Callable[[Outcome], None] | None = None) -> JudgeRun:
    """Judge every job with :class:`JudgeLoop`; one :class:`Outcome` per key."""
    loop = JudgeLoop(settings, judge_cpus=judge_cpus, max_retries=max_retries, max_inflight=max_inflight,
                     rejudge_se=rejudge_se, spread=spread)
    run = JudgeRun()
    start = time.perf_counter()

    def record(job: JudgeJob, out: Outcome) -> None:
        run.outcomes[job.key] = out
        if on_outcome:
            on_outcome(out)

    loop.run(ListSource(jobs), record)
    run.duplicates, run.failed, run.wall_s = loop.duplicates, loop.failed, time.perf_counter() - start
    return run
