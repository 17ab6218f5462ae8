"""Synthetic run folders for the analyses' tests, written with the store's own writers
(:class:`~ibench.results.store.RunStore`) and the summary of :func:`~ibench.results.metrics.summarize`:
a reasoning-budget sweep and a seed sweep over bundled tasks, each sample's code one of the
task's known solutions (accepted ones for accepted samples), with tokens, generation seconds and
per-case CPU times drawn from a seeded generator. The numbers mean nothing; their shape is a
real run's."""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from ibench.results.metrics import summarize
from ibench.results.store import CaseRecord, RunStore, SampleRecord, VerdictRecord
from ibench.tasks.load import load_task

REPO = Path(__file__).resolve().parents[2]
TASKS = REPO / "tasks"
# two tasks with subtasks (positions), the rest plain interactive
TASK_IDS = ("distinct-in-range", "increasing-partition", "guess-the-number", "sort-the-boxes", "kth-of-two-sorted",
            "tree-hide-and-seek")


@dataclass
class Sample:
    task_id: str
    index: int
    verdict: str
    completion_tokens: int | None
    latency_s: float
    cpu_ms: list[float]
    code: str
    source: str = ""
    reasoning_tokens: int | None = None
    prompt_tokens: int | None = 800
    score: float | None = None
    subtask_scores: dict[str, float] = field(default_factory=dict)
    seed: int | None = None
    case_names: list[str] | None = None  # default 001, 002, ... (the task's own names where a test needs them)


def write_run(run_dir: Path, samples: Sequence[Sample], *, model: str = "synth", sampling: dict[str, Any] | None = None,
              overrides: Sequence[str] = (), tasks_dir: Path = TASKS, language: str = "cpp") -> Path:
    """A finished run folder: results/ (samples, verdicts, cases) and summary.json."""
    sampling = {"name": "synth", "n": 1, "temperature": 0.8, "seed": 0, "reasoning_budget": None, **(sampling or {})}
    gen_key, judge_key = f"g-{run_dir.name}", f"j-{run_dir.name}"
    run_dir.mkdir(parents=True, exist_ok=True)
    with RunStore(run_dir / "results") as store:
        for s in samples:
            sid = f"{run_dir.name}-{s.task_id}-{s.index}"
            store.add_sample(SampleRecord(
                sample_id=sid, gen_key=gen_key, task_id=s.task_id, sample_index=s.index, model=model,
                language=language, prompt="[]", response=f"```cpp\n{s.code}\n```", reasoning="", code=s.code,
                extract_error="", prompt_tokens=s.prompt_tokens, completion_tokens=s.completion_tokens,
                reasoning_tokens=s.reasoning_tokens, finish_reason="stop", seed=s.seed, latency_s=s.latency_s,
                error="", source=s.source, attempts=1, created_at=0.0))
            names = s.case_names or [f"{i + 1:03d}" for i in range(len(s.cpu_ms))]
            cases = [{"case": names[i], "verdict": "OK" if s.verdict == "OK" or i < len(s.cpu_ms) - 1 else s.verdict,
                      "cpu_ms": ms, "wall_ms": ms * 1.2} for i, ms in enumerate(s.cpu_ms)]
            result = {"verdict": s.verdict, "score": s.score, "cases": cases, "subtask_scores": s.subtask_scores,
                      "compile": {"ok": s.verdict != "CE", "ms": 200.0}, "sandbox": "synth", "warnings": [],
                      "message": ""}
            store.add_verdict(
                VerdictRecord(sample_id=sid, judge_key=judge_key, gen_key=gen_key, task_id=s.task_id,
                              sample_index=s.index, model=model, verdict=s.verdict, score=s.score, message="",
                              compile_ok=True, compile_ms=200.0, compile_cached=False, sandbox="synth",
                              n_cases=len(cases), n_failed_cases=int(s.verdict != "OK"), warnings_json="[]",
                              result_json=json.dumps(result), judge_wall_s=sum(s.cpu_ms) / 1000 + 0.2,
                              judge_attempts=1, node="synth", judged_at=0.0),
                [CaseRecord.from_case(sid, judge_key, s.task_id, s.index, c) for c in cases])
    tasks = [load_task(tasks_dir / t) for t in dict.fromkeys(s.task_id for s in samples)]
    by_task: dict[str, list[str]] = {}
    for s in samples:
        by_task.setdefault(s.task_id, []).append(s.verdict)
    summary = summarize(model, tasks, by_task, ks=(1, 2), bootstrap=200).to_dict()
    summary["meta"] = {"gen_key": gen_key, "judge_key": judge_key, "tasks_dir": str(tasks_dir),
                       "identity": {"model": model, "label": model, "sampling": sampling, "language": language,
                                    "prompt": "zero_shot", "variant": "interactive", "overrides": list(overrides)}}
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1))
    return run_dir


