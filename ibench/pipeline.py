"""Generation streaming into judging, on Ray (thin orchestration; no metrics, no I/O format).

A background thread drives the backend and hands over each completion as it arrives; the main
loop turns it into a :class:`~ibench.results.store.SampleRecord`, appends it to the store and submits
one Ray judge task for it (``num_cpus = pipeline.judge_cpus``), keeping at most
``pipeline.max_inflight`` judge tasks in flight — when judging falls behind, the hand-over
queue fills and generation waits. GPUs generate while CPUs judge.

Resume: every sample has a key (model identity, sampling, prompt wording, language → gen_key;
the task, the backend's and the prompt's per-task parts — a few-shot prompt's example — and the
sample index → sample_id; judge settings → judge_key). Samples already in the store are not generated again; samples
already judged under the same judge settings are not judged again.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from ibench.generate.base import Backend, Completion, GenerationRequest, SamplingSettings, stable_seed
from ibench.generate.extract import NO_CODE, extract_code, split_reasoning
from ibench.generate.prompt import PromptTemplate
from ibench.judge.diagnostics import first_error_line
from ibench.judge.results import CompileInfo, SampleResult
from ibench.judge.settings import JudgeSettings
from ibench.judge.verdict import Verdict
from ibench.results.store import CaseRecord, RunStore, SampleRecord, VerdictRecord, fingerprint, sample_id
from ibench.tasks.model import Task

log = logging.getLogger(__name__)


# -- keys -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RunKeys:
    gen_key: str
    judge_key: str
    gen_identity: dict = field(hash=False, compare=False)
    judge_identity: dict = field(hash=False, compare=False)


def run_keys(backend: Backend, sampling: SamplingSettings, prompt: PromptTemplate, language: str,
             accept_untagged: bool, judge: JudgeSettings) -> RunKeys:
    gen = {"backend": backend.identity(), "sampling": asdict(sampling), "prompt": prompt.fingerprint(),
           "language": language, "accept_untagged": accept_untagged}
    gen["sampling"].pop("name", None)  # a preset's name is not what it does
    jud = asdict(judge)
    return RunKeys(fingerprint(gen), fingerprint(jud), gen, jud)


# -- records ----------------------------------------------------------------------------------------
def make_sample_record(c: Completion, keys: RunKeys, model: str, language: str, reasoning_format: str = "think",
                       accept_untagged: bool = False, task_fp: str = "") -> SampleRecord:
    reasoning, final = split_reasoning(c.response, reasoning_format)
    if c.reasoning:
        reasoning = c.reasoning if not reasoning else c.reasoning + "\n" + reasoning
    ext = extract_code(final, language, accept_untagged) if not c.error else None
    code = ext.code if ext else None
    reason = (ext.reason if ext else NO_CODE)
    extra = dict(c.extra)
    if ext is not None:
        extra["code_blocks"] = ext.blocks
    return SampleRecord(
        sample_id=sample_id(keys.gen_key, c.task_id, c.sample_index, task_fp), gen_key=keys.gen_key, task_id=c.task_id,
        sample_index=c.sample_index, model=model, language=language, prompt=c.prompt, response=c.response,
        reasoning=reasoning, code=code, extract_error="" if code else reason, prompt_tokens=c.prompt_tokens,
        completion_tokens=c.completion_tokens, reasoning_tokens=c.reasoning_tokens, finish_reason=c.finish_reason,
        seed=c.seed, latency_s=float(c.latency_s), error=c.error, source=c.source, attempts=c.attempts,
        created_at=time.time(), extra_json=json.dumps(extra, default=str))


def no_code_result(rec: SampleRecord) -> SampleResult:
    """SPEC §4: a sample without code counts, as a failure: CE with the reason "no code block"."""
    reason = NO_CODE if not rec.error else f"{NO_CODE} (generation failed: {rec.error})"
    return SampleResult(verdict=Verdict.CE, cases=[], compile=CompileInfo(ok=False, ms=0.0, cached=False,
                        message=reason), sandbox="", message=reason)


def error_result(message: str) -> SampleResult:
    return SampleResult(verdict=Verdict.SE, cases=[], compile=CompileInfo(ok=False, ms=0.0, cached=False),
                        sandbox="", message=message, warnings=[message])


def verdict_rows(rec: SampleRecord, result: SampleResult, judge_key: str, wall_s: float, attempts: int,
                 node: str) -> tuple[VerdictRecord, list[CaseRecord]]:
    full = result.to_dict(full=True)
    message = result.message
    if result.verdict is Verdict.CE and result.compile.message and rec.code is not None:
        message = first_error_line(result.compile.message)  # the first error, not the last line
    cases = [CaseRecord.from_case(rec.sample_id, judge_key, rec.task_id, rec.sample_index, c)
             for c in full.get("cases", [])]
    v = VerdictRecord(
        sample_id=rec.sample_id, judge_key=judge_key, gen_key=rec.gen_key, task_id=rec.task_id,
        sample_index=rec.sample_index, model=rec.model, verdict=result.verdict.value, score=result.score,
        message=message, compile_ok=bool(result.compile.ok), compile_ms=float(result.compile.ms),
        compile_cached=bool(result.compile.cached), sandbox=result.sandbox, n_cases=len(result.cases),
        n_failed_cases=sum(1 for c in result.cases if c.verdict is not Verdict.OK),
        warnings_json=json.dumps(result.warnings), result_json=json.dumps(full, default=str),
        judge_wall_s=wall_s, judge_attempts=attempts, node=node, judged_at=time.time())
    return v, cases


# The Ray judge task (one Judge per settings per worker process): ibench.cluster.judging.
from ibench.cluster.judging import judge_sample  # noqa: E402


# -- plan ---------------------------------------------------------------------------------------------
@dataclass
class Plan:
    requests: list[GenerationRequest]  # what to generate
    to_judge: list[SampleRecord]  # stored samples still without a verdict (resume)
    expected: dict[str, int]  # task id -> samples the run must end with
    reused_samples: int = 0
    reused_verdicts: int = 0

    @property
    def n_generate(self) -> int:
        return sum(len(r.indices) for r in self.requests)


@dataclass
class Progress:
    """Running counts (console progress bars and W&B while the run goes)."""

    generated: int = 0
    judged: int = 0
    accepted: int = 0
    judge_errors: int = 0
    no_code: int = 0
    gen_failed: int = 0
    per_task: dict[str, list[int]] = field(default_factory=dict)  # task -> [accepted, counted]
    planned_generate: int = 0  # samples this run generates
    planned_judge: int = 0  # samples this run judges (generated now + stored without a verdict)
    planned_expected: int = 0  # samples the run ends with (reused ones included)

    def add(self, task_id: str, verdict: Verdict) -> None:
        self.judged += 1
        if verdict is Verdict.SE:
            self.judge_errors += 1
            return
        c_n = self.per_task.setdefault(task_id, [0, 0])
        c_n[1] += 1
        if verdict is Verdict.OK:
            self.accepted += 1
            c_n[0] += 1

    def running_pass1(self) -> float | None:
        rates = [c / n for c, n in self.per_task.values() if n]
        return sum(rates) / len(rates) if rates else None

    def as_log(self) -> dict[str, Any]:
        return {"progress/generated": self.generated, "progress/judged": self.judged,
                "progress/accepted": self.accepted, "progress/judge_errors": self.judge_errors,
                "progress/no_code": self.no_code, "progress/generation_failed": self.gen_failed,
                "progress/pass@1": self.running_pass1()}


class Pipeline:
    def __init__(self, backend: Backend, tasks: list[Task], store: RunStore, sampling: SamplingSettings,
                 prompt: PromptTemplate, judge: JudgeSettings, language: str = "cpp", judge_cpus: float = 1.0,
                 max_inflight: int = 0, task_retries: int = 2, rejudge_se: int = 1,
                 regenerate_failed: bool = True, accept_untagged: bool = False, progress: bool = True,
                 on_progress: Callable[[Progress], None] | None = None, console: Any = None) -> None:
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
        self.regenerate_failed = regenerate_failed
        self.accept_untagged = accept_untagged
        self.show_progress = progress
        self.on_progress = on_progress
        self.console = console
        self.keys = run_keys(backend, sampling, prompt, language, accept_untagged, judge)
        self.progress = Progress()
        self.reasoning_format = getattr(backend, "reasoning_format", "think")
        self._fps: dict[str, str] = {}
        self._prompt_info: dict[str, dict] = {}

    # -- planning ---------------------------------------------------------------------------------
    def plan(self) -> Plan:
        samples = self.store.table("samples")
        verdicts = self.store.table("verdicts")
        have = {r["sample_id"]: r for r in samples.filter(samples["gen_key"] == self.keys.gen_key).iter_rows(named=True)}
        # A stored judge error (SE) is not a verdict: resuming judges such samples again.
        ok = (verdicts["judge_key"] == self.keys.judge_key) & (verdicts["verdict"] != Verdict.SE.value)
        judged = set(verdicts.filter(ok)["sample_id"].to_list())
        requests, to_judge, expected = [], [], {}
        reused_s = reused_v = 0
        for task in self.tasks:
            n = self.backend.samples_per_task(task, self.sampling.n)
            expected[task.problem_id] = n
            fp = self._task_fp(task.problem_id)
            missing = []
            for i in range(n):
                sid = sample_id(self.keys.gen_key, task.problem_id, i, fp)
                row = have.get(sid)
                if row is None or (self.regenerate_failed and row["error"]):
                    missing.append(i)
                    continue
                reused_s += 1
                if sid in judged:
                    reused_v += 1
                else:
                    to_judge.append(SampleRecord(**row))
            if missing:
                requests.append(GenerationRequest(
                    task=task, messages=self.prompt.render(task, self.language), indices=missing,
                    seed=stable_seed(self.sampling.seed, task.problem_id)))
        return Plan(requests, to_judge, expected, reused_s, reused_v)

    # -- running ----------------------------------------------------------------------------------
    def run(self) -> Plan:
        import ray

        plan = self.plan()
        self.progress.planned_generate = plan.n_generate
        self.progress.planned_judge = plan.n_generate + len(plan.to_judge)
        self.progress.planned_expected = sum(plan.expected.values())
        log.info("plan: generate %d sample(s), judge %d stored one(s); reuse %d sample(s), %d verdict(s)",
                 plan.n_generate, len(plan.to_judge), plan.reused_samples, plan.reused_verdicts)
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
        bars = _Bars(self.show_progress, plan.n_generate, plan.n_generate + len(plan.to_judge), self.console)

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
            self.backend.setup(self.sampling)
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
        if self.on_progress:
            self.on_progress(self.progress)
        return plan

    def _task_fp(self, task_id: str) -> str:
        # The backend's per-task part (the reference model's solution files) and the prompt's
        # (a few-shot prompt's example): either changing re-keys that task's samples.
        if task_id not in self._fps:
            task = self.by_id[task_id]
            parts = [self.backend.task_fingerprint(task), self.prompt.task_fingerprint(task, self.language)]
            self._fps[task_id] = parts[0] if not parts[1] else "+".join(parts)
        return self._fps[task_id]

    def _prompt_record(self, task_id: str) -> dict:
        if task_id not in self._prompt_info:
            self._prompt_info[task_id] = self.prompt.record(self.by_id[task_id], self.language)
        return self._prompt_info[task_id]

    def _new_sample(self, c: Completion) -> SampleRecord:
        language = c.extra.get("language", self.language)
        if c.task_id in self.by_id:  # the prompt setting and the example shown, with the sample
            c.extra = {**c.extra, "prompt": self._prompt_record(c.task_id)}
        rec = make_sample_record(c, self.keys, self.backend.name, language, self.reasoning_format,
                                 self.accept_untagged, self._task_fp(c.task_id))
        self.store.add_sample(rec)
        self.progress.generated += 1
        if rec.error:
            self.progress.gen_failed += 1
        if rec.code is None:
            self.progress.no_code += 1
        return rec

    def _collect(self, ref: Any, rec: SampleRecord, attempt: int, submit: Callable, bars: "_Bars") -> None:
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
        self.progress.add(rec.task_id, result.verdict)

    # -- results ----------------------------------------------------------------------------------
    def verdicts_by_task(self, expected: dict[str, int] | None = None) -> dict[str, list[str]]:
        """Each task's verdict labels for this run's keys (samples beyond the plan are ignored)."""
        df = self.store.table("verdicts")
        df = df.filter((df["gen_key"] == self.keys.gen_key) & (df["judge_key"] == self.keys.judge_key))
        out: dict[str, list[str]] = {t.problem_id: [] for t in self.tasks}
        for row in df.select("task_id", "sample_index", "verdict").iter_rows(named=True):
            tid = row["task_id"]
            if tid in out and (expected is None or row["sample_index"] < expected.get(tid, 0)):
                out[tid].append(row["verdict"])
        return out


class _Bars:
    """Rich progress bars for generation and judging (no-ops when disabled)."""

    def __init__(self, enabled: bool, n_gen: int, n_judge: int, console: Any = None) -> None:
        self.enabled = enabled
        self.progress = None
        if enabled:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.progress = Progress(TextColumn("{task.description:>10}"), BarColumn(), MofNCompleteColumn(),
                                     TimeElapsedColumn(), console=console, transient=False)
            self.gen = self.progress.add_task("generate", total=n_gen)
            self.jud = self.progress.add_task("judge", total=n_judge)

    def __enter__(self) -> "_Bars":
        if self.progress:
            self.progress.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.progress:
            self.progress.stop()

    def generated(self) -> None:
        if self.progress:
            self.progress.advance(self.gen)

    def judged(self) -> None:
        if self.progress:
            self.progress.advance(self.jud)

