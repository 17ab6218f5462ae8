"""Builders for small task folders (valid by default; tests break them one file at a time).

A plain module, not a conftest, so that its name cannot clash with other test folders' helpers."""

from __future__ import annotations

import json
from pathlib import Path

DEFAULT_META = {
    "problem_id": None,  # filled with the folder name
    "interactor_mode": "non_adaptive",
    "cpu_time_limit_ms": 2000,
    "memory_limit_mb": 256,
    "difficulty": "Easy",
    "categorization": ["Search"],
}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def make_interactive(root: Path, *, mode: str = "non_adaptive", cases=("001", "002"), meta: dict | None = None,
                     kind: str | None = None) -> Path:
    m = dict(DEFAULT_META, problem_id=root.name, interactor_mode=mode)
    if kind:
        m["kind"] = kind
    m.update(meta or {})
    write(root / "meta.json", json.dumps({k: v for k, v in m.items() if v is not ...}))
    write(root / "desc.md", "# Guess\n\nProtocol: ...\n")
    if mode in ("non_adaptive", "both"):
        write(root / "interactor" / "non_adaptive.cpp", "// interactor\n")
    if mode in ("adaptive", "both"):
        write(root / "interactor" / "adaptive.cpp", "// interactor\n")
    for c in cases:
        write(root / "cases" / f"{c}.in", "10 3\n")
    write(root / "generator" / "gen_cases.cpp", "// gen\n")
    write(root / "generator" / "cases.txt", "".join(f"{c} {i + 1} --mode non\n" for i, c in enumerate(cases)))
    write(root / "solutions" / "ok.cpp", "int main(){}\n")
    write(root / "solutions" / "wa.cpp", "int main(){}\n")
    write(root / "solutions" / "expected.json", json.dumps({
        "ok.cpp": {"expected": "OK", "note": "reference"},
        "wa.cpp": {"expected": "WA"},
    }))
    if kind == "grader":
        write(root / "grader" / "stub.cpp", "int main(){}\n")
        write(root / "grader" / f"{root.name}.h", "#pragma once\n")
    return root


def make_batch(root: Path, *, tests=("01", "02", "03"), subtasks: dict | None = "default") -> Path:
    m = dict(DEFAULT_META, problem_id=root.name, kind="batch", categorization=["Math"])
    m.pop("interactor_mode")
    write(root / "meta.json", json.dumps(m))
    write(root / "desc.md", "# Sum\n")
    for t in tests:
        write(root / "tests" / f"{t}.in", "1\n")
        write(root / "tests" / f"{t}.out", "1\n")
    if subtasks == "default":
        subtasks = {"1": {"score": 40, "testcases": list(tests[:1])},
                    "2": {"score": 60, "testcases": list(tests), "grading": "min-score"}}
    if subtasks is not None:
        write(root / "subtasks.json", json.dumps(subtasks))
    write(root / "solutions" / "ok.cpp", "int main(){}\n")
    write(root / "solutions" / "partial.cpp", "int main(){}\n")
    write(root / "solutions" / "expected.json", json.dumps({
        "ok.cpp": {"expected": "OK", "score": 100},
        "partial.cpp": {"expected": "WA", "score": 40, "note": "subtask 1 only"},
    }))
    return root
