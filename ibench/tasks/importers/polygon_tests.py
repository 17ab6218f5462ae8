"""A Polygon package's tests when the package does not hold them: a "standard" package (or one
trimmed to its sources) lists each test in ``problem.xml`` and ships only its manual tests and
the programs that make the rest. Polygon's ``doall.sh`` builds them; this does the same at
import time, deterministically:

- ``<test method="generated" cmd="gen 5 3"/>``: the executable ``gen`` (``files/gen.cpp``, named
  in ``<files><executables>``) is compiled by the judge's compile flow for task programs (g++,
  C++17, cached) with the package's own testlib.h (the one Polygon generated the tests with;
  ibench's where the package has none or it does not build) and run
  with those arguments in a scratch folder; its stdout is the test (``gen-input-via-stdout``).
  With ``from-file="N"`` the command writes files and the test is the file ``N`` (or ``0N``,
  ``00N``) it left in its folder (``gen-input-via-files``); one command that writes several
  tests runs once. A Python generator runs with this interpreter;
- ``<test method="manual"/>``: the package's own file (``tests/NN``), with Windows line ends
  made Unix ones as Polygon's Linux package has them; a sample whose file is missing falls back
  to the statement's ``example.NN`` (with a warning);
- answers the package does not hold are written as ``gen-answer.sh`` writes them: the solution
  tagged ``main`` (C++ or Python) on each input (a batch task), or, for an interactive task
  whose checker reads the answer, the interactor's ``tout`` with the main solution on the other
  end of the pipes.

A generator or main solution that does not build, exits non-zero, prints nothing or runs over
its time rejects the package with the test's number and the command.
"""

from __future__ import annotations

import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from .icpc_package import PackageError, Unsupported

GENERATOR_TIMEOUT_S = 60.0  # one generator command
ANSWER_TIMEOUT_S = 60.0  # the main solution on one test
CPP_TYPES = ("cpp",)
PYTHON_TYPES = ("python.3", "pypy.3", "python3", "pypy3")


