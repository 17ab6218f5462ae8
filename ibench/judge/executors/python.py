"""Python 3: the source is checked for syntax inside the sandbox (a SyntaxError is CE, as it
would be on a contest judge) and staged where the sandboxed interpreter can read it."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

from ..results import CompileInfo
from ..sandbox import RunRequest, Sandbox
from ..sandbox.run import head_and_tail
from ..settings import JudgeSettings
from .base import CompileCache, Program, content_key

MESSAGE_TAIL = 4000
DEFAULT_INTERPRETER = JudgeSettings.python  # the setting's default: it may fall back to other system paths
SCRIPT_IN_BOX = "/prog/solution.py"
# -E: ignore PYTHON* variables, -s: no user site-packages, -B: write no .pyc next to the script.
FLAGS = ("-E", "-s", "-B")
# Exit 3 means "the source does not compile"; any other failure is the interpreter's or the
# sandbox's (a judge error), never the model's.
SOURCE_REJECTED = 3
_SYNTAX_CHECK = (
    "import sys, traceback\n"
    "try:\n"
    "    compile(open(sys.argv[1], 'rb').read(), 'solution.py', 'exec')\n"
    "except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError) as e:\n"
    "    sys.stderr.write(''.join(traceback.format_exception_only(type(e), e)))\n"
    f"    sys.exit({SOURCE_REJECTED})\n"
)
# Python ignores SIGPIPE, so a write after the interactor has closed the conversation raises
# BrokenPipeError and exits non-zero, which would read as RE where a C++ program dies of SIGPIPE
# (never the solver's fault, SPEC §4). The script runs as __main__ with the default disposition.
_RUN_SCRIPT = ("import runpy, signal, sys; signal.signal(signal.SIGPIPE, signal.SIG_DFL); "
               "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')")


def find_interpreter(configured: str) -> Path:
    """The interpreter the sandboxed solver runs: an executable binary (not a launcher script:
    the sandbox executes the file itself through a descriptor) that the sandbox's own user can
    read, so a system Python rather than one under a home directory (pyenv, conda). A setting
    other than the default must work as given; the default falls back to other system paths."""
    fallbacks = ("/usr/local/bin/python3", "python3") if configured == DEFAULT_INTERPRETER else ()
    for candidate in (configured, *fallbacks):
        path = shutil.which(candidate) if "/" not in candidate else candidate
        if path and os.access(path, os.X_OK) and _is_binary(Path(os.path.realpath(path))):
            return Path(os.path.realpath(path))
    raise RuntimeError(f"judge.python: {configured!r} is not a Python interpreter binary"
                       + (" (nor is /usr/local/bin/python3 or python3 on PATH)" if fallbacks else "")
                       + "; install python3 (scripts/install.sh) or set judge.python")


def _python3_prefixes(interpreter: Path) -> list[str]:
    """The interpreter's installation prefixes (where its standard library lives); fails unless
    it is a Python 3."""
    try:
        out = subprocess.run([str(interpreter), "-E", "-s", "-c",
                              "import sys; print(sys.version_info[0]); print(sys.prefix); print(sys.base_prefix)"],
                             capture_output=True, text=True, timeout=60).stdout.split("\n")
    except (OSError, subprocess.TimeoutExpired) as e:
        out = [str(e)]
    if out[0].strip() != "3":
        raise RuntimeError(f"judge.python: {interpreter} is not a Python 3 interpreter (it printed {out[0][:80]!r})")
    return sorted({p.strip() for p in out[1:3] if p.strip()})


def _is_binary(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


class PythonExecutor:
    language = "python"
    extensions = (".py",)
    time_factor = 2.0

    def __init__(self, settings: JudgeSettings, cache: CompileCache, sandbox: Sandbox):
        self.settings = settings
        self.cache = cache
        self.sandbox = sandbox
        self.interpreter = find_interpreter(settings.python)
        prefixes = _python3_prefixes(self.interpreter)
        self.identity = f"{self.interpreter} {os.stat(self.interpreter).st_mtime_ns} {' '.join(FLAGS)}"
        # The box holds the interpreter, its standard library and the shared libraries.
        paths = ["/usr", "/bin", *prefixes, str(self.interpreter)]
        self.runtime_binds = tuple((p, p) for p in dict.fromkeys(paths) if os.path.lexists(p))

    def _program(self, script: Path | None, info: CompileInfo) -> Program:
        inside = None
        binds = self.runtime_binds
        if script is not None and self.sandbox.boxed:
            inside = SCRIPT_IN_BOX
            binds = (*binds, (str(script), inside))
        return Program(script, info, (str(self.interpreter), *FLAGS, "-c", _RUN_SCRIPT), self.time_factor,
                       binds=binds, script_path=inside)

    def _stage(self, key: str, source: str) -> Path:
        """A fresh copy in this slot's program dir, which only the judge can write: what runs is
        exactly the source that was checked, whatever ran in this slot before."""
        path = self.sandbox.program_dir() / f"{key[:16]}.py"
        path.write_text(source, encoding="utf-8")
        os.chmod(path, 0o644)
        return path

    def compile_trusted(self, sources: list[Path], include_dirs: list[Path], testlib_dir: Path | None = None) -> Program:
        raise ValueError(f"{', '.join(map(str, sources))}: task programs (interactors, checkers, graders) are "
                         "C++ with testlib; the judge builds them with the C++ executor")

    def compile_untrusted(self, source: str, extra_sources: list[Path], include_dirs: list[Path]) -> Program:
        if extra_sources:
            return self._program(None, CompileInfo(False, 0.0, False,
                                                   "this task links the solution with a C++ grader: "
                                                   "it takes C++ solutions only"))
        key = content_key("python", self.sandbox.compile_identity, self.identity, source)
        checked, meta = self.cache.lookup(key)
        if meta is not None:
            script = self._stage(key, source) if checked is not None else None
            return self._program(script, CompileInfo(bool(meta["ok"]), 0.0, True, meta.get("message", "")))

        t0 = time.perf_counter()
        stage = self.sandbox.stage_dir()
        src = stage / "solution.py"
        src.write_text(source, encoding="utf-8")
        os.chmod(src, 0o644)
        stderr_file = self.sandbox.private_dir() / "compile.stderr"
        limit_ms = int(self.settings.compile_timeout_s * 1000)
        # compile() never runs the code, but a hostile source can still exhaust the parser
        # (deep nesting, huge literals): it is parsed in the sandbox, not in the judge.
        report = self.sandbox.run(
            RunRequest(solver=self.interpreter, argv0=str(self.interpreter),
                       solver_args=[*FLAGS, "-c", _SYNTAX_CHECK, self.sandbox.visible(src)], cpu_ms=limit_ms,
                       mem_kb=1024 * 1024, wall_ms=limit_ms * 2, nproc=4, fsize_kb=1024,
                       binds=[*self.runtime_binds, *self.sandbox.stage_binds(stage)]),
            solver_stderr=stderr_file)
        p = report.solver
        if report.setup_error:
            raise RuntimeError(f"sandboxed syntax check could not start: {report.setup_error}")
        message = head_and_tail(stderr_file, MESSAGE_TAIL).replace(self.sandbox.visible(src), "solution.py")
        if p.exit_code == 0:
            ok = True
        elif p.exit_code == SOURCE_REJECTED:
            ok = False
        elif p.killed != "none" or report.oom_killed or p.signal in (24, 27):
            ok, message = False, "syntax check exceeded its time or memory limit\n" + message
        else:  # the interpreter itself failed in the sandbox: not the solution's doing
            raise RuntimeError(f"judge.python: {self.interpreter} does not run in the sandbox "
                               f"({p.status_text}): {message.strip()[-500:]}")
        ms = (time.perf_counter() - t0) * 1000
        built = None
        if ok:  # the checked source itself is the cache entry, so a repeat is a hit
            built = self.cache.root / f".py-{os.getpid()}-{key[:12]}"
            built.write_text(source, encoding="utf-8")
        self.cache.store(key, built, {"ok": ok, "message": "" if ok else message, "ms": ms})
        return self._program(self._stage(key, source) if ok else None, CompileInfo(ok, ms, False, message if not ok else ""))
