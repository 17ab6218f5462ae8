"""Importers that turn published benchmark releases into ibench task folders.

* :mod:`.interactbench` — InteractBench's ``problems.jsonl`` / ``ioi.jsonl`` / ``*.tar.zst``.
* :mod:`.liveoibench` — LiveOIBench's problem, test and contest parquet files.

Both write the layout of ``docs/CONVENTIONS.md`` and share the helpers here: a warning log
printed as a summary table, a staging area that makes a re-run over an existing output folder
idempotent (each task is built aside, then swapped in whole, so nothing stale survives; a
``solutions/`` folder added by hand is kept), and the normalisation of task-card fields.

Folders the loader must not see (tasks ibench cannot judge yet, records that could not be
imported) go under ``_``-prefixed folders of the output, which the loader skips.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ibench.tasks.model import CATEGORIES, DIFFICULTIES

STAGING_DIR = ".ibench-import"  # under the output folder; hidden, so the loader skips it
UNSUPPORTED_DIR = "_unsupported"  # imported for reference, not judgeable by ibench yet
REJECTED_DIR = "_rejected"  # records that could not be turned into a task
KEEP_ON_REIMPORT = ("solutions",)  # hand-added folders a re-import keeps


@dataclass
class ImportLog:
    """Warnings and counts of one import run."""

    source: str
    warnings: list[tuple[str, str]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)  # run figures (memory), not part of the summary file

    def warn(self, task: str, message: str) -> None:
        self.warnings.append((task, message))

    def count(self, key: str, n: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + n

    def note(self, message: str) -> None:
        self.notes.append(message)

    def render(self) -> str:
        """The summary: counts, notes, then one table row per warning."""
        lines = [f"{self.source} import summary"]
        for key in sorted(self.counts):
            lines.append(f"  {key}: {self.counts[key]}")
        for n in self.notes:
            lines.append(f"  {n}")
        if self.warnings:
            width = min(max(len(t) for t, _ in self.warnings), 48)
            lines.append("")
            lines.append(f"  {'task':<{width}}  warning")
            lines.append(f"  {'-' * width}  {'-' * 7}")
            for task, msg in self.warnings:
                lines.append(f"  {task:<{width}}  {msg}")
            lines.append(f"  {len(self.warnings)} warning(s)")
        else:
            lines.append("  no warnings")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "counts": dict(sorted(self.counts.items())),
                "notes": list(self.notes), "warnings": [list(w) for w in self.warnings]}


def write_json(path: Path, payload: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)


_UNSAFE = re.compile(r"[^A-Za-z0-9._+=-]")


def safe_name(name: str) -> str:
    """A file/folder name for ``name``: path separators and unusual characters become ``_``."""
    out = _UNSAFE.sub("_", str(name).strip())
    if out in ("", ".", ".."):
        out = "_" + out.replace(".", "_")
    if out.startswith("."):
        out = "_" + out[1:]
    return out


class Staging:
    """Builds task folders aside (``<out>/.ibench-import/<name>``) and swaps them in whole.

    ``commit(name, dest)`` replaces ``<out>/<dest>/<name>`` (``dest`` "" for the benchmark
    root) with the staged folder, moving over any hand-added ``solutions/`` of the folder it
    replaces, and removes a previous import of the same task from the other destinations, so
    a task that moved (e.g. became supported) does not linger in two places.
    """

    DESTS = ("", UNSUPPORTED_DIR, REJECTED_DIR)

    def __init__(self, out: Path):
        self.out = Path(out)
        self.root = self.out / STAGING_DIR
        if self.root.exists():
            shutil.rmtree(self.root)
        self.root.mkdir(parents=True)

    def path(self, name: str) -> Path:
        p = self.root / name
        p.mkdir(parents=True, exist_ok=True)
        return p

    def discard(self, name: str) -> None:
        p = self.root / name
        if p.exists():
            shutil.rmtree(p)

    def commit(self, name: str, dest: str = "") -> Path:
        staged = self.root / name
        target = self.out / dest / name if dest else self.out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        for other in self.DESTS:
            old = self.out / other / name if other else self.out / name
            if not old.exists():
                continue
            for keep in KEEP_ON_REIMPORT:
                if (old / keep).exists() and not (staged / keep).exists():
                    shutil.move(str(old / keep), str(staged / keep))
            shutil.rmtree(old)
        os.replace(staged, target)
        return target

    def close(self) -> None:
        if self.root.exists():
            shutil.rmtree(self.root)


# --------------------------------------------------------------------------------------------
# Task-card normalisation


def normalize_difficulty(value: Any) -> str | None:
    """``Easy``/``Medium``/``Hard`` from any casing; None when it is none of them."""
    if isinstance(value, str):
        lookup = {d.lower(): d for d in DIFFICULTIES}
        return lookup.get(value.strip().lower())
    return None


_CATEGORY_LOOKUP = {c.lower(): c for c in CATEGORIES}
_CATEGORY_LOOKUP.update({"graphs": "Graph", "data structure": "Data Structures", "datastructures": "Data Structures",
                         "bits": "Bit", "bit manipulation": "Bit", "games": "Game", "mathematics": "Math"})


def normalize_categories(values: Any) -> tuple[list[str], list[str]]:
    """(ibench categories, unknown labels) from a list (or a JSON / comma-separated string)."""
    if values is None:
        return [], []
    if isinstance(values, str):
        text = values.strip()
        if text.startswith("["):
            try:
                values = json.loads(text)
            except json.JSONDecodeError:
                values = [v for v in text.strip("[]").split(",")]
        else:
            values = [v for v in text.split(",")] if text else []
    if not isinstance(values, (list, tuple)):
        return [], [str(values)]
    known: list[str] = []
    unknown: list[str] = []
    for v in values:
        key = str(v).strip().strip("'\"").lower()
        if not key:
            continue
        cat = _CATEGORY_LOOKUP.get(key)
        if cat is None:
            unknown.append(str(v).strip())
        elif cat not in known:
            known.append(cat)
    return known, unknown


def positive_int(value: Any) -> int | None:
    """A positive integer from an int, an integral float or a numeric string; else None."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return None
    if isinstance(value, (int, float)):
        if value != value or value <= 0:  # NaN or non-positive
            return None
        return int(round(value))
    return None


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MiB (``getrusage``)."""
    ru = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return ru / (1024 * 1024) if sys.platform == "darwin" else ru / 1024


def probe_imported(out: "Path", log: ImportLog, jobs: int = 1) -> None:
    """``--probe`` on import: Category B mutants of every imported task that ships an accepted C++
    solution; each task's card gets ``probe.category_b`` = pass | fail, and the log counts them."""
    import json
    from pathlib import Path

    from ..load import load_tasks
    from ..probe.run import dump_card, probe_tasks

    tasks = load_tasks(Path(out))
    for probe, task in zip(probe_tasks(tasks, jobs=jobs, categories="B"), tasks):
        if probe.b_compliant is None:
            log.count("probe: not probed (no accepted C++ solution or no stdio protocol)")
            continue
        status = "pass" if probe.b_compliant else "fail"
        log.count(f"probe: Category B {status}")
        if status == "fail":
            bad = [r.kind + " got " + r.label for r in probe.records if r.category == "B" and r.status != "compliant"]
            log.warn(task.task_id, "interactor fails Category B: " + ", ".join(sorted(set(bad))))
        path = task.root / "meta.json"
        meta = json.loads(path.read_text(encoding="utf-8"))
        meta.setdefault("probe", {})["category_b"] = status
        path.write_text(dump_card(meta), encoding="utf-8")
