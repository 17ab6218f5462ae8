"""What the ICPC/Kattis and the Polygon importers share: opening a package (a folder or a zip,
unpacked member by member), the one-package-at-a-time driver with the importers' report, and
the mapping of a package's tagged submissions to known solutions with their expected verdict
*sets*: the labels of ibench that agree with the verdict the authors filed a submission under.

The mapping is explicit where the two judges name one outcome differently (docs/IMPORT.md):
a wall-clock timeout is IDLE here and TLE there; a memory kill is MLE here and a run-time error
in older packages; testlib's presentation error is PE here and WA on Codeforces and in ICPC.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from ibench.languages import BY_EXTENSION

from . import REJECTED_DIR, UNSUPPORTED_DIR, ImportLog, Staging, safe_name, write_json, write_text

FAILURES = ("WA", "PE", "QLE", "IDLE", "TLE", "MLE", "RE", "CE")

# ICPC / Kattis submissions/<folder>/ (the legacy and the 2023-07 package formats)
ICPC_FOLDERS: dict[str, tuple[str, ...]] = {
    "accepted": ("OK",),
    "wrong_answer": ("WA", "PE"),
    "time_limit_exceeded": ("TLE", "IDLE"),
    "run_time_error": ("RE", "MLE"),
    "memory_limit_exceeded": ("MLE", "RE"),
    "output_limit_exceeded": ("RE",),
    "compile_error": ("CE",),
    "rejected": FAILURES,
    "partially_accepted": ("OK",) + FAILURES,  # scoring: below full points, accepted (partial score.txt) or not
    "slow_accepted": ("OK", "TLE", "IDLE"),  # problemtools: accepted, but may run past the limit's margin
}

# DOMjudge's @EXPECTED_RESULTS@ line in a submission's source
EXPECTED_RESULTS: dict[str, tuple[str, ...]] = {
    "CORRECT": ("OK",),
    "WRONG_ANSWER": ("WA", "PE"),
    "NO_OUTPUT": ("WA", "PE"),
    "TIMELIMIT": ("TLE", "IDLE"),
    "RUN_ERROR": ("RE", "MLE"),
    "MEMORY_LIMIT": ("MLE", "RE"),
    "OUTPUT_LIMIT": ("RE",),
    "COMPILER_ERROR": ("CE",),
}
_EXPECTED_LINE = re.compile(r"@EXPECTED_RESULTS@\s*:?\s*([A-Za-z_,\s-]+)")

# Polygon problem.xml <solution tag="...">
POLYGON_TAGS: dict[str, tuple[str, ...]] = {
    "main": ("OK",),
    "accepted": ("OK",),
    "wrong-answer": ("WA", "PE"),
    "presentation-error": ("PE", "WA"),
    "time-limit-exceeded": ("TLE", "IDLE"),
    "time-limit-exceeded-or-accepted": ("TLE", "IDLE", "OK"),
    "time-limit-exceeded-or-memory-limit-exceeded": ("TLE", "IDLE", "MLE"),
    "memory-limit-exceeded": ("MLE",),
    "rejected": FAILURES,
}
SOURCE_ALIASES = {".c++": ".cpp", ".cxx": ".cpp", ".cc": ".cpp", ".py3": ".py"}


class PackageError(ValueError):
    """The package cannot become a task (its folder goes under ``_rejected/``)."""


class Unsupported(ValueError):
    """A package ibench cannot judge (kept under ``_unsupported/`` with the reason)."""


def expected_results(source: str) -> tuple[str, ...] | None:
    """The labels a source's ``@EXPECTED_RESULTS@:`` line allows, or None without one."""
    m = _EXPECTED_LINE.search(source)
    if not m:
        return None
    out: list[str] = []
    for word in re.split(r"[,\s]+", m.group(1).strip()):
        key = word.upper().replace("-", "_")
        if key in EXPECTED_RESULTS:
            out.extend(EXPECTED_RESULTS[key])
    return tuple(dict.fromkeys(out)) or None


@dataclass
class Submission:
    source: Path  # one source file
    tag: str  # the package's name for its expectation
    accepts: tuple[str, ...]
    note: str = ""
    name: str = ""  # the solution's name when not its source's (a submission folder's)


