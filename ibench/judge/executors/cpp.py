"""C++ with g++: content-addressed cache, a per-machine precompiled <bits/stdc++.h>, and
model-written code compiled inside the sandbox."""

from __future__ import annotations

import fcntl
import functools
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

from ..outcome import CompileInfo
from ..sandbox.host import runtime_dir
from ..sandbox.run import head_and_tail
from .base import MESSAGE_TAIL, CompiledExecutor, Program, content_key, dir_digest

# Each of the compile box's writable tmpfs (working dir, /tmp): far above what a contest program's
# objects and binary take, and without root (no memory cgroup) it is what bounds the RAM a
# hostile compile can fill.
COMPILE_BOX_KB = 256 * 1024
# What a real compile needs (a template-heavy contest program at -O2 stays well under 1 GB); a
# source that makes cc1plus grow past it is stopped there, not at 4 GB on every compiling slot.
COMPILE_MEMORY_KB = 2 * 1024 * 1024
# An #include naming a device or kernel file (/dev/zero, /dev/urandom, /proc/...): refused before
# the compiler starts (the box holds /dev's few devices and its own /proc).
DEVICE_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"][^>"]*(?:^|/)(?:dev|proc|sys)/[^>"]*[>"]', re.MULTILINE)


@functools.lru_cache(maxsize=None)
def compiler_identity(compiler: str) -> str:
    path = shutil.which(compiler)
    if path is None:
        raise RuntimeError(f"judge.compiler: {compiler!r} not found on PATH (install g++: scripts/install.sh)")
    out = subprocess.run([path, "--version"], capture_output=True, text=True).stdout
    machine = subprocess.run([path, "-dumpmachine"], capture_output=True, text=True).stdout
    return f"{os.path.realpath(path)}\n{out.splitlines()[0] if out else ''}\n{machine.strip()}"


def _stdcpp_header(compiler: str, flags: list[str]) -> Path | None:
    """Where the compiler finds <bits/stdc++.h> (None if it does not ship one)."""
    r = subprocess.run([compiler, *flags, "-x", "c++", "-E", "-H", "-"], input="#include <bits/stdc++.h>\n",
                       capture_output=True, text=True)
    for line in r.stderr.splitlines():
        if line.startswith(". ") and line.endswith("bits/stdc++.h"):
            return Path(line[2:].strip())
    return None


