"""Python 3: the source is checked for syntax inside the sandbox (a SyntaxError is CE, as it
would be on a contest judge) and staged where the sandboxed interpreter can read it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from ..outcome import CompileInfo
from ..sandbox.run import head_and_tail
from ..settings import JudgeSettings
from .base import MESSAGE_TAIL, CompiledExecutor, Program, is_elf, keep_resident, shared_libraries

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
        if path and os.access(path, os.X_OK) and is_elf(Path(os.path.realpath(path))):
            return Path(os.path.realpath(path))
    raise RuntimeError(f"judge.python: {configured!r} is not a Python interpreter binary"
                       + (" (nor is /usr/local/bin/python3 or python3 on PATH)" if fallbacks else "")
                       + "; install python3 (scripts/install.sh) or set judge.python")


def _python3_library(interpreter: Path) -> list[str]:
    """The interpreter's standard library dirs (its sys.path without site-packages: the script's
    own dir aside, what `-E -s` leaves); fails unless it is a Python 3."""
    try:
        out = subprocess.run([str(interpreter), "-E", "-s", "-c",
                              "import sys; print(sys.version_info[0]); print('\\n'.join(sys.path))"],
                             capture_output=True, text=True, timeout=60).stdout.split("\n")
    except (OSError, subprocess.TimeoutExpired) as e:
        out = [str(e)]
    if out[0].strip() != "3":
        raise RuntimeError(f"judge.python: {interpreter} is not a Python 3 interpreter (it printed {out[0][:80]!r})")
    return [p.strip() for p in out[1:] if p.strip() and "-packages" not in p and os.path.isdir(p.strip())]


# A Python sample runs Python: with ctypes it could call machine code it wrote into memory (the
# box's /tmp and working dir are noexec, and it holds no compiler or shell), so the module's
# native half is covered by an empty file and `import ctypes` fails.
NATIVE_BRIDGES = ("_ctypes",)


class PythonExecutor(CompiledExecutor):
    language = "python"
    key_tag = "python"
    source_name = "solution.py"
    what = "syntax check"

    def toolchain(self) -> str:
        self.interpreter = find_interpreter(self.settings.python)
        self.library = _python3_library(self.interpreter)
        return f"{self.interpreter} {os.stat(self.interpreter).st_mtime_ns} {' '.join(FLAGS)}"

    def start(self) -> None:
        # The box holds the interpreter, its standard library and exactly the shared libraries
        # they load: no other program of the host (no compiler, no shell) and no other library.
        modules = [m for d in self.library for m in Path(d).glob("*.so")]
        libs = shared_libraries([self.interpreter, *modules])
        binds = [(str(self.interpreter), str(self.interpreter))] + [(p, p) for p in self.library]
        binds += [(os.path.realpath(p), p) for p in libs]
        if os.path.exists("/etc/ld.so.cache"):
            binds.append(("/etc/ld.so.cache", "/etc/ld.so.cache"))
        binds += [("/dev/null", str(m)) for m in modules if m.name.split(".")[0] in NATIVE_BRIDGES]
        self.runtime_binds = tuple(dict.fromkeys(binds))
        keep_resident([host for host, _ in self.runtime_binds])

    def program(self, script: Path | None, info: CompileInfo) -> Program:
        return self.boxed_program(script, info, (str(self.interpreter), *FLAGS, "-c", _RUN_SCRIPT), SCRIPT_IN_BOX,
                                  self.runtime_binds, host_libs=False)

    def staged(self, key: str, built: Path, source: str) -> Path:
        # What runs is exactly the source that was checked (the cache entry is that source).
        return self.program_copy(key, ".py", source.encode("utf-8"))

    def build(self, src: Path, stage: Path, extra_sources: list[Path], include_dirs: list[Path], out: Path,
              stderr_file: Path) -> tuple[bool, str]:
        # compile() never runs the code, but a hostile source can still exhaust the parser
        # (deep nesting, huge literals): it is parsed in the sandbox, not in the judge.
        report = self.box_run(self.interpreter, [*FLAGS, "-c", _SYNTAX_CHECK, self.sandbox.visible(src)],
                              [*self.runtime_binds, *self.sandbox.stage_binds(stage)], stderr_file,
                              argv0=str(self.interpreter), mem_kb=1024 * 1024, nproc=4, fsize_kb=1024, host_libs=False)
        p = report.solver
        message = head_and_tail(stderr_file, MESSAGE_TAIL).replace(self.sandbox.visible(src), "solution.py")
        if p.exit_code == 0:
            ok = True
        elif p.exit_code == SOURCE_REJECTED:
            ok = False
        elif self.box_stop(report, message):
            ok, message = False, "syntax check exceeded its time or memory limit\n" + message
        else:  # the interpreter itself failed in the sandbox: not the solution's doing
            raise RuntimeError(f"judge.python: {self.interpreter} does not run in the sandbox "
                               f"({p.status_text}): {message.strip()[-500:]}")
        if ok:  # the checked source itself is the cache entry, so a repeat is a hit
            shutil.copyfile(src, out)
        return ok, message