class SolutionWriter:
    """Copies submissions into ``task/solutions/`` with one expected.json entry each."""

    def __init__(self, task_dir: Path, log: ImportLog, task_id: str):
        self.dir = task_dir / "solutions"
        self.entries: dict[str, dict] = {}
        self.log, self.task_id = log, task_id

    def add(self, sub: Submission, score: float | None = None) -> bool:
        suffix = SOURCE_ALIASES.get(sub.source.suffix, sub.source.suffix)
        if suffix not in BY_EXTENSION:
            self.log.warn(self.task_id, f"submission {sub.tag}/{sub.source.name}: language not judged by ibench; skipped")
            self.log.count("submissions skipped (language)")
            return False
        try:
            text = sub.source.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError) as e:
            self.log.warn(self.task_id, f"submission {sub.source.name}: unreadable ({e}); skipped")
            return False
        if suffix == ".py" and _python2(sub.source.name, text):
            self.log.warn(self.task_id, f"submission {sub.tag}/{sub.source.name}: Python 2 (ibench runs Python 3); skipped")
            self.log.count("submissions skipped (language)")
            return False
        accepts, tag = sub.accepts, sub.tag
        override = expected_results(text)
        if override is not None:
            accepts, tag = override, f"{sub.tag} @EXPECTED_RESULTS@"
        folder = sub.tag.split(" ")[0]  # a tag may say where its expectation came from
        stem = sub.name or sub.source.stem
        name = safe_name(f"{folder}-{stem}") + suffix
        n = 2
        while name in self.entries:
            name = safe_name(f"{folder}-{stem}-{n}") + suffix
            n += 1
        write_text(self.dir / name, text)
        entry: dict = {"expected": accepts[0] if len(accepts) == 1 else list(accepts), "tag": tag}
        if sub.note:
            entry["note"] = sub.note
        if score is not None and accepts == ("OK",):
            entry["score"] = score
        self.entries[name] = entry
        self.log.count("submissions imported")
        return True

    def close(self) -> None:
        if self.entries:
            write_json(self.dir / "expected.json", dict(sorted(self.entries.items())))
        else:
            self.log.warn(self.task_id, "no submission ibench can judge: validate has nothing to compare")


_PY2_PRINT = re.compile(r"^\s*print\s+[^\s(=]", re.M)


def _python2(name: str, text: str) -> bool:
    """A Python 2 source by its name (``*py2*``) or a print statement."""
    return "py2" in name.lower() or "python2" in text.split("\n", 1)[0] or bool(_PY2_PRINT.search(text))


# Files of a submission folder that are sources of some language (judged by ibench or not): a
# folder with two of them is a program of several files; anything else (.txt, data) is not compiled.
# (the judged languages' own extensions come from ibench/languages.py; these are the others)
SOURCE_SUFFIXES = frozenset({*BY_EXTENSION, *SOURCE_ALIASES, ".c", ".h", ".hpp", ".hh", ".kt", ".py3", ".py2",
                             ".rs", ".cs", ".sh", ".js", ".rb", ".hs", ".ml", ".scala"})
_PY_IMPORT = re.compile(r"^\s*(?:from\s+\.?(\w+)|import\s+(\w+))", re.M)


@dataclass
class FolderSource:
    """What a submission folder becomes: its one source (``source``, with a ``note`` naming the
    files left out), or None with the ``reason`` it cannot be judged as one file."""

    source: Path | None
    note: str = ""
    reason: str = ""
    language: bool = False  # not judged for its language (not kept aside: nothing to build)


def submission_source(entry: Path, entrypoint: str | None = None) -> FolderSource:
    """A submission given as a file, or a folder. A folder is judged by its one source file: its
    other files must not be sources (a .txt beside a .cpp is not compiled), or, for Python, be
    modules its entry (submissions.yaml's ``entrypoint``, else ``main.py``, else the only ``.py``
with a main guard) does not import.
    Several sources of a compiled language (C++ .cpp/.h, Java classes) are a program ibench's
    known solutions (one file each) cannot hold: None with the reason."""
    if entry.is_file():
        return FolderSource(entry)
    files = sorted(p for p in entry.rglob("*") if p.is_file() and not p.name.startswith("."))
    if len(files) == 1:
        return FolderSource(files[0])
    sources = [p for p in files if p.suffix in SOURCE_SUFFIXES]
    others = [p.name for p in files if p not in sources]
    if len(sources) == 1:
        note = f"the folder's other files ({', '.join(others)}) are not sources; judged without them" if others else ""
        return FolderSource(sources[0], note)
    names = ", ".join(p.relative_to(entry).as_posix() for p in sources)
    if not any(SOURCE_ALIASES.get(p.suffix, p.suffix) in BY_EXTENSION for p in sources):
        listed = names or ", ".join(p.name for p in files)
        return FolderSource(None, reason=f"no source in a language ibench judges ({listed})", language=True)
    if all(p.suffix in (".py", ".py3") for p in sources):
        named = [p for p in sources if p.name == (entrypoint or "main.py")] or \
            [p for p in sources if p.name == "main.py"]
        entry_file = named[0] if named else None
        if entry_file is None:
            guarded = [p for p in sources if "__main__" in p.read_text(encoding="utf-8", errors="replace")]
            entry_file = guarded[0] if len(guarded) == 1 else None
        if entry_file is None:
            return FolderSource(None, reason=f"Python sources {names} and no entry point (main.py)")
        modules = {p.stem for p in sources if p != entry_file}
        text = entry_file.read_text(encoding="utf-8", errors="replace")
        used = sorted({m for pair in _PY_IMPORT.findall(text) for m in pair if m} & modules)
        if used:
            return FolderSource(None, reason=f"Python program of several modules ({names}): {entry_file.name} imports "
                                             f"{', '.join(used)}; the judge runs one file per sample")
        left = ", ".join(p.name for p in files if p != entry_file)
        return FolderSource(entry_file, f"{entry_file.name} is the entry point and imports none of the folder's "
                                        f"other files ({left}); judged without them")
    return FolderSource(None, reason=f"several source files ({names}): a program of several files, which the judge "
                                     "cannot build from one known solution (one source file per sample)")


