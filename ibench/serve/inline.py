"""Inline tasks: a task carried in a request becomes a task folder, written once per content
(its digest names it) and loaded by the same loader as every bundled task, so it is checked the
same way (a bad card, a missing interactor are the loader's precise errors)."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

from ibench.tasks.load import load_task
from ibench.tasks.model import Task


class InlineTaskError(ValueError):
    """The request's inline task is refused (a program where none is allowed, a bad folder)."""


def digest(spec: dict) -> str:
    return hashlib.sha256(json.dumps(spec, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:20]


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _materialise(spec: dict, root: Path) -> None:
    """Write the folder under a temporary name and rename it into place: a replica beside this
    one never loads a half-written folder."""
    kind = spec["kind"]
    meta = {"problem_id": root.name, "kind": kind, "cpu_time_limit_ms": spec["cpu_time_limit_ms"],
            "memory_limit_mb": spec["memory_limit_mb"], "difficulty": "Easy", "categorization": ["Math"],
            "source": "inline (ibench.serve)"}
    tmp = Path(tempfile.mkdtemp(prefix=f".{root.name}.", dir=root.parent))
    _write(tmp / "desc.md", "Inline task (no statement).\n")
    if kind == "interactive":
        meta["interactor_mode"] = "non_adaptive"
        _write(tmp / "interactor" / "non_adaptive.cpp", spec["interactor"])
        for i, c in enumerate(spec["cases"], 1):
            _write(tmp / "cases" / f"{i:03d}.in", c["input"])
    else:
        if spec.get("checker"):
            _write(tmp / "checker" / "checker.cpp", spec["checker"])
        for i, c in enumerate(spec["cases"], 1):
            _write(tmp / "tests" / f"{i:03d}.in", c["input"])
            _write(tmp / "tests" / f"{i:03d}.out", c.get("output") or "")
    _write(tmp / "meta.json", json.dumps(meta, indent=1))
    try:
        os.rename(tmp, root)
    except OSError:  # another replica put it there first: the same content
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)


def inline_task(spec: dict, base: Path, allow_programs: bool) -> Task:
    """The task an inline spec describes (``schema.InlineTask`` as a dict)."""
    kind = spec.get("kind", "batch")
    if kind == "interactive" and not spec.get("interactor"):
        raise InlineTaskError("an inline interactive task needs its interactor's source")
    if kind == "batch" and any(c.get("output") is None for c in spec["cases"]) and not spec.get("checker"):
        raise InlineTaskError("every case of an inline batch task needs its expected output")
    if (spec.get("interactor") or spec.get("checker")) and not allow_programs:
        raise InlineTaskError("this service does not run programs sent with a task (an interactor or checker runs "
                              "outside the solver's box): refer to a loaded task by id, or start the service with "
                              "serve.allow_inline_programs=true for trusted clients")
    root = base / f"inline-{digest(spec)}"
    if not (root / "meta.json").is_file():
        base.mkdir(parents=True, exist_ok=True)
        _materialise(spec, root)
    try:
        return load_task(root)
    except Exception as e:  # the loader's own account of what is wrong
        raise InlineTaskError(f"inline task: {e}") from None
