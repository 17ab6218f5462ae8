"""LiveOIBench column values as ibench task-card fields.

The release's columns are loosely typed: JSON held as strings (or already decoded, or bytes),
NaN for a missing number, limits whose unit must sometimes be guessed. These helpers turn one
value into what a task card holds, or None.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import re
from typing import Any

from . import ImportLog, normalize_categories, normalize_difficulty, positive_int

def is_null(v: Any) -> bool:
    """None or NaN (pyarrow gives NaN for a missing float)."""
    return v is None or (isinstance(v, float) and math.isnan(v))


def json_field(v: Any) -> Any:
    """A JSON column value: parsed when a string, as is otherwise (None for null/empty)."""
    if is_null(v):
        return None
    if isinstance(v, (bytes, bytearray)):
        v = v.decode("utf-8")
    if isinstance(v, str):
        v = v.strip()
        if not v:
            return None
        return json.loads(v)
    return v


def code_map(v: Any) -> dict[str, str]:
    """``grader_code`` / ``starter_code``: {filename: source} from JSON, a dict or a list of
    {filename|name, content|code} entries."""
    try:
        v = json_field(v)
    except json.JSONDecodeError:
        return {}
    if isinstance(v, dict):
        return {str(k): s for k, s in v.items() if isinstance(s, str) and s}
    if isinstance(v, list):
        out = {}
        for e in v:
            if isinstance(e, dict):
                name = e.get("filename") or e.get("name")
                src = e.get("content") or e.get("code")
                if isinstance(name, str) and isinstance(src, str) and src:
                    out[name] = src
        return out
    return {}


def difficulty_bucket(v: Any) -> tuple[str | None, float | None]:
    """(Easy|Medium|Hard, numeric d) from the LiveOIBench difficulty: the paper's quantile
    buckets, Easy d <= 17, Medium 17 < d < 23, Hard d >= 23; a label is taken as is."""
    if is_null(v):
        return None, None
    label = normalize_difficulty(v)
    if label:
        return label, None
    try:
        d = float(v)
    except (TypeError, ValueError):
        return None, None
    if math.isnan(d):
        return None, None
    return ("Easy" if d <= 17 else "Medium" if d < 23 else "Hard"), d


_ALGO_KEYWORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Data Structures", ("data structure", "segment tree", "fenwick", "binary indexed", "heap", "stack", "queue",
                         "union find", "union-find", "disjoint set", "dsu", "sparse table", "treap", "hash",
                         "priority queue", "linked list", "trie")),
    ("Graph", ("graph", "shortest path", "dfs", "bfs", "flow", "matching", "spanning", "lca", "topolog",
               "connectivity", "tree")),
    ("Search", ("search", "brute force", "backtracking", "two pointer", "meet in the middle", "enumeration")),
    ("Greedy", ("greedy",)),
    ("Bit", ("bit manipulation", "bitmask", "bitwise", "xor")),
    ("Math", ("math", "number theory", "combinatoric", "geometry", "probability", "modular", "matrix", "algebra",
              "arithmetic")),
    ("Game", ("game",)),
)


def map_algorithms(tags: list[str]) -> list[str]:
    """ibench categories for LiveOIBench algorithm tags, by keyword (a heuristic; the raw tags
    stay in ``algorithms``). "binary indexed tree" counts as a data structure, not a graph."""
    cats: list[str] = []
    for tag in tags:
        t = str(tag).lower()
        for cat, words in _ALGO_KEYWORDS:
            if cat == "Graph" and any(w in t for w in ("binary indexed", "segment tree", "fenwick")):
                continue
            if any(w in t for w in words) and cat not in cats:
                cats.append(cat)
    known, _ = normalize_categories(cats)
    return known


def parse_date(v: Any) -> str | None:
    """YYYY-MM-DD from a date, a datetime or a string that holds one; None otherwise."""
    if is_null(v):
        return None
    if isinstance(v, (_dt.datetime, _dt.date)):
        return v.strftime("%Y-%m-%d")
    m = re.search(r"(\d{4})-(\d{1,2})-(\d{1,2})", str(v))
    if m:
        try:
            return _dt.date(int(m[1]), int(m[2]), int(m[3])).isoformat()
        except ValueError:
            return None
    return None


def to_number(v: Any) -> float | None:
    """A float from a number or a numeric string; None for null, NaN, booleans and text."""
    if is_null(v) or isinstance(v, bool):
        return None
    try:
        f = float(str(v).strip()) if not isinstance(v, (int, float)) else float(v)
    except ValueError:
        return None
    return None if math.isnan(f) else f


def task_limits(row: dict, log: ImportLog, pid: str) -> tuple[int | None, int | None]:
    """(CPU time limit in ms, memory limit in MB) from ``time_limit`` (seconds) and
    ``memory_limit`` (MB); values that look like another unit are converted with a warning."""
    t = to_number(row.get("time_limit"))
    cpu = None
    if t is not None and t > 0:
        if t > 100:  # already milliseconds
            log.warn(pid, f"time_limit {t} looks like milliseconds, not seconds; taken as ms")
            cpu = positive_int(t)
        else:
            cpu = positive_int(t * 1000)
    m = to_number(row.get("memory_limit"))
    mem = None
    if m is not None and m > 0:
        if m >= 1 << 26:  # bytes
            log.warn(pid, f"memory_limit {m:g} looks like bytes, not MB; converted")
            mem = positive_int(m / (1 << 20))
        elif m > 1 << 16:  # kilobytes
            log.warn(pid, f"memory_limit {m:g} looks like KB, not MB; converted")
            mem = positive_int(m / 1024)
        else:
            mem = positive_int(m)
    return cpu, mem
