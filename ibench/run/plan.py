"""What each round of a run still needs, read from the store (resume is planning).

Round 1: every sample's first attempt not yet stored (or stored with a failed request, which is
retried), and every stored one not yet judged under the run's judge settings. A later round of
iterative refinement (``sampling.refine_rounds``): the next answer of each sample whose previous
round was judged and failed, its conversation continued with the judge's feedback.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ibench.generate.base import Backend, GenerationRequest, stable_seed
from ibench.generate.extract import split_reasoning
from ibench.generate.feedback import assistant_turn
from ibench.judge.verdict import Verdict
from ibench.run.keys import RunKeys, round_id, sample_id, spec_feedback_key, task_key
from ibench.results.records import sample_from_row
from ibench.results.store import RunStore, SampleRecord
from ibench.run.spec import RunSpec
from ibench.tasks.model import Task


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


class Planner:
    def __init__(self, spec: RunSpec, backend: Backend, tasks: list[Task], store: RunStore, keys: RunKeys,
                 regenerate_failed: bool = True) -> None:
        self.spec = spec
        self.backend = backend
        self.tasks = tasks
        self.by_id = {t.task_id: t for t in tasks}
        self.store = store
        self.sampling = spec.sampling
        self.prompt = spec.prompt
        self.language = spec.language
        self.keys = keys
        self.feedback = spec.feedback
        self.regenerate_failed = regenerate_failed
        self.reasoning_format = backend.reasoning_format
        self._feedback_fp = spec_feedback_key(spec)
        self._fps: dict[str, str] = {}

    def round_sample_id(self, parent_id: str, round_: int) -> str:
        return round_id(parent_id, round_, self.keys.judge_key, self._feedback_fp)

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
            expected[task.task_id] = n
            fp = self.task_fp(task.task_id)
            missing = []
            for i in range(n):
                sid = sample_id(self.keys.gen_key, task.task_id, i, fp)
                row = have.get(sid)
                if row is None or (self.regenerate_failed and row["error"]):
                    missing.append(i)
                    continue
                reused_s += 1
                if sid in judged:
                    reused_v += 1
                else:
                    to_judge.append(sample_from_row(row))
            if missing:
                requests.append(GenerationRequest(
                    task=task, messages=self.prompt.render(task, self.language), indices=missing,
                    seed=stable_seed(self.sampling.seed, task.task_id)))
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
            fp = self.task_fp(task.task_id)
            base: list[dict[str, str]] | None = None
            for i in range(n):
                sid = sample_id(self.keys.gen_key, task.task_id, i, fp)
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
                        sid = self.round_sample_id(sid, r + 1)
                if len(chain) != round_ - 1 or chain[-1][1]["verdict"] == Verdict.OK.value:
                    stopped += not chain
                    continue
                parent = chain[-1][0]["sample_id"]
                rid = self.round_sample_id(parent, round_)
                parents[(task.task_id, i)] = parent
                row = have.get(rid)
                if row is not None and not (self.regenerate_failed and row["error"]):
                    reused_s += 1
                    if rid in judged:
                        reused_v += 1
                    else:
                        to_judge.append(sample_from_row(row))
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
                    seed=stable_seed(self.sampling.seed, task.task_id, "round", round_)))
        return Plan(requests, to_judge, {}, reused_s, reused_v, round=round_, parents=parents, stopped=stopped)

    def task_fp(self, task_id: str) -> str:
        if task_id not in self._fps:
            self._fps[task_id] = task_key(self.backend, self.prompt, self.by_id[task_id], self.language)
        return self._fps[task_id]