class CppExecutor(CompiledExecutor):
    language = "cpp"
    key_tag = "untrusted-box-v2"
    source_name = "solution.cpp"
    links_grader = True  # a grader task's C++ grader is compiled with the solution
    keeps_warnings = True

    def toolchain(self) -> str:
        self.compiler = shutil.which(self.settings.compiler) or self.settings.compiler
        return compiler_identity(self.settings.compiler)

    def start(self) -> None:
        self.flags = list(self.settings.cxx_flags)
        # gold links a small C++ program in a third of bfd's time: on a precompiled-header
        # compile that is a tenth of the total. Only the link step changes, not the program.
        self.link_flags = ["-fuse-ld=gold"] if self.settings.fast_linker and shutil.which("ld.gold") else []
        self._pch_dir: Path | None | bool = False  # False: not tried yet
        self._testlib_pch: dict[Path, Path | None] = {}

    # -- precompiled header -------------------------------------------------------------
    def pch_dir(self) -> Path | None:
        """An include dir holding bits/stdc++.h.gch built with exactly our flags, once per
        machine. GCC uses it automatically when flags match, and falls back to the plain header
        otherwise, so it can never change a program's meaning."""
        if self._pch_dir is False:
            self._pch_dir = None
            if self.settings.precompiled_header:
                header = _stdcpp_header(self.compiler, self.flags)
                if header is not None:
                    # The header sits beside its .gch: a program that includes it a second
                    # time re-reads it from where GCC found the first (g++ alone compiles that).
                    self._pch_dir = self._build_pch(header, "bits/stdc++.h", keep_header=True)
        return self._pch_dir  # type: ignore[return-value]

    def testlib_pch_dir(self, testlib_dir: Path) -> Path | None:
        """The same for the task programs' `#include "testlib.h"` (a 2,600-line header that
        every interactor, checker and generator starts with)."""
        header = testlib_dir / "testlib.h"
        if not self.settings.precompiled_header or not header.is_file():
            return None
        if header not in self._testlib_pch:
            self._testlib_pch[header] = self._build_pch(header, "testlib.h", keep_header=True)
        return self._testlib_pch[header]

    def _build_pch(self, header: Path, name: str, keep_header: bool = False) -> Path | None:
        """Precompile ``header`` as ``<dir>/<name>.gch`` under a file lock; returns ``<dir>``.
        With ``keep_header`` the header itself sits beside it, so the include still resolves
        there if GCC rejects the .gch."""
        key = content_key(self.identity, " ".join(self.flags), name, header.read_bytes(), "header-beside-v2")[:20]
        root = runtime_dir() / "pch"
        base = root / key
        gch = base / f"{name}.gch"
        if not gch.exists():
            gch.parent.mkdir(parents=True, exist_ok=True)
            with open(base / ".lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                if not gch.exists():
                    if keep_header:
                        shutil.copy(header, gch.with_suffix(""))
                    tmp = gch.with_name(f"{gch.name}.{os.getpid()}")
                    r = subprocess.run([self.compiler, *self.flags, "-x", "c++-header", str(header), "-o", str(tmp)],
                                       capture_output=True, text=True, timeout=600)
                    if r.returncode != 0:
                        return None
                    os.chmod(tmp, 0o644)
                    os.replace(tmp, gch)
        for d in {root, base, gch.parent}:
            os.chmod(d, 0o755)
        if keep_header:
            os.chmod(gch.with_suffix(""), 0o644)
        return base

    def _flags_for(self, include_dirs: list[Path], use_pch: bool) -> list[str]:
        flags = list(self.flags) + self.link_flags
        pch = self.pch_dir() if use_pch else None
        if pch is not None:
            flags += ["-I", str(pch)]
        for d in include_dirs:
            flags += ["-I", str(d)]
        return flags

    # -- trusted: the task's own programs -----------------------------------------------
    def compile_trusted(self, sources: list[Path], include_dirs: list[Path], testlib_dir: Path | None = None) -> Program:
        key = content_key("trusted", self.identity, " ".join(self.flags + self.link_flags),
                          *[p.read_bytes() for p in sources], dir_digest(include_dirs))
        binary, meta = self.cache.lookup(key)
        if meta is not None:
            return self.trusted_program(binary, self.info(bool(meta["ok"]), 0.0, True, meta.get("message", "")))
        t0 = time.perf_counter()
        out = self.cache.root / f".build-{os.getpid()}-{key[:12]}"
        tl_pch = self.testlib_pch_dir(testlib_dir) if testlib_dir else None
        cmd = [self.compiler, *(["-I", str(tl_pch)] if tl_pch else []), *self._flags_for(include_dirs, True),
               *map(str, sources), "-o", str(out)]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=self.settings.compile_timeout_s * 4)
            ok, message = r.returncode == 0, (r.stderr if len(r.stderr) <= MESSAGE_TAIL else
                                              r.stderr[:MESSAGE_TAIL // 2] + "\n[...]\n" + r.stderr[-MESSAGE_TAIL // 2:])
        except subprocess.TimeoutExpired:
            ok, message = False, "compile time limit exceeded"
        ms = (time.perf_counter() - t0) * 1000
        binary = self.cache.store(key, out if ok else None, {"ok": ok, "message": message, "ms": ms})
        return self.trusted_program(binary, self.info(ok, ms, False, message))

    def trusted_program(self, binary: Path | None, info: CompileInfo) -> Program:
        return Program(binary, info, time_factor=self.time_factor)  # dynamically linked, run outside any box

    # -- untrusted: model-written code --------------------------------------------------
    def toolchain_binds(self) -> list[tuple[str, str]]:
        """What a compile needs in the box: /usr (compiler, binutils, headers), the top-level
        links into it, and the compiler's own prefix where it lives elsewhere."""
        paths = ["/usr", "/bin", "/sbin"]
        real = os.path.realpath(self.compiler)
        if not real.startswith("/usr/"):
            paths.append(str(Path(real).parent.parent))
        pch = self.pch_dir()
        if pch is not None:
            paths.append(str(pch))
        return [(p, p) for p in paths if os.path.lexists(p)]

    def key_parts(self, source: str, extra_sources: list[Path], include_dirs: list[Path]) -> tuple[bytes | str, ...]:
        return (" ".join(self.flags + self.link_flags + self.solution_link_flags()), source,
                *[p.read_bytes() for p in extra_sources],
                dir_digest(include_dirs), str(self.pch_dir() is not None))

    def solution_link_flags(self) -> list[str]:
        """A model's program is linked statically (judge.static_link): it runs in a box that
        holds no host library, so nothing of the host's page cache is shared between samples."""
        return ["-static"] if self.settings.static_link else []

    def program(self, built: Path | None, info: CompileInfo) -> Program:
        return Program(built, info, time_factor=self.time_factor, host_libs=not self.settings.static_link)

    def build(self, src: Path, stage: Path, extra_sources: list[Path], include_dirs: list[Path], out: Path,
              stderr_file: Path) -> tuple[bool, str]:
        device = DEVICE_INCLUDE.search(src.read_text(encoding="utf-8", errors="replace"))
        if device:
            # `#include "/dev/zero"` grows cc1plus to the compile's memory cap on every compiling slot
            return False, f"solution.cpp: {device.group(0).strip()}: including a device or kernel file is refused"
        # The grader and the headers join the source in /src: `#include` of anything else finds nothing.
        inc_args: list[str] = []
        for i, d in enumerate(include_dirs):
            dst = stage / f"inc{i}"
            shutil.copytree(d, dst, symlinks=False)
            inc_args += ["-I", self.sandbox.visible(dst)]
        extra = []
        for p in extra_sources:
            shutil.copy(p, stage / p.name)
            extra.append(self.sandbox.visible(stage / p.name))
        self.seal(stage)
        pch = self.pch_dir()
        flags = list(self.flags) + self.link_flags + self.solution_link_flags() + (["-I", str(pch)] if pch else []) + inc_args
        report = self.box_run(Path(self.compiler), [*flags, self.sandbox.visible(src), *extra, "-o", "solution.bin"],
                              [*self.toolchain_binds(), *self.sandbox.stage_binds(stage)], stderr_file,
                              argv0=self.compiler, solver_env=["TMPDIR=/tmp"], mem_kb=COMPILE_MEMORY_KB,
                              fsize_kb=512 * 1024, box_kb=COMPILE_BOX_KB, export="solution.bin", out=out)
        message = head_and_tail(stderr_file, MESSAGE_TAIL).replace(self.sandbox.visible(stage) + "/", "")
        ok = self.exported(report, out)
        why = None if ok else self.box_stop(report, message)
        return ok, f"{why}\n{message}" if why else message
