"""The executor interface (one module per language) and the content-addressed compile cache."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ..results import CompileInfo


@dataclass(frozen=True)
class Program:
    """A runnable program: the binary (None when compilation failed) and how it was built.
    For an interpreted language ``binary`` is the staged script and ``interpreter`` the
    command that runs it."""

    binary: Path | None
    info: CompileInfo
    interpreter: tuple[str, ...] = ()  # executable and its flags, before the script
    time_factor: float = 1.0  # the language's CPU-time factor (SPEC §4)
    binds: tuple[tuple[str, str], ...] = ()  # what the box must hold for it to run: (host, inside)
    script_path: str | None = None  # the script as the sandboxed interpreter sees it
    # A managed runtime's own needs (the JVM), declared by its executor; 0/None/() for native code:
    runtime_threads: int = 0  # threads the runtime starts itself, added to judge.max_processes
    memory_headroom_kb: int = 0  # the runtime's own memory on top of the task's limit (cgroup and peak cap)
    address_space: tuple[float, int] | None = None  # without a memory cgroup: cap = x * limit + KB
    oom_markers: tuple[str, ...] = ()  # what the runtime writes to stderr when the limit stops it (MLE)
    env: tuple[str, ...] = ()  # NAME=value the runtime needs (GOMAXPROCS), on top of the sandbox's PATH and LANG

    @property
    def command(self) -> tuple[Path, list[str]]:
        """What the sandbox executes: the file, and the arguments after argv[0]."""
        return self.command_for(0)

    def command_for(self, mem_kb: int) -> tuple[Path, list[str]]:
        """The command for a run under a memory limit of ``mem_kb``: an interpreter flag may
        carry it as ``{mem_kb}`` (the JVM's -Xmx)."""
        assert self.binary is not None, "a program that did not build cannot run"
        if not self.interpreter:
            return self.binary, []
        flags = [a.replace("{mem_kb}", str(mem_kb)) for a in self.interpreter[1:]]
        return Path(self.interpreter[0]), [*flags, self.script_path or str(self.binary)]

    def run_memory_kb(self, limit_kb: int) -> int:
        """The cap the sandbox enforces for a task limit of ``limit_kb`` (limit plus headroom)."""
        return limit_kb + self.memory_headroom_kb

    def address_space_kb(self, limit_kb: int) -> int | None:
        """The address-space rlimit where no cgroup caps memory (None: the sandbox's default)."""
        if self.address_space is None:
            return None
        factor, extra = self.address_space
        return int(factor * limit_kb) + extra


class Executor(Protocol):
    language: str
    extensions: tuple[str, ...]
    time_factor: float  # CPU-time limit multiplier (SPEC §4: C++ and Go 1, Python and Java 2)

    def compile_untrusted(self, source: str, extra_sources: list[Path], include_dirs: list[Path]) -> Program:
        """Compile model-written code inside the sandbox's box, which holds the toolchain and a
        copy of exactly these inputs: the code may try to `#include` or `.incbin` anything."""

    def compile_trusted(self, sources: list[Path], include_dirs: list[Path], testlib_dir: Path | None = None) -> Program:
        """Compile a task's own interactor, checker, generator or grader (``testlib_dir``: where
        its testlib.h comes from, for a precompiled copy)."""


class CompileCache:
    """Binaries (and compile errors) stored under the hash of everything that determines them.
    Each entry records the SHA-256 of its file; an entry whose file no longer matches is a miss
    (and is rebuilt), so what runs is always what was built."""

    def __init__(self, root: Path):
        self.root = root / "bin"
        self.root.mkdir(parents=True, exist_ok=True)

    def _paths(self, key: str) -> tuple[Path, Path]:
        d = self.root / key[:2]
        return d / key, d / f"{key}.json"

    def lookup(self, key: str) -> tuple[Path | None, dict | None]:
        binary, meta = self._paths(key)
        try:
            info = json.loads(meta.read_text())
        except (OSError, ValueError):
            return None, None
        if info.get("ok") and (info.get("sha256") is None or file_digest(binary) != info["sha256"]):
            return None, None
        return (binary if info.get("ok") else None), info

    def store(self, key: str, built: Path | None, info: dict) -> Path | None:
        binary, meta = self._paths(key)
        binary.parent.mkdir(parents=True, exist_ok=True)
        tag = f".{os.getpid()}.tmp"
        if built is not None:
            tmp = binary.with_name(binary.name + tag)
            os.replace(built, tmp) if built.parent == tmp.parent else _copy(built, tmp)
            os.chmod(tmp, 0o755)
            info = {**info, "sha256": file_digest(tmp)}
            os.replace(tmp, binary)
        tmp_meta = meta.with_name(meta.name + tag)
        tmp_meta.write_text(json.dumps(info))
        os.replace(tmp_meta, meta)
        return binary if built is not None else None


def file_digest(path: Path) -> str | None:
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            while chunk := f.read(1 << 20):
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest()


def _copy(src: Path, dst: Path) -> None:
    with open(src, "rb") as fi, open(dst, "wb") as fo:
        while chunk := fi.read(1 << 20):
            fo.write(chunk)


def content_key(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for p in parts:
        b = p.encode() if isinstance(p, str) else p
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


def dir_digest(dirs: list[Path]) -> str:
    """Hash of every file under the include dirs: a changed header invalidates the cache."""
    parts: list[bytes | str] = []
    for d in dirs:
        for p in sorted(d.rglob("*")) if d.is_dir() else [d]:
            if p.is_file():
                parts += [str(p.relative_to(d) if d.is_dir() else p.name), p.read_bytes()]
    return content_key(*parts)
