"""What one judge replica does, without Ray: tasks loaded once, one :class:`~ibench.judge.Judge`
per setting (its compile memo, slot and supervisor stay warm), a submission judged and its reply
built (per-case verdicts, queries, CPU, memory, score, reward)."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from ibench.judge import Judge, JudgeSettings, SampleResult, Verdict
from ibench.judge.executors import executor_class
from ibench.judge.sandbox.run import default_cache_dir
from ibench.tasks.load import load_tasks
from ibench.tasks.model import Task

from .inline import InlineTaskError, inline_task
from .runcode import run_code
from .settings import RewardSettings, ServeSettings


INLINE_SEEN_MAX = 1024  # inline tasks remembered as sent (then forgotten all at once)


def _freeze(value):
    """A request's JSON value as a hashable one (dicts by sorted keys, lists as tuples); the
    type is kept beside each scalar, so 1, 1.0 and true stay apart as JSON has them."""
    if isinstance(value, dict):
        return ("{", tuple(sorted((k, _freeze(v)) for k, v in value.items())))
    if isinstance(value, list):
        return ("[", tuple(_freeze(v) for v in value))
    return (type(value).__name__, value)


class SubmissionError(ValueError):
    """A submission the service cannot judge (an unknown task, language): a 4xx, not a verdict."""


def max_score(task: Task) -> float | None:
    return sum(st.score for st in task.subtasks) if task.subtasks else None


def reward_for(result: SampleResult, task: Task, rs: RewardSettings) -> float | None:
    """The documented mapping: SE -> ``judge_error`` (null); a scored task -> score / max score
    (``use_score``); otherwise ``by_verdict[verdict]`` (0 for a verdict it does not list)."""
    if result.verdict is Verdict.SE:
        return rs.judge_error
    top = max_score(task)
    if rs.use_score and top and result.score is not None:
        return max(0.0, min(1.0, result.score / top))
    return float(rs.by_verdict.get(result.verdict.value, 0.0))


def reply(result: SampleResult, task: Task, rs: RewardSettings, sub_id: str | None, judge_ms: float,
          attempts: int = 1, stderr: bool = False) -> dict:
    cases = [{"case": c.case, "verdict": c.verdict.value, "cpu_ms": c.cpu_ms, "wall_ms": c.wall_ms,
              "peak_kb": c.peak_kb, "queries": c.queries, "query_limit": c.query_limit, "score": c.score,
              "message": c.message[:300], **({"stderr_tail": c.solver_stderr_tail} if stderr else {})}
             for c in result.cases]
    counted = [c for c in result.cases if c.queries is not None]
    queries = sum(c.queries or 0 for c in counted) if counted else None
    budgets = [c.query_limit for c in counted if c.query_limit is not None]
    ratios = [(c.queries or 0) / c.query_limit for c in counted if c.query_limit]
    comp = result.compile
    return {
        "id": sub_id, "task": task.task_id, "verdict": result.verdict.value, "message": result.message[:500],
        "reward": reward_for(result, task, rs), "score": result.score, "max_score": max_score(task),
        "cases": cases, "queries": queries, "query_limit": sum(budgets) if budgets else None,
        "max_query_ratio": round(max(ratios), 4) if ratios else None,
        "cpu_ms": round(sum(c.cpu_ms for c in result.cases), 3),
        "peak_kb": max((c.peak_kb for c in result.cases), default=0),
        "compile": {"ok": comp.ok, "ms": round(comp.ms, 1), "cached": comp.cached,
                    "message": "" if comp.ok else comp.message[-2000:]},
        "judge_ms": round(judge_ms, 1), "attempts": attempts,
    }


class JudgeCore:
    def __init__(self, settings: ServeSettings):
        self.settings = settings
        self.tasks: dict[str, Task] = {}
        if settings.tasks_dir:
            self.tasks = {t.task_id: t for t in load_tasks(settings.tasks_dir, ids=settings.task_ids)}
        self._judges: dict[tuple, Judge] = {}
        self.inline_dir = Path(settings.inline_dir) if settings.inline_dir else \
            default_cache_dir(settings.judge.cache_dir) / "inline"
        self._inline: dict[str, Task] = {}
        # an inline task as the request carried it -> its Task: a GRPO-style batch sends one task
        # with every rollout, and checking and hashing it each time was a fifth of a replica's
        # Python per submission. Equal frozen values are equal JSON, so they validate alike.
        self._inline_seen: dict[tuple, Task] = {}

    def judge_for(self, all_cases: bool, variant: str, cases: int | None) -> Judge:
        key = (all_cases, variant, cases)
        if key not in self._judges:
            s: JudgeSettings = dataclasses.replace(self.settings.judge, all_cases=all_cases, variant=variant)
            if cases is not None:
                s.non_adaptive_cases = s.adaptive_cases = cases
            self._judges[key] = Judge(s)
        return self._judges[key]

    def task(self, ref: str | dict) -> Task:
        if isinstance(ref, str):
            if ref not in self.tasks:
                known = ", ".join(sorted(self.tasks)[:20]) or "none"
                raise SubmissionError(f"unknown task {ref!r}; this service loaded: {known}"
                                      + (" ..." if len(self.tasks) > 20 else ""))
            return self.tasks[ref]
        seen = _freeze(ref)
        if seen in self._inline_seen:
            return self._inline_seen[seen]
        from pydantic import ValidationError

        from .inline import digest
        from .schema import InlineTask

        try:
            spec = InlineTask.model_validate(ref).model_dump()  # defaults filled: one digest per task
        except ValidationError as e:
            raise SubmissionError(f"inline task: {e}") from None
        key = digest(spec)
        if key not in self._inline:
            try:
                self._inline[key] = inline_task(spec, self.inline_dir, self.settings.allow_inline_programs)
            except InlineTaskError as e:
                raise SubmissionError(str(e)) from None
        if len(self._inline_seen) >= INLINE_SEEN_MAX:
            self._inline_seen.clear()
        self._inline_seen[seen] = self._inline[key]
        return self._inline[key]

    def check(self, sub: dict) -> None:
        """Refuse what cannot be judged before anything runs (the gateway answers it with 4xx)."""
        try:
            executor_class(sub.get("language") or "cpp")
        except ValueError:
            raise SubmissionError(f"language {sub.get('language')!r}: expected cpp, python, java or go") from None

    def judge(self, sub: dict, opts: dict) -> dict:
        """One submission: judged, and a judge error judged again (``rejudge_se`` times)."""
        self.check(sub)
        task = self.task(sub["task"])
        judge = self.judge_for(bool(opts.get("all_cases")), opts.get("variant") or "interactive", opts.get("cases"))
        t0 = time.perf_counter()
        attempts = 0
        while True:
            attempts += 1
            result = judge.judge(task, sub["source"], sub.get("language") or "cpp")
            if result.verdict is not Verdict.SE or attempts > self.settings.rejudge_se:
                break
        return reply(result, task, self.settings.reward, sub.get("id"), (time.perf_counter() - t0) * 1000, attempts,
                     bool(opts.get("stderr")))

    def run_code(self, req: dict) -> dict:
        return run_code(self.judge_for(False, "interactive", None), self.settings, req)
