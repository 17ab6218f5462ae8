"""The contest data model: a contest, its problems and its human results (LiveOIBench).

What the LiveOIBench importer writes to ``<benchmark root>/contests.json``
(:func:`write_contests`) and the contest scorer (:mod:`ibench.results.contest`) reads back
(:func:`load_contests`): both stand on these frozen dataclasses, so the file has one shape.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

MEDALS: tuple[str, ...] = ("Gold", "Silver", "Bronze")
CONTESTS_FILE = "contests.json"


@dataclass(frozen=True)
class Contestant:
    """One row of a contest's human ranking. ``scores`` maps the ranking's task column to points."""

    name: str
    total: float | None
    scores: Mapping[str, float | None] = field(default_factory=dict)
    rank: int | None = None
    country: str | None = None
    medal: str | None = None
    cf_rating: float | None = None


@dataclass(frozen=True)
class ContestInfo:
    """A contest with its official cut-offs and human results.

    ``problems``: every task of the contest (problem ids); ``held``: those the benchmark holds
    (the tasks a model is scored on); ``task_columns``: problem id -> column of the human
    ranking with that task's points (absent when none matched); ``max_scores``: problem id ->
    points available (sum of its subtask scores).
    """

    contest_id: str
    competition: str = ""
    date: str | None = None
    division: str | None = None
    gold_cutoff: float | None = None
    silver_cutoff: float | None = None
    bronze_cutoff: float | None = None
    num_contestants: int | None = None
    problems: tuple[str, ...] = ()
    held: tuple[str, ...] = ()
    task_columns: Mapping[str, str] = field(default_factory=dict)
    max_scores: Mapping[str, float] = field(default_factory=dict)
    contestants: tuple[Contestant, ...] = ()

    @property
    def complete(self) -> bool:
        """True when the benchmark holds every task of the contest."""
        return set(self.problems) <= set(self.held)

    @property
    def cutoffs(self) -> tuple[tuple[str, float], ...]:
        out = []
        for name, value in zip(MEDALS, (self.gold_cutoff, self.silver_cutoff, self.bronze_cutoff)):
            if value is not None:
                out.append((name, float(value)))
        return tuple(out)

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> "ContestInfo":
        contestants = tuple(
            Contestant(
                name=str(c.get("name", "")),
                total=as_float(c.get("total")),
                scores={str(k): as_float(v) for k, v in (c.get("scores") or {}).items()},
                rank=as_int(c.get("rank")),
                country=c.get("country"),
                medal=c.get("medal"),
                cf_rating=as_float(c.get("cf_rating")),
            )
            for c in d.get("contestants") or ()
        )
        return ContestInfo(
            contest_id=str(d["contest_id"]),
            competition=str(d.get("competition") or ""),
            date=d.get("date"),
            division=None if d.get("division") is None else str(d.get("division")),
            gold_cutoff=as_float(d.get("gold_cutoff")),
            silver_cutoff=as_float(d.get("silver_cutoff")),
            bronze_cutoff=as_float(d.get("bronze_cutoff")),
            num_contestants=as_int(d.get("num_contestants")),
            problems=tuple(d.get("problems") or ()),
            held=tuple(d.get("held") or ()),
            task_columns=dict(d.get("task_columns") or {}),
            max_scores={k: float(v) for k, v in (d.get("max_scores") or {}).items()},
            contestants=contestants,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "contest_id": self.contest_id,
            "competition": self.competition,
            "date": self.date,
            "division": self.division,
            "gold_cutoff": self.gold_cutoff,
            "silver_cutoff": self.silver_cutoff,
            "bronze_cutoff": self.bronze_cutoff,
            "num_contestants": self.num_contestants,
            "problems": list(self.problems),
            "held": list(self.held),
            "task_columns": dict(self.task_columns),
            "max_scores": dict(self.max_scores),
            "contestants": [
                {
                    "rank": c.rank,
                    "name": c.name,
                    "country": c.country,
                    "total": c.total,
                    "medal": c.medal,
                    "cf_rating": c.cf_rating,
                    "scores": dict(c.scores),
                }
                for c in self.contestants
            ],
        }


def load_contests(root: str | Path) -> dict[str, ContestInfo]:
    """Contests of an imported benchmark: ``root/contests.json`` (or that file itself)."""
    path = Path(root)
    if path.is_dir():
        path = path / CONTESTS_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    items = data["contests"] if isinstance(data, dict) else data
    out = {}
    for item in items:
        info = ContestInfo.from_dict(item)
        out[info.contest_id] = info
    return out


def write_contests(path: str | Path, contests: Iterable[ContestInfo], source: str = "") -> None:
    """Write contests in the shape :func:`load_contests` reads (stable order, no timestamps)."""
    items = sorted(contests, key=lambda c: c.contest_id)
    payload = {"source": source, "contests": [c.to_dict() for c in items]}
    Path(path).write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def normalize_name(value: str) -> str:
    """Lower-case alphanumerics only: how task names are matched with ranking columns."""
    return re.sub(r"[^a-z0-9]", "", str(value).lower())


def as_float(v: Any) -> float | None:
    """A number from a JSON or ranking cell (numbers, numeric text); None for none, NaN or text."""
    if v is None or isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return None if isinstance(v, float) and math.isnan(v) else float(v)
    try:
        f = float(str(v).strip())
    except ValueError:
        return None
    return None if math.isnan(f) else f


def as_int(v: Any) -> int | None:
    """:func:`as_float`, truncated to an int."""
    f = as_float(v)
    return None if f is None else int(f)
