"""Language executors, one module each, behind the :class:`Executor` interface. Which languages
there are, and which module runs each, is ``ibench/languages.py``'s to say."""

from __future__ import annotations

import importlib
from pathlib import Path

from ibench.languages import ALIASES, LANGUAGES, lookup, of_path

from .base import CompileCache, CompiledExecutor, Executor, Program


def _load(path: str) -> type:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


# name -> executor class, in the registry's order
EXECUTORS: dict[str, type[CompiledExecutor]] = {name: _load(lang.executor) for name, lang in LANGUAGES.items()}


def executor_class(language: str) -> type[CompiledExecutor]:
    """The executor of a language's name or alias (any case); ValueError naming the ones there are."""
    return EXECUTORS[lookup(language).name]


def language_of(path: str | Path) -> str | None:
    """The executor language for a source file's extension (None if no executor takes it)."""
    lang = of_path(path)
    return lang.name if lang else None


__all__ = ["ALIASES", "CompileCache", "CompiledExecutor", "EXECUTORS", "Executor", "Program", "executor_class",
           "language_of"]
