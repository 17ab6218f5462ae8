"""meta.json (the task card) and desc.md (the statement)."""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..model import CATEGORIES, DIFFICULTIES, InteractorMode, TaskKind
from .common import Collector, choices, is_int, json_type, read_json

# Written into desc.md by `python -m ibench.tasks new`; its presence means an unedited statement.
SCAFFOLD_MARK = "Template written by `python -m ibench.tasks new"
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")

# Optional task-card fields and the JSON types they must have (CONVENTIONS "meta.json").
_OPTIONAL_META: dict[str, tuple[type, ...]] = {
    "title": (str,),
    "source": (str,),
    "date": (str,),
    "multi_test": (bool,),
    "budget_reply": (str, int),
}


@dataclass
class Meta:
    raw: dict[str, Any]
    task_id: str
    kind: TaskKind | None
    mode: InteractorMode | None
    cpu_ms: int | None
    memory_mb: int | None
    difficulty: str | None
    categories: tuple[str, ...] | None
    date: _dt.date | None = None


def check_meta(root: Path, c: Collector) -> Meta:
    path = root / "meta.json"
    raw = read_json(path, c, "the task card (problem_id, interactor_mode, limits, difficulty, categorization)")
    meta = Meta({}, root.name, None, None, None, None, None, None)
    if raw is None:
        return meta
    if not isinstance(raw, dict):
        c.error(path, "", f"top level is a JSON {json_type(type(raw))}; expected an object")
        return meta
    meta.raw = raw

    # problem_id: the published release leaves it to the folder name (SPEC §2).
    pid = raw.get("problem_id")
    if isinstance(pid, int) and not isinstance(pid, bool):
        pid = str(pid)  # numeric ids, as some releases write them
    if pid is not None:
        if not isinstance(pid, str) or not pid.strip():
            c.error(path, "problem_id", f"{pid!r} is not a non-empty string; expected the task id (the folder name)")
        else:
            if pid != root.name:
                # Judging one task copied under another name must still work; two folders
                # claiming one id are caught when a folder of tasks is loaded.
                c.warn(path, "problem_id", f"{pid!r} differs from the folder name {root.name!r}; "
                                           f"results are keyed by {pid!r}")
            meta.task_id = pid

    kind_raw = raw.get("kind", TaskKind.INTERACTIVE.value)
    try:
        meta.kind = TaskKind(kind_raw)
    except ValueError:
        c.error(path, "kind", f"{kind_raw!r} is not a task kind; expected one of {choices(k.value for k in TaskKind)}")

    mode_raw = raw.get("interactor_mode")
    if meta.kind is TaskKind.BATCH:
        if mode_raw is not None:
            c.warn(path, "interactor_mode", "ignored for kind 'batch' (batch tasks have no interactor)")
    elif mode_raw is None:
        c.error(path, "interactor_mode", f"missing; expected one of {choices(m.value for m in InteractorMode)}")
    else:
        try:
            meta.mode = InteractorMode(mode_raw)
        except ValueError:
            c.error(path, "interactor_mode",
                    f"{mode_raw!r} is not an interactor mode; expected one of {choices(m.value for m in InteractorMode)}")

    meta.cpu_ms = _positive_int(raw, "cpu_time_limit_ms", path, c)
    meta.memory_mb = _positive_int(raw, "memory_limit_mb", path, c)

    diff = raw.get("difficulty")
    if diff is None:
        c.error(path, "difficulty", f"missing; expected one of {choices(DIFFICULTIES)}")
    elif diff not in DIFFICULTIES:
        c.error(path, "difficulty", f"{diff!r} is not a difficulty; expected one of {choices(DIFFICULTIES)}")
    else:
        meta.difficulty = diff

    meta.categories = _check_categories(raw, path, c)

    for key, types in _OPTIONAL_META.items():
        if key in raw and not isinstance(raw[key], types):
            names = " or ".join(json_type(t) for t in types)
            c.error(path, key, f"{raw[key]!r} is a JSON {json_type(type(raw[key]))}; expected a {names}")
    if "probe" in raw:
        # The protocol facts Category B mutants are built from (ibench/tasks/probe/facts.py).
        from ..probe.facts import FactError, parse_facts

        try:
            parse_facts(raw["probe"])
        except FactError as e:
            c.error(path, e.field, e.message)
    date = raw.get("date")
    if isinstance(date, str):
        if _valid_date(date):
            meta.date = _dt.date.fromisoformat(date)
        else:
            c.error(path, "date", f"{date!r} is not a date; expected the release date as YYYY-MM-DD "
                                  "(e.g. \"2023-04-17\")")
    return meta


def _valid_date(text: str) -> bool:
    if not _DATE.fullmatch(text):
        return False
    try:
        _dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _positive_int(raw: dict, key: str, path: Path, c: Collector) -> int | None:
    v = raw.get(key)
    if v is None:
        c.error(path, key, "missing; expected a positive integer")
    elif not is_int(v) or v <= 0:
        c.error(path, key, f"{v!r} is not a positive integer; expected a positive integer")
    else:
        return v
    return None


def _check_categories(raw: dict, path: Path, c: Collector) -> tuple[str, ...] | None:
    # The published release spells the key `cate`; accept either, but not two that disagree.
    keys = [k for k in ("categorization", "cate") if k in raw]
    if not keys:
        c.error(path, "categorization", f"missing; expected a list drawn from {choices(CATEGORIES)} (key 'categorization' or 'cate')")
        return None
    if len(keys) == 2 and raw["categorization"] != raw["cate"]:
        c.error(path, "cate", "disagrees with 'categorization'; expected only one of the two keys, or equal values")
        return None
    key = keys[0]
    value = raw[key]
    if not isinstance(value, list):
        c.error(path, key, f"{value!r} is not a list; expected a list drawn from {choices(CATEGORIES)}")
        return None
    ok = True
    for i, item in enumerate(value):
        if item not in CATEGORIES:
            c.error(path, f"{key}[{i}]", f"{item!r} is not a category; expected one of {choices(CATEGORIES)}")
            ok = False
    if len(set(map(str, value))) != len(value):
        c.warn(path, key, "lists a category more than once")
    if not value:
        c.warn(path, key, "is empty: the task counts in no category of the stratified tables")
    return tuple(dict.fromkeys(value)) if ok else None


def check_statement(root: Path, c: Collector) -> None:
    path = root / "desc.md"
    if not path.is_file():
        c.error(path, "", "missing; expected the statement with the exact protocol, limits and query budget")
        return
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        c.error(path, "", f"not UTF-8 text ({e.reason}); expected a UTF-8 Markdown statement")
        return
    if not text.strip():
        c.error(path, "", "is empty; expected the statement with the exact protocol, limits and query budget")
    elif SCAFFOLD_MARK in text:
        # The model is shown this file verbatim: a leftover authoring note would leak into prompts.
        c.warn(path, "", "still holds the scaffold's template comment; replace the example statement and remove it")
