"""What a running evaluation shows: running counts (console, W&B), progress bars on a terminal,
and one log line at a time without one (Slurm logs)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ibench.judge.verdict import Verdict


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


class Bars:
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

    def __enter__(self) -> "Bars":
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


class ProgressLog:
    """Without a terminal (a Slurm log): one line every ``every_s`` seconds — generated, judged,
    running pass@1, ETA."""

    def __init__(self, console: Any, every_s: float) -> None:
        self.console, self.every_s = console, every_s
        self.started = time.monotonic()
        self.last = self.started

    def __call__(self, pr: Any, force: bool = False) -> None:
        now = time.monotonic()
        if not self.every_s or (not force and now - self.last < self.every_s):
            return
        self.last = now
        self.console.print(self.line(pr, now - self.started), markup=False, highlight=False, soft_wrap=True)

    @staticmethod
    def line(pr: Any, elapsed: float) -> str:
        total = pr.planned_judge
        p1 = pr.running_pass1()
        rate = pr.judged / elapsed if elapsed > 0 else 0.0
        left = max(0, total - pr.judged)
        eta = "—" if not rate else _duration(left / rate)
        return (f"progress: generated {pr.generated}/{pr.planned_generate}, judged {pr.judged}/{total}, "
                f"running pass@1 {'—' if p1 is None else f'{p1:.3f}'}, elapsed {_duration(elapsed)}, ETA {eta}")


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}h{m:02d}m{s:02d}s" if h else (f"{m}m{s:02d}s" if m else f"{s}s")
