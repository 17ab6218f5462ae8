"""Agreement of ibench's verdicts with the verdicts a package's authors filed their submissions
under (imported ICPC / Kattis and Polygon tasks): the confusion matrix (the authors' tag × the
ibench verdict), the agreement rate, and every disagreement with its case and figures.

Printed by ``python -m ibench.tasks validate`` whenever a validated task has tagged solutions,
and written as CSV: ``agreement.csv`` (one row per submission) and ``confusion.csv``.
"""

from __future__ import annotations

import csv
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from ibench.judge.verdict import SEVERITY

if TYPE_CHECKING:
    from .validate import TaskValidation

TAG_ORDER = ("accepted", "main", "slow_accepted", "wrong_answer", "wrong-answer", "presentation-error",
             "time_limit_exceeded", "time-limit-exceeded", "run_time_error", "memory_limit_exceeded",
             "memory-limit-exceeded", "rejected")


@dataclass(frozen=True)
class Judged:
    task: str
    solution: str
    tag: str
    expected: str  # the labels that agree, "|"-joined
    got: str
    agrees: bool
    figures: str
    detail: str


@dataclass
class Agreement:
    rows: list[Judged]

    @property
    def matrix(self) -> Counter:
        return Counter((r.tag, r.got) for r in self.rows)

    @property
    def rate(self) -> float:
        return sum(r.agrees for r in self.rows) / len(self.rows) if self.rows else float("nan")

    @property
    def disagreements(self) -> list[Judged]:
        return [r for r in self.rows if not r.agrees]

    def tags(self) -> list[str]:
        seen = {r.tag for r in self.rows}
        known = [t for t in TAG_ORDER if t in seen]
        return known + sorted(seen - set(known))

    def verdicts(self) -> list[str]:
        seen = {r.got for r in self.rows}
        known = [v.value for v in reversed(SEVERITY) if v.value in seen]  # OK first
        return known + sorted(seen - set(known))


def collect(results: Sequence["TaskValidation"]) -> Agreement:
    rows = [Judged(res.task, r.item, r.tag, r.expected, r.got, bool(r.ok), r.figures, r.detail)
            for res in results for r in res.rows if r.tag]
    return Agreement(rows)


def render(a: Agreement) -> str:
    tags, verdicts = a.tags(), a.verdicts()
    corner = "tag \\ ibench"
    width = max([len(corner)] + [len(t) for t in tags])
    lines = ["agreement with the packages' own verdicts (rows: the authors' tag; columns: ibench's verdict)",
             f"  {corner:<{width}}  " + "  ".join(f"{v:>5}" for v in verdicts) + "  total"]
    m = a.matrix
    for t in tags:
        counts = [m.get((t, v), 0) for v in verdicts]
        lines.append(f"  {t:<{width}}  " + "  ".join(f"{c:>5}" for c in counts) + f"  {sum(counts):>5}")
    agree = len(a.rows) - len(a.disagreements)
    lines.append(f"  agreement: {agree} of {len(a.rows)} submissions ({100 * a.rate:.1f}%)")
    for r in a.disagreements:
        lines.append(f"  DISAGREE {r.task}/{r.solution}: tag {r.tag} (expects {r.expected}), ibench {r.got}; "
                     f"{r.figures or '-'}; {r.detail[:200]}")
    return "\n".join(lines)


def write_csv(a: Agreement, folder: Path) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    per = folder / "agreement.csv"
    with open(per, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["task", "solution", "tag", "expected", "ibench", "agrees", "figures", "detail"])
        for r in a.rows:
            w.writerow([r.task, r.solution, r.tag, r.expected, r.got, int(r.agrees), r.figures, r.detail])
    conf = folder / "confusion.csv"
    verdicts = a.verdicts()
    with open(conf, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["tag", *verdicts, "total"])
        m = a.matrix
        for t in a.tags():
            counts = [m.get((t, v), 0) for v in verdicts]
            w.writerow([t, *counts, sum(counts)])
    return per, conf