def draw_samples(rng: random.Random, skill: float, n: int, budget: int, task_ids: Sequence[str] = TASK_IDS,
                 tasks_dir: Path = TASKS) -> list[Sample]:
    """``n`` samples per task; a sample is accepted with probability ``skill`` less the task's
    hardness, its tokens about ``budget`` x U(0.3, 1)."""
    out = []
    for j, tid in enumerate(task_ids):
        task = load_task(tasks_dir / tid)
        good = [s for s in task.solutions if s.expected == "OK" and s.path.suffix == ".cpp" and s.variant == "interactive"]
        bad = [s for s in task.solutions if s.expected != "OK" and s.path.suffix == ".cpp"]
        subtasks = [(st.id, st.score) for st in task.subtasks]
        limit = float(task.cpu_time_limit_ms)
        for i in range(n):
            ok = rng.random() < max(0.02, skill - 0.12 * j)
            sol = rng.choice(good if ok else bad)
            earned: dict[str, float] = {}
            if subtasks:  # earlier subtasks are easier: each earned with falling probability
                earned = {sid: (sc if ok or rng.random() < 0.8 - 0.3 * p else 0.0) for p, (sid, sc) in enumerate(subtasks)}
            verdict = "OK" if ok else sol.expected if sol.expected in ("WA", "PE", "QLE", "TLE", "RE") else "WA"
            names = [c.name for c in task.cases]  # the task's own cases: subtasks name them
            cpu = [rng.uniform(0.01, 0.3) * limit for _ in names]
            if rng.random() < 0.5:  # now and then one slow case
                cpu[rng.randrange(len(cpu))] = rng.uniform(0.3, 0.95) * limit
            tokens = int(budget * rng.uniform(0.3, 1.0))
            out.append(Sample(task_id=tid, index=i, verdict=verdict, completion_tokens=tokens,
                              reasoning_tokens=int(tokens * 0.8), latency_s=tokens / 900.0, cpu_ms=cpu, case_names=names,
                              code=sol.path.read_text(), source=sol.path.name,
                              score=sum(earned.values()) if subtasks else None, subtask_scores=earned))
    return out


def budget_sweep(root: Path, budgets: Sequence[int] = (1024, 4096, 16384), n: int = 4, seed: int = 0) -> list[Path]:
    """One run per reasoning budget; the larger the budget, the more tokens and passes."""
    rng = random.Random(seed)
    return [write_run(root / f"budget_{b}", draw_samples(rng, 0.35 + 0.12 * math.log2(b / budgets[0]) / 2, n, b),
                      sampling={"n": n, "reasoning_budget": b}, overrides=[f"sampling.reasoning_budget={b}"])
            for b in budgets]


def seed_sweep(root: Path, seeds: Sequence[int] = (0, 1, 2), n: int = 2) -> list[Path]:
    """One run per sampling seed of the same settings."""
    return [write_run(root / f"seed_{s}", draw_samples(random.Random(100 + s), 0.6, n, 4096),
                      sampling={"n": n, "seed": s, "reasoning_budget": 4096}, overrides=[f"sampling.seed={s}"])
            for s in seeds]
