"""Generation streaming into judging, on Ray (thin orchestration; no metrics, no I/O format).

A background thread drives the backend and hands over each completion as it arrives; the main
loop turns it into a :class:`~ibench.results.store.SampleRecord`, appends it to the store and submits
one Ray judge task for it (``num_cpus = pipeline.judge_cpus``), keeping at most
``pipeline.max_inflight`` judge tasks in flight — when judging falls behind, the hand-over
queue fills and generation waits. GPUs generate while CPUs judge.

The run is a loop of rounds. Round 1 is every sample's first attempt; with
``sampling.refine_rounds=K`` (iterative refinement, InteractBench C.2) each later round takes
the samples whose previous round failed, continues their conversation with the judge's feedback
(:mod:`ibench.generate.feedback`) and generates, judges and stores the revised answers — each
round a sample of its own, linked to its parent, under the same sample index.

Resume: every sample has a key (model identity, sampling, prompt wording, language → gen_key;
the task, the backend's and the prompt's per-task parts — a few-shot prompt's example — and the
sample index → sample_id; judge settings → judge_key; a later round: its parent, the round, the
judge settings and the feedback wording). Samples already in the store are not generated again;
samples already judged under the same judge settings are not judged again. A run stopped in
round r resumes in round r; raising ``refine_rounds`` on a finished run (``resume=PATH``) adds
rounds and regenerates nothing.
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
from ibench.generate.feedback import FeedbackSettings, assistant_turn
from ibench.generate.prompt import PromptTemplate
from ibench.judge.diagnostics import first_error_line
from ibench.judge.results import CompileInfo, SampleResult
from ibench.judge.settings import JudgeSettings
from ibench.judge.verdict import Verdict
from ibench.results.store import (CaseRecord, RunStore, SampleRecord, VerdictRecord, fingerprint, round_id,
                                  sample_id)
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
    # How many rounds a run goes to does not change any one round's sample: more rounds on a
    # finished run reuse the earlier ones (later rounds carry their own keys, see round_id).
    gen["sampling"].pop("refine_rounds", None)
    jud = asdict(judge)
    if jud.get("variant") == "interactive":
        jud.pop("variant")  # the interactive variant keys as it did before the setting existed
    return RunKeys(fingerprint(gen), fingerprint(jud), gen, jud)


# -- records ----------------------------------------------------------------------------------------
def make_sample_record(c: Completion, keys: RunKeys, model: str, language: str, reasoning_format: str = "think",
                       accept_untagged: bool = False, task_fp: str = "", round_: int = 1, parent_id: str = "",
                       sid: str | None = None) -> SampleRecord:
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
        sample_id=sid or sample_id(keys.gen_key, c.task_id, c.sample_index, task_fp), gen_key=keys.gen_key,
        task_id=c.task_id,
        sample_index=c.sample_index, model=model, language=language, prompt=c.prompt, response=c.response,
        reasoning=reasoning, code=code, extract_error="" if code else reason, prompt_tokens=c.prompt_tokens,
        completion_tokens=c.completion_tokens, reasoning_tokens=c.reasoning_tokens, finish_reason=c.finish_reason,
        seed=c.seed, latency_s=float(c.latency_s), error=c.error, source=c.source, attempts=c.attempts,
        created_at=time.time(), extra_json=json.dumps(extra, default=str), round=round_, parent_id=parent_id)


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
        judge_wall_s=wall_s, judge_attempts=attempts, node=node, judged_at=time.time(), round=rec.round or 1)
    return v, cases


def _record_of(row: dict) -> SampleRecord:
    rec = SampleRecord(**row)
    rec.round = rec.round or 1  # rows stored before rounds existed
    rec.parent_id = rec.parent_id or ""
    return rec


# The Ray judge task (one Judge per settings per worker process): ibench.cluster.judging.
from ibench.cluster.judging import judge_sample  # noqa: E402


# -- plan ---------------------------------------------------------------------------------------------
@dataclass
class Plan:
    """One round's work."""

    requests: list[GenerationRequest]  # what to generate
    to_judge: list[SampleRecord]  # stored samples still without a verdict (resume)
    expected: dict[str, int]  # task id -> samples the run must end with (round 1: its first attempts)
    reused_samples: int = 0
    reused_verdicts: int = 0
    round: int = 1
    parents: dict[tuple[str, int], str] = field(default_factory=dict)  # (task, index) -> parent sample (round > 1)
    stopped: int = 0  # samples whose chain ends before this round without a verdict to answer (SE, failed request)

    @property
    def n_generate(self) -> int:
        return sum(len(r.indices) for r in self.requests)

    @property
    def empty(self) -> bool:
        return not self.requests and not self.to_judge


