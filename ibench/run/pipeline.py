"""Generation streaming into judging, on Ray (thin orchestration; no metrics, no I/O format).

A background thread drives the backend and hands over each completion as it arrives; the
judging loop (:class:`~ibench.cluster.judge_loop.JudgeLoop`) pulls it, as a
:class:`~ibench.results.store.SampleRecord` appended to the store, and submits one Ray judge task
for it (``num_cpus = pipeline.judge_cpus``), keeping at most ``pipeline.max_inflight`` judge tasks
in flight — when judging falls behind, the hand-over queue fills and generation waits. GPUs
generate while CPUs judge.

The run is a loop of rounds, each planned from the store (:mod:`ibench.run.plan`). Round 1 is every
sample's first attempt; with ``sampling.refine_rounds=K`` (iterative refinement, InteractBench
C.2) each later round takes the samples whose previous round failed, continues their
conversation with the judge's feedback (:mod:`ibench.generate.feedback`) and generates, judges
and stores the revised answers — each round a sample of its own, linked to its parent, under the
same sample index.

Resume: every sample has a key (:mod:`ibench.results.records`). Samples already in the store are
not generated again; samples already judged under the same judge settings are not judged again.
A run stopped in round r resumes in round r; raising ``refine_rounds`` on a finished run
(``resume=PATH``) adds rounds and regenerates nothing.
"""

from __future__ import annotations

import logging
import queue
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ibench.cluster.judge_loop import JudgeJob, JudgeLoop, Outcome, inflight_limit
from ibench.generate.base import Backend, Completion
from ibench.judge.outcome import SampleResult
from ibench.run.keys import spec_keys
from ibench.run.plan import Plan, Planner, RunPlan
from ibench.run.progress import Bars, Progress
from ibench.results.records import make_sample_record, no_code_result, verdict_rows
from ibench.results.store import RunStore, SampleRecord
from ibench.run.spec import RunSpec
from ibench.tasks.model import Task

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Execution:
    """How the pipeline runs, never what it measures (``cfg.pipeline``; a resume may change it)."""

    judge_cpus: float = 1.0  # CPUs reserved per judge task
    max_inflight: int = 0  # judge tasks in flight at once; 0 = 2 x cluster CPUs
    task_retries: int = 2  # Ray retries of a judge task whose worker or node died
    rejudge_se: int = 1  # re-judge a sample that got a judge error (SE) this many times
    regenerate_failed: bool = True  # on resume, retry samples whose generation request failed

    @classmethod
    def from_config(cls, p: Any) -> "Execution":
        return cls(judge_cpus=float(p.judge_cpus), max_inflight=int(p.max_inflight), task_retries=int(p.task_retries),
                   rejudge_se=int(p.rejudge_se), regenerate_failed=bool(p.regenerate_failed))