def _unlimited_stack() -> None:  # pragma: no cover - runs in the child
    """Polygon runs programs with a stack as large as their memory; deep recursion must not crash here."""
    try:
        resource.setrlimit(resource.RLIMIT_STACK, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    except (ValueError, OSError):
        pass


def _crlf(data: bytes) -> bytes:
    return data.replace(b"\r\n", b"\n")


class PolygonTests:
    """Where each test's input and answer come from: the package's own files where it holds them,
    else made here (see the module's text). Files made here live in a scratch folder until
    :meth:`close`."""

    def __init__(self, root: Path, xml: ET.Element, tests: list[ET.Element], in_pat: str, ans_pat: str, *,
                 interactor: Path | None, checker: Path | None, log, task_id: str):
        self.root, self.xml, self.tests = root, xml, tests
        self.in_pat, self.ans_pat = in_pat, ans_pat
        self.interactor, self.checker = interactor, checker
        self.log, self.task_id = log, task_id
        self._tmp = tempfile.TemporaryDirectory(prefix="ibench-polygon-")
        self.scratch = Path(self._tmp.name)
        self._programs: dict[str, list[str]] = {}
        self._runs: dict[str, Path] = {}  # command -> the folder it ran in (from-file tests)
        self._main: list[str] | None = None
        self.generated = 0
        self.answered = 0
        # a package lacking some inputs is a standard one: its manual tests have Windows line ends
        self.standard = any(not (root / (in_pat % i)).is_file() for i in range(1, len(tests) + 1))

    def close(self) -> None:
        self._tmp.cleanup()

    def __enter__(self) -> "PolygonTests":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- inputs ------------------------------------------------------------------------------
    def input(self, i: int) -> Path:
        el = self.tests[i - 1]
        own = self.root / (self.in_pat % i)
        if own.is_file():
            if self.standard and el.get("method", "manual") == "manual":
                return self._write(f"in-{i}", _crlf(own.read_bytes()))
            return own
        method = el.get("method", "manual")
        if method == "generated" and el.get("cmd"):
            data = self._generate(i, str(el.get("cmd")), el.get("from-file"))
            self.generated += 1
            return self._write(f"in-{i}", data)
        if el.get("sample") == "true":
            example = self._example(i)
            if example is not None:
                self.log.warn(self.task_id, f"test {i} (manual sample) is not in the package; "
                                            f"{example.relative_to(self.root)} used")
                return self._write(f"in-{i}", _crlf(example.read_bytes()))
        raise Unsupported(f"test {i} ({method}) is missing: {self.in_pat % i} is not in the package and "
                          + ("no command makes it" if method != "generated" else "it names no command")
                          + "; the package does not hold its tests (download the full (linux or windows) package)")

    def _example(self, i: int) -> Path | None:
        """The statement's copy of the k-th sample test (``example.0k``), if the package has one."""
        k = sum(1 for el in self.tests[:i] if el.get("sample") == "true")
        for folder in sorted((self.root / "statements").glob("*")) if (self.root / "statements").is_dir() else []:
            path = folder / f"example.{k:02d}"
            if path.is_file():
                return path
        return None

    def _write(self, name: str, data: bytes) -> Path:
        path = self.scratch / name
        path.write_bytes(data)
        return path

    def _executable(self, name: str) -> tuple[Path, str]:
        """The source of the executable a command names (``gen`` -> ``files/gen.cpp``) and its type."""
        for ex in self.xml.findall("files/executables/executable"):
            src = ex.find("source")
            if src is None or not src.get("path"):
                continue
            path = Path(str(src.get("path")))
            if path.stem == name or path.name == name:
                return self.root / path, str(src.get("type") or "")
        for suffix, kind in ((".cpp", "cpp"), (".cc", "cpp"), (".py", "python.3")):
            path = self.root / "files" / f"{name}{suffix}"
            if path.is_file():
                return path, kind
        raise PackageError(f"generator {name!r}: no executable of that name in problem.xml or files/")

    def _argv(self, source: Path, kind: str, what: str) -> list[str]:
        """How to run a package's program (a generator, the main solution): built once."""
        key = str(source)
        if key in self._programs:
            return self._programs[key]
        if not source.is_file():
            raise PackageError(f"{what} {source.relative_to(self.root)} is named in problem.xml but not in the package")
        if kind.startswith(CPP_TYPES) or (not kind and source.suffix in (".cpp", ".cc", ".cxx")):
            argv = [self._compile(source, what)]
        elif kind.startswith(PYTHON_TYPES) or (not kind and source.suffix == ".py"):
            argv = [sys.executable, str(source)]
        else:
            raise Unsupported(f"{what} {source.relative_to(self.root)} is a {kind or source.suffix} program; ibench "
                              "runs C++ and Python generators and main solutions at import")
        self._programs[key] = argv
        return argv

    def _compile(self, source: Path, what: str) -> str:
        """A C++ program of the package, built by the judge's compile flow for task programs
        (cached): with the package's own testlib.h where it ships one (``files/testlib.h``: the
        header Polygon made the tests with; an older one does not refuse an unused ``--opt`` as
        newer ones do), else, or if it does not build with it, with ibench's."""
        from ibench.tasks.errors import TaskError
        from ibench.tasks.gencases import compile_program

        own = next((p for p in (source.parent / "testlib.h", self.root / "files" / "testlib.h") if p.is_file()), None)
        errors = []
        for testlib in ([own, None] if own is not None else [None]):
            folder = Path(tempfile.mkdtemp(dir=self.scratch, prefix="src-"))
            shutil.copyfile(source, folder / source.name)
            for header in source.parent.glob("*.h"):  # the package's own headers
                if header.name != "testlib.h":
                    shutil.copyfile(header, folder / header.name)
            if testlib is not None:  # #include "testlib.h" finds the file beside the source first
                shutil.copyfile(testlib, folder / "testlib.h")
            try:
                return str(compile_program(folder / source.name))
            except TaskError as e:
                where = str(source.relative_to(self.root).parent) + "/"  # the package's path, not the scratch copy's
                errors.append(re.sub(r"\S*/src-[^/\s]+/", lambda _: where, str(e)))
        raise PackageError(f"{what} {source.relative_to(self.root)} does not compile: {errors[-1][-1500:]}")

    def _run(self, argv: list[str], cwd: Path, stdin: bytes, what: str, timeout_s: float) -> bytes:
        try:
            proc = subprocess.run(argv, cwd=cwd, input=stdin, capture_output=True, timeout=timeout_s,
                                  preexec_fn=_unlimited_stack)
        except subprocess.TimeoutExpired:
            raise PackageError(f"{what} ran over {timeout_s:.0f} s") from None
        if proc.returncode != 0:
            err = proc.stderr.decode(errors="replace").strip()[-800:]
            raise PackageError(f"{what} exited {proc.returncode}" + (f": {err}" if err else ""))
        return proc.stdout

    def _generate(self, i: int, cmd: str, from_file: str | None) -> bytes:
        try:
            words = shlex.split(cmd)
        except ValueError as e:
            raise PackageError(f"test {i}: generator command {cmd!r}: {e}") from None
        if not words:
            raise PackageError(f"test {i}: an empty generator command")
        source, kind = self._executable(words[0])
        argv = self._argv(source, kind, f"test {i}: generator")
        what = f"test {i}: generator command {cmd!r}"
        if from_file is None:
            folder = Path(tempfile.mkdtemp(dir=self.scratch, prefix="gen-"))
            out = self._run([*argv, *words[1:]], folder, b"", what, GENERATOR_TIMEOUT_S)
            if not out.strip():
                raise PackageError(f"{what} printed nothing; expected the test on stdout")
            return out
        if cmd not in self._runs:  # one run writes every file its tests take
            self._runs[cmd] = Path(tempfile.mkdtemp(dir=self.scratch, prefix="gen-"))
            self._run([*argv, *words[1:]], self._runs[cmd], b"", what, GENERATOR_TIMEOUT_S)
        folder = self._runs[cmd]
        for name in (from_file, f"0{from_file}", f"00{from_file}"):
            if (folder / name).is_file():
                return (folder / name).read_bytes()
        raise PackageError(f"{what} wrote no file {from_file!r} (from-file); it wrote "
                           f"{', '.join(sorted(p.name for p in folder.iterdir())[:10]) or 'nothing'}")

    # -- answers -----------------------------------------------------------------------------
    def answer(self, i: int, src_in: Path) -> Path | None:
        """The test's answer: the package's, else written by the main solution; None where the
        task needs none (an interactive task whose checker, if any, is given no answer to read)."""
        own = self.root / (self.ans_pat % i)
        if own.is_file():
            return own
        if self.interactor is not None and self.checker is None:
            return None
        data = self._interact(i, src_in) if self.interactor is not None else \
            self._run(self._main_argv(), self.scratch, src_in.read_bytes(),
                      f"test {i}: the main solution", ANSWER_TIMEOUT_S)
        self.answered += 1
        return self._write(f"ans-{i}", data)

    def _main_argv(self) -> list[str]:
        """The program that writes answers: the solution tagged ``main``, or where it does not
        build here (a Windows-only source) the first ``accepted`` one that does, with a warning."""
        if self._main is None:
            sols = self.xml.findall("assets/solutions/solution")
            candidates = [s for s in sols if s.get("tag") == "main"] + [s for s in sols if s.get("tag") == "accepted"]
            errors: list[str] = []
            for sol in candidates:
                src = sol.find("source")
                if src is None or not src.get("path"):
                    continue
                try:
                    self._main = self._argv(self.root / str(src.get("path")), str(src.get("type") or ""),
                                            f"{sol.get('tag')} solution")
                except (PackageError, Unsupported) as e:
                    errors.append(str(e))
                    continue
                if errors:
                    self.log.warn(self.task_id, f"answers written by {src.get('path')} (accepted): the main solution "
                                                f"cannot: {errors[0][:300]}")
                break
            if self._main is None:
                raise PackageError("answers are missing and no solution tagged main (or accepted) can write them"
                                   + (f": {errors[0]}" if errors else ""))
        return self._main

    def _interact(self, i: int, src_in: Path) -> bytes:
        """The interactor's tout with the main solution (Polygon's answer of an interactive test)."""
        assert self.interactor is not None
        inter = self._programs.get("interactor") or [self._compile(self.interactor, "interactor")]
        self._programs["interactor"] = inter
        tout = self.scratch / f"tout-{i}"
        what = f"test {i}: the main solution with the interactor"
        s2i_r, s2i_w = os.pipe()
        i2s_r, i2s_w = os.pipe()
        try:
            solver = subprocess.Popen(self._main_argv(), stdin=i2s_r, stdout=s2i_w, stderr=subprocess.DEVNULL,
                                      cwd=self.scratch, preexec_fn=_unlimited_stack)
            judge = subprocess.Popen([*inter, str(src_in), str(tout)], stdin=s2i_r, stdout=i2s_w,
                                     stderr=subprocess.PIPE, cwd=self.scratch)
        finally:
            for fd in (s2i_r, s2i_w, i2s_r, i2s_w):
                os.close(fd)
        try:
            _, err = judge.communicate(timeout=ANSWER_TIMEOUT_S)
            solver.wait(timeout=ANSWER_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            judge.kill()
            solver.kill()
            raise PackageError(f"{what} ran over {ANSWER_TIMEOUT_S:.0f} s") from None
        if judge.returncode != 0:
            raise PackageError(f"{what}: the interactor exited {judge.returncode}: "
                               f"{err.decode(errors='replace').strip()[-800:]}")
        data = tout.read_bytes() if tout.is_file() else b""
        return b"\n".join(line for line in data.split(b"\n") if not line.startswith(b"ibench_solver_eof="))