@dataclass
class RunPlan:
    """What a run did, round by round (``expected`` is round 1's: pass@k counts first attempts)."""

    rounds: list[Plan]

    @property
    def expected(self) -> dict[str, int]:
        return self.rounds[0].expected

    @property
    def n_generate(self) -> int:
        return sum(p.n_generate for p in self.rounds)

    @property
    def reused_samples(self) -> int:
        return sum(p.reused_samples for p in self.rounds)

    @property
    def reused_verdicts(self) -> int:
        return sum(p.reused_verdicts for p in self.rounds)

    @property
    def requests(self) -> list[GenerationRequest]:
        return [r for p in self.rounds for r in p.requests]

    @property
    def to_judge(self) -> list[SampleRecord]:
        return [r for p in self.rounds for r in p.to_judge]


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

    def add(self, task_id: str, verdict: Verdict, round_: int = 1) -> None:
        self.judged += 1
        if verdict is Verdict.SE:
            self.judge_errors += 1
            return
        if round_ > 1:  # the running pass@1 is over first attempts, like the final one
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
        self.regenerate_failed = regenerate_failed
        self.accept_untagged = accept_untagged
        self.show_progress = progress
        self.on_progress = on_progress
        self.console = console
        self.keys = run_keys(backend, sampling, prompt, language, accept_untagged, judge)
        self.progress = Progress()
        self.reasoning_format = backend.reasoning_format
        self._fps: dict[str, str] = {}
        self._prompt_info: dict[str, dict] = {}
        self.feedback = feedback or FeedbackSettings()
        self.rounds = max(1, int(getattr(sampling, "refine_rounds", 1) or 1))
        self._feedback_fp = self.feedback.fingerprint()
        self._current: Plan | None = None
        self._backend_ready = False

    # -- planning ---------------------------------------------------------------------------------
    def _stored(self) -> tuple[dict[str, dict], dict[str, dict]]:
        """This run's stored samples and its verdicts that count (a stored judge error, SE, is
        not a verdict: resuming judges such samples again), by sample id."""
        samples = self.store.table("samples")
        verdicts = self.store.table("verdicts")
        have = {r["sample_id"]: r for r in samples.filter(samples["gen_key"] == self.keys.gen_key).iter_rows(named=True)}
        ok = (verdicts["judge_key"] == self.keys.judge_key) & (verdicts["verdict"] != Verdict.SE.value)
        judged = {r["sample_id"]: r for r in verdicts.filter(ok).select("sample_id", "verdict", "result_json")
                  .iter_rows(named=True)}
        return have, judged

    def plan(self, round_: int = 1) -> Plan:
        """Round 1: every missing first attempt. A later round: the next answer of each sample
        whose previous round was judged and failed (see :meth:`_plan_refinement`)."""
        have, judged = self._stored()
        if round_ > 1:
            return self._plan_refinement(round_, have, judged)
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
                    to_judge.append(_record_of(row))
            if missing:
                requests.append(GenerationRequest(
                    task=task, messages=self.prompt.render(task, self.language), indices=missing,
                    seed=stable_seed(self.sampling.seed, task.problem_id)))
        return Plan(requests, to_judge, expected, reused_s, reused_v)

    def _plan_refinement(self, round_: int, have: dict[str, dict], judged: dict[str, dict]) -> Plan:
        """Walk each sample's chain from its first attempt: a chain goes on to ``round_`` when its
        round ``round_ - 1`` was judged and failed. Its messages are the first prompt, then per
        earlier round the answer (reasoning left out) and the feedback on its verdict."""
        requests, to_judge = [], []
        parents: dict[tuple[str, int], str] = {}
        reused_s = reused_v = stopped = 0
        for task in self.tasks:
            n = self.backend.samples_per_task(task, self.sampling.n)
            fp = self._task_fp(task.problem_id)
            base: list[dict[str, str]] | None = None
            for i in range(n):
                sid = sample_id(self.keys.gen_key, task.problem_id, i, fp)
                chain: list[tuple[dict, dict]] = []
                for r in range(1, round_):
                    row, verdict = have.get(sid), judged.get(sid)
                    if row is None or verdict is None or row["error"]:
                        chain = []  # not judged (SE), or its request failed: nothing to answer
                        break
                    chain.append((row, verdict))
                    if verdict["verdict"] == Verdict.OK.value:
                        break
                    if r + 1 < round_:
                        sid = round_id(sid, r + 1, self.keys.judge_key, self._feedback_fp)
                if len(chain) != round_ - 1 or chain[-1][1]["verdict"] == Verdict.OK.value:
                    stopped += not chain
                    continue
                parent = chain[-1][0]["sample_id"]
                rid = round_id(parent, round_, self.keys.judge_key, self._feedback_fp)
                parents[(task.problem_id, i)] = parent
                row = have.get(rid)
                if row is not None and not (self.regenerate_failed and row["error"]):
                    reused_s += 1
                    if rid in judged:
                        reused_v += 1
                    else:
                        to_judge.append(_record_of(row))
                    continue
                if base is None:
                    base = self.prompt.render(task, self.language)
                messages = list(base)
                for r, (row, verdict) in enumerate(chain, start=1):
                    final = split_reasoning(row["response"] or "", self.reasoning_format)[1]
                    result = json.loads(verdict["result_json"] or "{}")
                    messages.append({"role": "assistant", "content": assistant_turn(final)})
                    messages.append({"role": "user", "content": self.feedback.render(
                        task, self.language, verdict["verdict"], result, r)})
                requests.append(GenerationRequest(
                    task=task, messages=messages, indices=[i], round=round_,
                    seed=stable_seed(self.sampling.seed, task.problem_id, "round", round_)))
        return Plan(requests, to_judge, {}, reused_s, reused_v, round=round_, parents=parents, stopped=stopped)

    # -- running ----------------------------------------------------------------------------------
    def run(self) -> RunPlan:
        """Every round in turn: plan it from the store, generate, judge, store. A round with
        nothing to do (every sample solved or stopped) ends the loop."""
        rounds: list[Plan] = []
        for round_ in range(1, self.rounds + 1):
            plan = self.plan(round_)
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
        self.progress.planned_expected += sum(plan.expected.values())
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
        bars = _Bars(self.show_progress, plan.n_generate, plan.n_generate + len(plan.to_judge), self.console,
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
        plan = self._current
        round_, parent, sid = 1, "", None
        if plan is not None and plan.round > 1:
            round_ = plan.round
            parent = plan.parents[(c.task_id, c.sample_index)]
            sid = round_id(parent, round_, self.keys.judge_key, self._feedback_fp)
        rec = make_sample_record(c, self.keys, self.backend.name, language, self.reasoning_format,
                                 self.accept_untagged, self._task_fp(c.task_id), round_=round_, parent_id=parent,
                                 sid=sid)
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


class _Bars:
    """Rich progress bars for generation and judging (no-ops when disabled)."""

    def __init__(self, enabled: bool, n_gen: int, n_judge: int, console: Any = None, suffix: str = "") -> None:
        self.enabled = enabled
        self.progress = None
        if enabled:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.progress = Progress(TextColumn("{task.description:>10}"), BarColumn(), MofNCompleteColumn(),
                                     TimeElapsedColumn(), console=console, transient=False)
            self.gen = self.progress.add_task("generate" + suffix, total=n_gen)
            self.jud = self.progress.add_task("judge" + suffix, total=n_judge)

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

