"""Judge settings: one dataclass, mirrored by ``conf/judge/*.yaml``."""

from __future__ import annotations

from dataclasses import dataclass

from ibench.roles import MEASURED, role  # each field's role (every judge setting changes what a verdict is)
from ibench.variants import VARIANTS  # judge.variant / bench.variant: the values of ibench.variants.Variant


@dataclass
class JudgeSettings:
    # Compilation
    compiler: str = role(MEASURED, "g++")
    cxx_flags: list[str] = role(MEASURED, factory=lambda: ["-std=c++17", "-O2", "-pipe"])
    compile_timeout_s: float = role(MEASURED, 60.0)
    precompiled_header: bool = role(MEASURED, True)  # build <bits/stdc++.h> once per machine, use when flags match
    fast_linker: bool = role(MEASURED, True)  # link with gold where installed (only the link step is faster)
    # C++ solutions linked statically: their box then binds no host library, so no two samples
    # share a cached file page (a channel between samples, docs/JUDGE.md "Nothing crosses")
    static_link: bool = role(MEASURED, True)
    cache_dir: str | None = role(MEASURED, None)  # default: $IBENCH_CACHE or ~/.cache/ibench
    testlib_header: str | None = role(MEASURED, None)  # path to an official testlib.h; None = ibench's own
    python: str = role(MEASURED, "/usr/bin/python3")  # interpreter for Python solutions (readable by the sandbox user)
    javac: str = role(MEASURED, "javac")  # the JDK for Java solutions: its javac, with java beside it (scripts/install.sh: OpenJDK 17)
    go: str = role(MEASURED, "auto")  # the Go toolchain's `go` binary; auto: the one scripts/install.sh puts in place (Go 1.21), else PATH

    # Execution
    all_cases: bool = role(MEASURED, False)  # False: stop a sample at its first failing case (scores unaffected)
    wall_factor: float = role(MEASURED, 3.0)  # wall cap = max(wall_factor * cpu limit, cpu limit + wall_extra_s)
    wall_extra_s: float = role(MEASURED, 2.0)
    wall_hard_factor: float = role(MEASURED, 5.0)  # a solver still runnable at the cap may run to this x wall (its CPU timer ends it)
    grace_ms: int = role(MEASURED, 1000)  # after the interactor accepts, time the solver has to exit cleanly
    max_processes: int = role(MEASURED, 16)  # per solver sandbox (threads count too)
    output_limit_mb: int = role(MEASURED, 64)  # solver stdout (batch tasks) and any file it writes
    tail_bytes: int = role(MEASURED, 2048)  # pipe / stderr tails kept per case
    transcript_bytes: int = role(MEASURED, 16384)  # per case turn by turn: its first and last halves (each turn costs its bytes + 16); 0: none
    interactor_cpu_s: float = role(MEASURED, 20.0)  # the trusted side's own CPU cap; hitting it is a judge error
    # the interactor's own wall budget while it computes (from its start; never below the
    # solver's hard cap); None: twice its CPU budget. Running past it is a judge error (SE)
    interactor_wall_s: float | None = role(MEASURED, None)
    interactor_memory_mb: int = role(MEASURED, 4096)  # address-space cap of interactors and checkers (0: none); hitting it is SE
    pin_cpu: bool = role(MEASURED, True)  # run each judge slot's cases on one CPU (slot index modulo the allowed CPUs)
    isolation: str = role(MEASURED, "auto")  # auto | root | userns | rlimit  (auto picks the strongest the host offers)
    require_isolation: bool = role(MEASURED, False)  # refuse to judge where no allowlist box builds (rlimit mode)

    # The study variant (InteractBench C.1): the batch variant ("batch") gives a stdio-interactive
    # task's solver the hidden case on stdin before the interaction (the same interactor still
    # judges the answer)
    variant: str = role(MEASURED, "interactive")  # a Variant value: interactive | batch (the batch variant)

    # Interactive case pools (SPEC §2): how many of each pool to run; None = all
    non_adaptive_cases: int | None = role(MEASURED, None)
    adaptive_cases: int | None = role(MEASURED, None)

    def problems(self) -> list[str]:
        """What is wrong with these settings, each naming the field (checked before a run
        starts, so a typo does not surface as a judge error on every sample)."""
        out = []
        if self.isolation not in ("auto", "root", "userns", "rlimit"):
            out.append(f"judge.isolation: {self.isolation!r}; expected auto, root, userns or rlimit")
        if self.variant not in VARIANTS:
            out.append(f"judge.variant: {self.variant!r}; expected {' or '.join(VARIANTS)} (set it as bench.variant)")
        for name in ("compile_timeout_s", "wall_factor", "wall_hard_factor", "interactor_cpu_s"):
            if not getattr(self, name) > 0:
                out.append(f"judge.{name}: {getattr(self, name)!r}; expected a positive number")
        if self.interactor_wall_s is not None and not self.interactor_wall_s > 0:
            out.append(f"judge.interactor_wall_s: {self.interactor_wall_s!r}; expected a positive number of "
                       "seconds or null (twice the interactor's CPU budget)")
        for name in ("wall_extra_s", "grace_ms", "interactor_memory_mb"):
            if getattr(self, name) < 0:
                out.append(f"judge.{name}: {getattr(self, name)!r}; expected zero or more")
        for name in ("max_processes", "output_limit_mb", "tail_bytes"):
            if getattr(self, name) < 1:
                out.append(f"judge.{name}: {getattr(self, name)!r}; expected at least 1")
        if self.transcript_bytes != 0 and self.transcript_bytes < 64:
            out.append(f"judge.transcript_bytes: {self.transcript_bytes!r}; expected 0 (none kept) or at least 64")
        for name in ("non_adaptive_cases", "adaptive_cases"):
            v = getattr(self, name)
            if v is not None and v < 0:
                out.append(f"{name}: {v!r}; expected a count of cases (0 or more) or null for all")
        return out
