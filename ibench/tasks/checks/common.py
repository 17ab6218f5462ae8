"""Shared pieces of the checks: the problem collector and small JSON/type helpers."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterable, TypeGuard

from ..errors import Problem

# Interactive case names: three digits, 001-100 and 101-200 (SPEC §2).
CASE_NAME = re.compile(r"\d{3}")


class Collector:
    """Accumulates problems and warnings while one task folder is checked."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []

    def error(self, file: Path, field: str, message: str) -> None:
        self.problems.append(Problem(file, field, message))

    def warn(self, file: Path, field: str, message: str) -> None:
        self.warnings.append(Problem(file, field, message))


def read_json(path: Path, c: Collector, what: str) -> Any:
    """Parsed JSON, or None after recording why it could not be read."""
    if not path.is_file():
        c.error(path, "", f"missing; expected {what}")
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as e:
        c.error(path, "", f"not UTF-8 text ({e.reason}); expected a UTF-8 JSON file")
    except json.JSONDecodeError as e:
        c.error(path, "", f"invalid JSON at line {e.lineno} column {e.colno} ({e.msg}); expected {what}")
    return None


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def is_number(v: Any) -> TypeGuard[int | float]:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def natural_key(name: str) -> tuple:
    return tuple(int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name))


def choices(values: Iterable[str]) -> str:
    return ", ".join(str(v) for v in values)


def json_type(t: type) -> str:
    return {str: "string", int: "integer", float: "number", bool: "boolean", list: "array",
            dict: "object", type(None): "null"}.get(t, t.__name__)
