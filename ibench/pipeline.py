"""Generation streaming into judging, on Ray (thin orchestration; no metrics, no I/O format).

A background thread drives the backend and hands over each completion as it arrives; the main
loop turns it into a :class:`~ibench.results.store.SampleRecord`, appends it to the store and submits
one Ray judge task for it (``num_cpus = pipeline.judge_cpus``), keeping at most
``pipeline.max_inflight`` judge tasks in flight — when judging falls behind, the hand-over
queue fills and generation waits. GPUs generate while CPUs judge.

The run is a loop of rounds, each planned from the store (:mod:`ibench.plan`). Round 1 is every
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
import time
from typing import Any, Callable

from ibench.cluster.judging import judge_sample  # the Ray judge task (one Judge per settings per worker)
from ibench.generate.base import Backend, Completion, SamplingSettings
from ibench.generate.feedback import FeedbackSettings
from ibench.generate.prompt import PromptTemplate
from ibench.judge.results import SampleResult
from ibench.judge.settings import JudgeSettings
from ibench.judge.verdict import Verdict
from ibench.plan import Plan, Planner, RunPlan
from ibench.progress import Bars, Progress
from ibench.results.records import error_result, make_sample_record, no_code_result, run_keys, verdict_rows
from ibench.results.store import RunStore, SampleRecord
from ibench.tasks.model import Task

log = logging.getLogger(__name__)


class Pipeline:
    def __init__(self, backend: Backend, tasks: list[Task], store: RunStore, sampling: SamplingSettings,
                 prompt: PromptTemplate, judge: JudgeSettings, language: str = "cpp", judge_cpus: float = 1.0,
                 max_inflight: int = 0, task_retries: int = 2, rejudge_se: int = 1,
                 regenerate_failed: bool = True, accept_untagged: bool = False, progress: bool = True,
                 on_progress: Callable[[Progress], None] | None = None, console: Any = None,
                 feedback: FeedbackSettings | None = None) -> None:
        self.backend = backend
        self.tasks = tasks
        self.by_id = {t.problem_id: t for t in tasks}
        self.store = store
        self.sampling = sampling
        self.prompt = prompt
        self.judge = judge
        self.language = language
        self.judge_cpus = judge_cpus
        self.max_inflight = max_inflight
        self.task_retries = task_retries
        self.rejudge_se = rejudge_se
        self.accept_untagged = accept_untagged
        self.show_progress = progress
        self.on_progress = on_progress
        self.console = console
        self.keys = run_keys(backend, sampling, prompt, language, accept_untagged, judge)
        self.progress = Progress()
        self.reasoning_format = backend.reasoning_format
        self._prompt_info: dict[str, dict] = {}
        self.rounds = max(1, int(sampling.refine_rounds or 1))
        self.planner = Planner(backend, tasks, store, sampling, prompt, language, self.keys,
                               feedback or FeedbackSettings(), regenerate_failed)
        self._current: Plan | None = None
        self._backend_ready = False

    # -- running ----------------------------------------------------------------------------------
    def run(self) -> RunPlan:
        """Every round in turn: plan it from the store, generate, judge, store. A round with
        nothing to do (every sample solved or stopped) ends the loop."""
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

    def _run_round(self, plan: Plan) -> None:
        import ray

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
        cpus = int(ray.cluster_resources().get("CPU", 1))
        limit = self.max_inflight or max(2, int(2 * cpus / max(self.judge_cpus, 0.001)))
        remote = ray.remote(judge_sample).options(num_cpus=self.judge_cpus, max_retries=self.task_retries,
                                                  scheduling_strategy="SPREAD",
                                                   retry_exceptions=False)
        settings_ref = ray.put(self.judge)
        task_refs: dict[str, Any] = {}

        handoff: queue.Queue[Any] = queue.Queue(maxsize=max(1, limit))
        done = object()
        failure: list[BaseException] = []
        stop = threading.Event()

        def produce() -> None:
            try:
                for completion in self.backend.generate(plan.requests):
                    while not stop.is_set():
                        try:
                            handoff.put(completion, timeout=0.2)
                            break
                        except queue.Full:
                            continue
                    if stop.is_set():
                        return
            except BaseException as exc:  # surfaced in the main thread
                failure.append(exc)
            finally:
                while True:  # never block forever on a full queue once the main loop has gone
                    try:
                        handoff.put(done, timeout=0.2)
                        break
                    except queue.Full:
                        if stop.is_set():
                            break

        inflight: dict[Any, tuple[SampleRecord, int]] = {}
        backlog: list[SampleRecord] = list(plan.to_judge)
        bars = Bars(self.show_progress, plan.n_generate, plan.n_generate + len(plan.to_judge), self.console,
                     suffix="" if self.rounds == 1 else f" r{plan.round}")

        def submit(rec: SampleRecord, attempt: int = 1) -> None:
            if rec.code is None:
                self._record(rec, no_code_result(rec), 0.0, attempt, "")
                bars.judged()
                return
            if rec.task_id not in task_refs:
                task_refs[rec.task_id] = ray.put(self.by_id[rec.task_id])
            ref = remote.remote(task_refs[rec.task_id], rec.code, rec.language, settings_ref)
            inflight[ref] = (rec, attempt)

        producer = threading.Thread(target=produce, name="ibench-generate", daemon=True)
        if plan.requests:
            # Only now: a fully resumed run never loads a model.
            if not self._backend_ready:
                self.backend.setup(self.sampling)
                self._backend_ready = True
            producer.start()
        else:
            handoff.put(done)
        generating = True
        last_report = 0.0
        try:
            with bars:
                while generating or inflight or backlog:
                    # 1. take new samples while there is room
                    while len(inflight) < limit and (backlog or generating):
                        if backlog:
                            submit(backlog.pop(0))
                            continue
                        try:
                            item = handoff.get(timeout=0.05 if inflight else 0.2)
                        except queue.Empty:
                            break
                        if item is done:
                            generating = False
                            if failure:
                                raise failure[0]
                            break
                        rec = self._new_sample(item)
                        bars.generated()
                        submit(rec)
                    # 2. collect finished judge tasks
                    if inflight:
                        ready, _ = ray.wait(list(inflight), num_returns=1, timeout=0.2)
                        if ready:
                            rest = [r for r in inflight if r not in ready]
                            more, _ = ray.wait(rest, num_returns=len(rest), timeout=0) if rest else ([], [])
                            for ref in [*ready, *more]:
                                rec, attempt = inflight.pop(ref)
                                self._collect(ref, rec, attempt, submit, bars)
                    now = time.monotonic()
                    if self.on_progress and now - last_report >= 1.0:
                        last_report = now
                        self.on_progress(self.progress)
        except BaseException as exc:
            stop.set()
            # On Ctrl-C the judge workers got the same SIGINT; cancelling their tasks then trips a
            # Ray core check (abort). ray.shutdown ends them anyway.
            if not isinstance(exc, KeyboardInterrupt):
                for ref in inflight:
                    ray.cancel(ref, force=True)
            raise
        finally:
            stop.set()
            self.store.flush()
        if producer.is_alive():
            producer.join(timeout=5)

    def _prompt_record(self, task_id: str) -> dict:
        if task_id not in self._prompt_info:
            self._prompt_info[task_id] = self.prompt.record(self.by_id[task_id], self.language)
        return self._prompt_info[task_id]

    def _new_sample(self, c: Completion) -> SampleRecord:
        language = c.extra.get("language", self.language)
        if c.task_id in self.by_id:  # the prompt setting and the example shown, with the sample
            c.extra = {**c.extra, "prompt": self._prompt_record(c.task_id)}
        plan = self._current
        round_, parent, sid = 1, "", None
        if plan is not None and plan.round > 1:
            round_ = plan.round
            parent = plan.parents[(c.task_id, c.sample_index)]
            sid = self.planner.round_sample_id(parent, round_)
        rec = make_sample_record(c, self.keys, self.backend.name, language, self.reasoning_format,
                                 self.accept_untagged, self.planner.task_fp(c.task_id), round_=round_, parent_id=parent,
                                 sid=sid)
        self.store.add_sample(rec)
        self.progress.generated += 1
        if rec.error:
            self.progress.gen_failed += 1
        if rec.code is None:
            self.progress.no_code += 1
        return rec

    def _collect(self, ref: Any, rec: SampleRecord, attempt: int, submit: Callable, bars: Bars) -> None:
        import ray

        try:
            result, wall, node = ray.get(ref)
        except Exception as exc:  # noqa: BLE001 - a crashed judge is a judge error, never the model's
            result, wall, node = error_result(f"judge task failed: {type(exc).__name__}: {str(exc)[-800:]}"), 0.0, ""
        if result.verdict is Verdict.SE and attempt <= self.rejudge_se:
            log.warning("judge error on %s sample %d (%s); re-judging (attempt %d)", rec.task_id,
                        rec.sample_index, result.message, attempt + 1)
            submit(rec, attempt + 1)
            return
        if result.verdict is Verdict.SE:
            log.error("JUDGE ERROR on %s sample %d: %s", rec.task_id, rec.sample_index, result.message)
        self._record(rec, result, wall, attempt, node)
        bars.judged()

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
        out: dict[str, list[str]] = {t.problem_id: [] for t in self.tasks}
        for row in df.select("task_id", "sample_index", "verdict", "round").iter_rows(named=True):
            tid = row["task_id"]
            if (row["round"] or 1) > 1:
                continue
            if tid in out and (expected is None or row["sample_index"] < expected.get(tid, 0)):
                out[tid].append(row["verdict"])
        return out