class Pipeline:
    def __init__(self, spec: RunSpec, backend: Backend, tasks: list[Task], store: RunStore,
                 execution: Execution = Execution(), progress: bool = True,
                 on_progress: Callable[[Progress], None] | None = None, console: Any = None) -> None:
        self.spec = spec
        self.backend = backend
        self.tasks = tasks
        self.by_id = {t.task_id: t for t in tasks}
        self.store = store
        self.run_dir = Path(store.root).parent  # the store is <run>/results
        self.execution = execution
        self.show_progress = progress
        self.on_progress = on_progress
        self.console = console
        self.keys = spec_keys(spec, backend)
        self.progress = Progress()
        self.reasoning_format = backend.reasoning_format
        self._prompt_info: dict[str, dict] = {}
        self.rounds = spec.rounds
        self.planner = Planner(spec, backend, tasks, store, self.keys, execution.regenerate_failed)
        self._current: Plan | None = None
        self._backend_ready = False

    # -- running ----------------------------------------------------------------------------------
    def setup_backend(self) -> None:
        """Set the backend up, once (the first round that generates, or a rephrasing stage that
        asks the run's own model: :func:`ibench.generate.rephrase.prepare`)."""
        if not self._backend_ready:
            self.backend.setup(self.spec.sampling)
            self._backend_ready = True

    def run(self) -> RunPlan:
        """Every round in turn: plan it from the store, generate, judge, store. A round with
        nothing to do (every sample solved or stopped) ends the loop. With ``prompt.rephrase``,
        the statements are rephrased first (:meth:`rephrase`)."""
        if self.spec.prompt.rephrase:
            self.rephrase()
        rounds: list[Plan] = []
        for round_ in range(1, self.rounds + 1):
            plan = self.planner.plan(round_)
            if round_ > 1 and plan.empty and not plan.reused_samples:
                break
            rounds.append(plan)
            self._run_round(plan)
        if self.on_progress:
            self.on_progress(self.progress)
        return RunPlan(rounds)

    def rephrase(self) -> None:
        """``prompt.rephrase``: each statement rephrased once (:func:`ibench.generate.rephrase.prepare`:
        the run's ``rephrased.json``, the cache, else the rephrasing model) and bound to the prompt
        before round 1 is planned — the rephrased texts are part of the tasks' sample keys."""
        from ibench.generate.rephrase import cache_dir, prepare
        from ibench.run.config import build_model

        done = prepare(self.spec.prompt, self.spec.sampling, self.backend, self.tasks, self.run_dir, cache_dir(),
                       self.setup_backend, build_model=build_model)
        by = sorted({r.rephrased_by for r in done.values()})
        log.info("rephrased statements: %d task(s) by %s, %d from the cache or the run's rephrased.json",
                 len(done), ", ".join(by), sum(r.cached for r in done.values()))

    def _run_round(self, plan: Plan) -> None:
        self._current = plan
        self.progress.planned_generate += plan.n_generate
        self.progress.planned_judge += plan.n_generate + len(plan.to_judge)
        # samples the run ends with: round 1's, then each later round's continuing ones
        self.progress.planned_expected += sum(plan.expected.values()) if plan.round == 1 else len(plan.parents)
        label = "plan" if self.rounds == 1 else f"round {plan.round} of {self.rounds}"
        log.info("%s: generate %d sample(s), judge %d stored one(s); reuse %d sample(s), %d verdict(s)",
                 label, plan.n_generate, len(plan.to_judge), plan.reused_samples, plan.reused_verdicts)
        if plan.stopped:
            log.warning("round %d: %d sample(s) end before it: their last round has no verdict to answer "
                        "(a judge error, or a failed request)", plan.round, plan.stopped)
        ex = self.execution
        loop = JudgeLoop(self.spec.judge, judge_cpus=ex.judge_cpus, max_retries=ex.task_retries,
                         max_inflight=ex.max_inflight, rejudge_se=ex.rejudge_se)
        bars = Bars(self.show_progress, plan.n_generate, plan.n_generate + len(plan.to_judge), self.console,
                    suffix="" if self.rounds == 1 else f" r{plan.round}")
        source = _RoundSource(self, plan, bars, inflight_limit(ex.max_inflight, ex.judge_cpus))
        if plan.requests:  # only now: a fully resumed run never loads a model
            self.setup_backend()

        def on_result(job: JudgeJob, out: Outcome) -> None:
            self._record(job.payload, out.result, out.wall_s, out.attempt, out.node)
            bars.judged()

        def on_tick() -> None:
            if self.on_progress:
                self.on_progress(self.progress)

        try:
            with bars:
                source.start()
                loop.run(source, on_result, on_tick)
        finally:
            source.stopping.set()
            self.store.flush()
        source.join()  # after a clean end only: on Ctrl-C the backend may be mid-request

    def _prompt_record(self, task_id: str) -> dict:
        if task_id not in self._prompt_info:
            self._prompt_info[task_id] = self.spec.prompt.record(self.by_id[task_id], self.spec.language)
        return self._prompt_info[task_id]

    def _new_sample(self, c: Completion) -> SampleRecord:
        language = c.extra.get("language", self.spec.language)
        if c.task_id in self.by_id:  # the prompt setting and the example shown, with the sample
            c.extra = {**c.extra, "prompt": self._prompt_record(c.task_id)}
        plan = self._current
        round_, parent, sid = 1, "", None
        if plan is not None and plan.round > 1:
            round_ = plan.round
            parent = plan.parents[(c.task_id, c.sample_index)]
            sid = self.planner.round_sample_id(parent, round_)
        rec = make_sample_record(c, self.keys, self.backend.name, language, self.reasoning_format,
                                 self.spec.accept_untagged, self.planner.task_fp(c.task_id), round_=round_, parent_id=parent,
                                 sid=sid)
        self.store.add_sample(rec)
        self.progress.generated += 1
        if rec.error:
            self.progress.gen_failed += 1
        if rec.code is None:
            self.progress.no_code += 1
        return rec

    def _record(self, rec: SampleRecord, result: SampleResult, wall: float, attempt: int, node: str) -> None:
        v, cases = verdict_rows(rec, result, self.keys.judge_key, wall, attempt, node)
        self.store.add_verdict(v, cases)
        self.progress.add(rec.task_id, result.verdict, rec.round or 1)

    # -- results ----------------------------------------------------------------------------------
    def verdicts_by_task(self, expected: dict[str, int] | None = None) -> dict[str, list[str]]:
        """Each task's first-attempt verdict labels for this run's keys (samples beyond the plan and
        refinement rounds are ignored: pass@k is over independent first attempts)."""
        df = self.store.table("verdicts")
        df = df.filter((df["gen_key"] == self.keys.gen_key) & (df["judge_key"] == self.keys.judge_key))
        out: dict[str, list[str]] = {t.task_id: [] for t in self.tasks}
        for row in df.select("task_id", "sample_index", "verdict", "round").iter_rows(named=True):
            tid = row["task_id"]
            if (row["round"] or 1) > 1:
                continue
            if tid in out and (expected is None or row["sample_index"] < expected.get(tid, 0)):
                out[tid].append(row["verdict"])
        return out


