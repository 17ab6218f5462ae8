"""Language executors, one module each, behind the :class:`Executor` interface."""

from __future__ import annotations

from pathlib import Path

from .base import CompileCache, Executor, Program
from .cpp import CppExecutor
from .go import GoExecutor
from .java import JavaExecutor
from .python import PythonExecutor

EXECUTORS: dict[str, type] = {"cpp": CppExecutor, "python": PythonExecutor, "java": JavaExecutor, "go": GoExecutor}
ALIASES = {"c++": "cpp", "cxx": "cpp", "cc": "cpp", "c++17": "cpp", "py": "python", "python3": "python",
           "golang": "go", "java17": "java"}


def executor_class(language: str) -> type:
    key = ALIASES.get(language.lower(), language.lower())
    if key not in EXECUTORS:
        raise ValueError(f"language {language!r} is not supported; available: {', '.join(EXECUTORS)}")
    return EXECUTORS[key]


def language_of(path: str | Path) -> str | None:
    """The executor language for a source file's extension (None if no executor takes it)."""
    suffix = Path(path).suffix
    return next((cls.language for cls in EXECUTORS.values() if suffix in cls.extensions), None)


__all__ = ["CompileCache", "CppExecutor", "Executor", "GoExecutor", "JavaExecutor", "Program", "PythonExecutor", "executor_class",
           "language_of", "EXECUTORS"]
