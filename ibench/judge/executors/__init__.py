"""Language executors, one module each, behind the :class:`Executor` interface."""

from __future__ import annotations

from .base import CompileCache, Executor, Program
from .cpp import CppExecutor

EXECUTORS: dict[str, type] = {"cpp": CppExecutor}
ALIASES = {"c++": "cpp", "cxx": "cpp", "cc": "cpp", "c++17": "cpp"}


def executor_class(language: str) -> type:
    key = ALIASES.get(language.lower(), language.lower())
    if key not in EXECUTORS:
        raise ValueError(f"language {language!r} is not supported; available: {', '.join(EXECUTORS)}")
    return EXECUTORS[key]


__all__ = ["CompileCache", "CppExecutor", "Executor", "Program", "executor_class", "EXECUTORS"]