class _RoundSource:
    """One round's judge jobs: the stored samples still without a verdict, then each new sample
    as generation hands it over. A background thread drives the backend; the hand-over queue
    holds at most the loop's in-flight bound, so when judging falls behind generation waits.
    A sample without code is recorded here (CE, SPEC §4) and never reaches a judge."""

    _DONE = object()

    def __init__(self, pipeline: Pipeline, plan: Plan, bars: Bars, limit: int) -> None:
        self.pipeline, self.plan, self.bars = pipeline, plan, bars
        self.backlog: list[SampleRecord] = list(plan.to_judge)
        self.handoff: queue.Queue[Any] = queue.Queue(maxsize=max(1, limit))
        self.failure: list[BaseException] = []
        self.stopping = threading.Event()
        self.generating = bool(plan.requests)
        self.thread = threading.Thread(target=self._produce, name="ibench-generate", daemon=True)

    def start(self) -> None:
        if self.generating:
            self.thread.start()

    def join(self) -> None:
        if self.thread.is_alive():
            self.thread.join(timeout=5)

    def _put(self, item: Any) -> bool:
        while not self.stopping.is_set():
            try:
                self.handoff.put(item, timeout=0.2)
                return True
            except queue.Full:
                continue
        return False

    def _produce(self) -> None:
        try:
            for completion in self.pipeline.backend.generate(self.plan.requests):
                if not self._put(completion):
                    return
        except BaseException as exc:  # surfaced in the main thread
            self.failure.append(exc)
        finally:
            self._put(self._DONE)  # never blocks forever once the main loop has gone

    @property
    def exhausted(self) -> bool:
        return not self.backlog and not self.generating

    def next(self, timeout: float) -> JudgeJob | None:
        while True:
            if self.backlog:
                rec = self.backlog.pop(0)
            elif not self.generating:
                return None
            else:
                try:
                    item = self.handoff.get(timeout=timeout)
                except queue.Empty:
                    return None
                if item is self._DONE:
                    self.generating = False
                    if self.failure:
                        raise self.failure[0]
                    return None
                rec = self.pipeline._new_sample(item)
                self.bars.generated()
            if rec.code is not None:
                return JudgeJob(rec.sample_id, self.pipeline.by_id[rec.task_id], rec.code, rec.language, payload=rec,
                                label=f"{rec.task_id} sample {rec.sample_index}")
            self.pipeline._record(rec, no_code_result(rec), 0.0, 1, "")
            self.bars.judged()
