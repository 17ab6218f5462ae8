"""Python 3: the source is checked for syntax inside the sandbox (a SyntaxError is CE, as it
would be on a contest judge) and staged as a script the sandboxed interpreter can read."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from ..results import CompileInfo
from ..sandbox import RunRequest, Sandbox
from ..sandbox.host import runtime_dir
from ..sandbox.run import tail
from ..settings import JudgeSettings
from .base import CompileCache, Program, content_key

MESSAGE_TAIL = 4000
# -E: ignore PYTHON* variables, -s: no user site-packages, -B: write no .pyc next to the script.
FLAGS = ("-E", "-s", "-B")
_SYNTAX_CHECK = "import sys; compile(open(sys.argv[1], 'rb').read(), 'solution.py', 'exec')"
# Python ignores SIGPIPE, so a write after the interactor has closed the conversation raises
# BrokenPipeError and exits non-zero, which would read as RE where a C++ program dies of SIGPIPE
# (never the solver's fault, SPEC §4). The script runs as __main__ with the default disposition.
_RUN_SCRIPT = ("import runpy, signal, sys; signal.signal(signal.SIGPIPE, signal.SIG_DFL); "
               "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')")


def find_interpreter(configured: str) -> Path:
    """The interpreter the sandboxed solver runs. It must be readable by the sandbox's own user,
    so a system Python is preferred to one under a home directory (pyenv, conda)."""
    for candidate in (configured, "/usr/bin/python3", "/usr/local/bin/python3", "python3"):
        path = shutil.which(candidate) if "/" not in candidate else candidate
        if path and os.access(path, os.X_OK) and _is_binary(Path(os.path.realpath(path))):
            return Path(os.path.realpath(path))
    raise RuntimeError(f"judge.python: no Python interpreter binary at {configured!r} (nor /usr/bin/python3); "
                       "install python3 or set judge.python")


def _is_binary(path: Path) -> bool:
    """A real executable, not a launcher script (pyenv's shims are shell scripts): the sandbox
    executes the file itself through a descriptor, which a `#!` script cannot be."""
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


STAGED_SCRIPT_TTL_S = 24 * 3600


def _forget_old_scripts(d: Path) -> None:
    """The staging dir sits in /run (memory): scripts untouched for a day are removed. A script
    is touched each time a sample uses it, so none disappears while its cases run."""
    if not d.is_dir():
        return
    cutoff = time.time() - STAGED_SCRIPT_TTL_S
    for entry in os.scandir(d):
        try:
            if entry.name.endswith(".py") and entry.stat().st_mtime < cutoff:
                os.unlink(entry.path)
        except OSError:
            pass


class PythonExecutor:
    language = "python"
    extensions = (".py",)
    time_factor = 2.0

    def __init__(self, settings: JudgeSettings, cache: CompileCache, sandbox: Sandbox):
        self.settings = settings
        self.cache = cache
        self.sandbox = sandbox
        self.interpreter = find_interpreter(settings.python)
        self.identity = f"{self.interpreter} {os.stat(self.interpreter).st_mtime_ns} {' '.join(FLAGS)}"
        _forget_old_scripts(runtime_dir() / "scripts")

    def _program(self, script: Path | None, info: CompileInfo) -> Program:
        return Program(script, info, (str(self.interpreter), *FLAGS, "-c", _RUN_SCRIPT), self.time_factor)

    def _stage(self, key: str, source: str) -> Path:
        """The script where every slot's sandbox user may read it (the compile cache may sit in
        a home directory it cannot enter); content-addressed, so staging twice is harmless."""
        d = runtime_dir() / "scripts"
        d.mkdir(mode=0o711, exist_ok=True)
        os.chmod(d, 0o711)
        path = d / f"{key}.py"
        if path.exists():
            os.utime(path)  # in use: keeps it from the age-based clean-up below
        else:
            tmp = d / f".{key}.{os.getpid()}"
            tmp.write_text(source, encoding="utf-8")
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        return path

    def compile_trusted(self, sources: list[Path], include_dirs: list[Path], testlib_dir: Path | None = None) -> Program:
        raise ValueError(f"{', '.join(map(str, sources))}: task programs (interactors, checkers, graders) are "
                         "C++ with testlib; the judge builds them with the C++ executor")

    def compile_untrusted(self, source: str, extra_sources: list[Path], include_dirs: list[Path]) -> Program:
        if extra_sources:
            return self._program(None, CompileInfo(False, 0.0, False,
                                                   "this task links the solution with a C++ grader: "
                                                   "it takes C++ solutions only"))
        key = content_key("python", self.identity, source)
        _, meta = self.cache.lookup(key)
        if meta is not None:
            script = self._stage(key, source) if meta.get("ok") else None
            return self._program(script, CompileInfo(bool(meta["ok"]), 0.0, True, meta.get("message", "")))

        t0 = time.perf_counter()
        scratch = self.sandbox.scratch_dir()
        src = scratch / "solution.py"
        src.write_text(source, encoding="utf-8")
        if os.geteuid() == 0:
            uid = self.sandbox.slot().uid
            os.chown(src, uid, uid)
        stderr_file = self.sandbox.private_dir() / "compile.stderr"
        limit_ms = int(self.settings.compile_timeout_s * 1000)
        # compile() never runs the code, but a hostile source can still exhaust the parser
        # (deep nesting, huge literals): it is parsed in the sandbox, not in the judge.
        report = self.sandbox.run(
            RunRequest(solver=self.interpreter, argv0=str(self.interpreter),
                       solver_args=[*FLAGS, "-c", _SYNTAX_CHECK, str(src)], cpu_ms=limit_ms,
                       mem_kb=1024 * 1024, wall_ms=limit_ms * 2, nproc=4, fsize_kb=1024),
            solver_stderr=stderr_file, keep_scratch=True)
        if report.setup_error:
            raise RuntimeError(f"sandboxed syntax check could not start: {report.setup_error}")
        ok = report.solver.exit_code == 0
        message = "" if ok else tail(stderr_file, MESSAGE_TAIL).replace(str(src), "solution.py")
        if not ok and report.solver.killed != "none":
            message = "syntax check time limit exceeded\n" + message
        ms = (time.perf_counter() - t0) * 1000
        self.cache.store(key, None, {"ok": ok, "message": message, "ms": ms})
        return self._program(self._stage(key, source) if ok else None, CompileInfo(ok, ms, False, message))