SUBMISSIONS_DIR = "_submissions"  # OUT/_unsupported/_submissions/<task>/: submissions ibench cannot judge
_PENDING = ".unsupported-submissions"  # inside a staged task until the import moves it there


def keep_unsupported_submissions(task_dir: Path, items: list[tuple[str, Path, str]]) -> None:
    """Copy submissions that cannot be judged (``(name, path, reason)``) aside with their reasons;
    :func:`import_packages` moves them to ``OUT/_unsupported/_submissions/<task>/``."""
    if not items:
        return
    pending = task_dir / _PENDING
    for name, path, _ in items:
        dest = pending / name
        if path.is_dir():
            shutil.copytree(path, dest, ignore=shutil.ignore_patterns(".*"))
        else:
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)
    write_text(pending / "UNSUPPORTED.txt", "".join(f"{name}: {reason}\n" for name, _, reason in items))


def task_card(task_id: str, *, kind: str, cpu_ms: int, memory_mb: int, title: str, source: str, **extra) -> dict:
    """A task card for an imported package: no difficulty or category comes with a package, so
    they get the neutral "Medium" and none (``difficulty_source`` says so)."""
    card: dict = {"problem_id": task_id, "kind": kind}
    if kind == "interactive":
        card["interactor_mode"] = "non_adaptive"
    card.update({"cpu_time_limit_ms": cpu_ms, "memory_limit_mb": memory_mb, "difficulty": "Medium",
                 "difficulty_source": "default (the package has none)", "categorization": [],
                 "title": title, "source": source})
    card.update(extra)
    return card


def write_statement(task_dir: Path, title: str, statement: str | None, origin: str) -> None:
    body = statement.strip() if statement else f"(no statement in the package {origin})"
    write_text(task_dir / "desc.md", f"# {title}\n\n{body}\n")


def open_package(path: Path, tmp: Path) -> Path:
    """The package's root folder: ``path`` itself, or a zip unpacked member by member under
    ``tmp`` (a zip holding one top folder is that folder)."""
    if path.is_dir():
        return path
    if not zipfile.is_zipfile(path):
        raise PackageError(f"{path} is neither a folder nor a zip file")
    dest = tmp / safe_name(path.stem)
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            target = (dest / info.filename).resolve()
            if not str(target).startswith(str(dest.resolve())):
                raise PackageError(f"{path}: member {info.filename!r} points outside the package")
            if info.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            with z.open(info) as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
    entries = [p for p in dest.iterdir() if not p.name.startswith((".", "__MACOSX"))] if dest.is_dir() else []
    return entries[0] if len(entries) == 1 and entries[0].is_dir() else dest


# build(package_root, task_dir, log) -> task id; raises PackageError / Unsupported
Builder = Callable[[Path, Path, ImportLog, str], None]


def import_packages(paths: Iterable[Path], out: Path, log: ImportLog, build: Builder,
                    only: set[str] | None = None) -> ImportLog:
    """One package at a time: unpacked (zips), built aside, swapped into ``out``, then dropped."""
    out.mkdir(parents=True, exist_ok=True)
    staging = Staging(out)
    try:
        for path in paths:
            name = safe_name(path.stem if path.is_file() else path.name)
            if only and name not in only:
                continue
            with tempfile.TemporaryDirectory(prefix="ibench-pkg-") as tmp:
                task_dir = staging.path(name)
                dest = ""
                side = out / UNSUPPORTED_DIR / SUBMISSIONS_DIR / name
                if side.exists():  # nothing stale from an earlier import survives
                    shutil.rmtree(side)
                try:
                    root = open_package(path, Path(tmp))
                    build(root, task_dir, log, name)
                except Unsupported as e:
                    log.warn(name, f"unsupported: {e}; kept under {UNSUPPORTED_DIR}/")
                    write_text(task_dir / "UNSUPPORTED.txt", f"{e}\n")
                    (task_dir / "meta.json").unlink(missing_ok=True)
                    dest = UNSUPPORTED_DIR
                except (PackageError, OSError, ValueError) as e:
                    log.warn(name, f"not imported: {e}; kept under {REJECTED_DIR}/")
                    write_text(task_dir / "REJECTED.txt", f"{e}\n")
                    (task_dir / "meta.json").unlink(missing_ok=True)
                    dest = REJECTED_DIR
                if (task_dir / _PENDING).is_dir():
                    side.parent.mkdir(parents=True, exist_ok=True)
                    shutil.move(str(task_dir / _PENDING), str(side))
                staging.commit(name, dest)
            log.count({"": "imported", UNSUPPORTED_DIR: "unsupported (kept for reference)", REJECTED_DIR: "rejected"}[dest])
    finally:
        staging.close()
    write_json(out / f"import_{log.source}.json", log.to_dict())
    return log


def read_json_file(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))
