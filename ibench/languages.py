"""The languages ibench judges: one :class:`Language` row each, the only list of them.

Everything that depends on the language reads it from here — the prompt's wording
(``{language}``, ``{flush}``, ``{fence}``), the fence tags code extraction accepts, the known
solutions' file extensions (task checks, the reference model), the SPEC §4 CPU-time factor, the
spellings ``bench.language`` accepts, and which executor the judge builds. This module imports
nothing else of ibench, so ``ibench.tasks``, ``ibench.generate`` and ``ibench.judge`` may all
stand on it; the executor is named by its import path and only the judge imports it.

Adding a language (docs/JUDGE.md, "Adding a language"): a row below, its executor file in
``ibench/judge/executors/``, and known solutions that show it works. The prompt's wording of an
existing language is part of every generation key: changing ``title``, ``flush`` or
``fence_tags[0]`` of a row re-keys (regenerates) every sample of that language.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath


@dataclass(frozen=True)
class Language:
    name: str  # the one spelling: bench.language, the executor's language, every result
    title: str  # how a prompt names it ({language})
    flush: str  # the prompt's flush idiom ({flush})
    fence_tags: tuple[str, ...]  # the fence info strings extraction accepts; the first is the one asked for
    extensions: tuple[str, ...]  # source files in this language (known solutions, the judge's CLI)
    time_factor: float  # SPEC §4 CPU-time factor: the task's limit times this
    aliases: tuple[str, ...]  # other spellings of bench.language and --language
    toolchain: str  # the judge setting that picks the toolchain (judge.<toolchain>); its identity keys the cache
    executor: str  # "module:Class" of the executor, imported by the judge only

    @property
    def fence(self) -> str:
        """The code-fence tag a prompt asks for and the reference model writes."""
        return self.fence_tags[0]


LANGUAGES: dict[str, Language] = {lang.name: lang for lang in (
    Language("cpp", "C++17", "`std::cout << std::flush` (or `std::endl`, or `fflush(stdout)` with printf)",
             fence_tags=("cpp", "c++", "cc", "cxx"), extensions=(".cpp", ".cc", ".cxx"), time_factor=1.0,
             aliases=("c++", "cxx", "cc", "c++17"), toolchain="compiler",
             executor="ibench.judge.executors.cpp:CppExecutor"),
    Language("python", "Python 3", "`print(..., flush=True)` or `sys.stdout.flush()`",
             fence_tags=("python", "python3", "py"), extensions=(".py",), time_factor=2.0,
             aliases=("py", "python3"), toolchain="python",
             executor="ibench.judge.executors.python:PythonExecutor"),
    Language("java", "Java", "`System.out.flush()` (call it after every query)",
             fence_tags=("java",), extensions=(".java",), time_factor=2.0,
             aliases=("java17",), toolchain="javac",
             executor="ibench.judge.executors.java:JavaExecutor"),
    Language("go", "Go", "`w.Flush()` on your `bufio.Writer` after every query",
             fence_tags=("go", "golang"), extensions=(".go",), time_factor=1.0,
             aliases=("golang",), toolchain="go",
             executor="ibench.judge.executors.go:GoExecutor"),
)}

# Derived views (never edited by hand): other spellings, and source extensions.
ALIASES: dict[str, str] = {alias: lang.name for lang in LANGUAGES.values() for alias in lang.aliases}
BY_EXTENSION: dict[str, str] = {ext: lang.name for lang in LANGUAGES.values() for ext in lang.extensions}


def lookup(spelling: str) -> Language:
    """The language of a spelling (its name or an alias, any case); :class:`ValueError` naming
    the languages there are."""
    key = ALIASES.get(spelling.lower(), spelling.lower())
    if key not in LANGUAGES:
        raise ValueError(f"language {spelling!r} is not supported; available: {', '.join(LANGUAGES)}")
    return LANGUAGES[key]


def of_path(path: str | PurePath) -> Language | None:
    """The language of a source file by its extension (None when no language takes it)."""
    name = BY_EXTENSION.get(PurePath(path).suffix)
    return LANGUAGES[name] if name else None
