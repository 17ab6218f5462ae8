"""SandboxFusion's ``/run_code`` on ibench's judge: compile (the judge's content-addressed
cache), run once in the same box a batch case runs in, and answer in SandboxFusion's shape,
which verl's ``sandbox_fusion`` reward reads (it compares ``run_result.stdout`` itself).

The run is :meth:`ibench.judge.batch.BatchGrader.run_program`, the one a batch case runs
through; what differs is the reply: the program's whole stdout (bounded), which a batch grader
compares and drops, goes back (SandboxFusion's client compares it itself).
"""

from __future__ import annotations

import os
from pathlib import Path

from ibench.judge import Judge, Verdict
from ibench.languages import LANGUAGES as _LANGUAGES

from .schema import CommandRunStatus, RunStatus
from .settings import ServeSettings

# SandboxFusion's language names (verl sends these) -> ibench's executors: each ibench language
# by its name, and SandboxFusion's "python3" (an alias in ibench/languages.py too)
LANGUAGES = {name: name for name in _LANGUAGES} | {alias: lang.name for lang in _LANGUAGES.values()
                                                  for alias in lang.aliases if alias == "python3"}


def _read(path: Path, limit: int) -> tuple[str, bool]:
    """The file's first ``limit`` bytes as text, and whether it held more."""
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError:
        return "", False
    return data[:limit].decode("utf-8", "replace"), len(data) > limit


def sandbox_error(message: str) -> dict:
    """SandboxFusion's reply for a run the sandbox could not make (verl reads it as -1)."""
    return _failed(message)


def _failed(message: str, status: RunStatus = RunStatus.SandboxError) -> dict:
    return {"status": status.value, "message": message, "compile_result": None, "run_result": None,
            "executor_pod_name": None, "files": {}, "ibench_verdict": "SE" if status is RunStatus.SandboxError else None}


def run_code(judge: Judge, settings: ServeSettings, req: dict) -> dict:
    lim = settings.limits
    language = LANGUAGES.get(req["language"])
    if language is None:
        return _failed(f"language {req['language']!r} is not run here; expected one of {', '.join(LANGUAGES)}")
    if req.get("files") or req.get("fetch_files"):
        return _failed("files and fetch_files are not supported: the program reads stdin and writes stdout")
    stdin = (req.get("stdin") or "").encode()
    judge.sandbox.new_sample()
    executor = judge.executor(language)
    prog = executor.compile_untrusted(req["code"], [], [])
    compile_result = None
    if prog.binary is None or executor.what == "compile":  # a real compile step (not Python's syntax check)
        compile_result = {"status": CommandRunStatus.Finished.value, "execution_time": round(prog.info.ms / 1000, 4),
                          "return_code": 0 if prog.binary is not None else 1, "stdout": "",
                          "stderr": prog.info.message[-lim.max_stdout_bytes:]}
    if prog.binary is None:
        failed = _failed("", RunStatus.Failed)
        failed.update(compile_result=compile_result, ibench_verdict=Verdict.CE.value)
        return failed
    s = judge.settings
    cpu_ms = min(float(req.get("run_timeout") or 10), lim.max_run_timeout_s) * 1000 * prog.time_factor
    wall_ms = int(max(s.wall_factor * cpu_ms, cpu_ms + s.wall_extra_s * 1000))
    mem_mb = int(req.get("memory_limit_MB") or -1)
    mem_mb = lim.default_memory_mb if mem_mb <= 0 else min(mem_mb, lim.max_memory_mb)
    stdin_path = judge.sandbox.private_dir() / "run_code.stdin"
    fd = os.open(stdin_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(stdin)
    # the batch grader's own run of a program (the box, the limits, the run's decision)
    r, d, out, err = judge.batch.run_program(prog, stdin_path, cpu_ms, mem_mb * 1024, wall_ms)
    stdout, cut_out = _read(out, lim.max_stdout_bytes)
    stderr, cut_err = _read(err, lim.max_stdout_bytes)
    verdict = Verdict.OK if d is None else d.verdict
    if verdict is Verdict.SE:
        return _failed(d.reason if d else "judge error")
    rc = r.solver.exit_code if r.solver.signal is None else -r.solver.signal
    if verdict is not Verdict.OK and not rc:
        rc = 1  # MLE by the peak the supervisor read, with a clean exit: still a failed run
    timed_out = verdict in (Verdict.TLE, Verdict.IDLE)
    run_result = {"status": (CommandRunStatus.TimeLimitExceeded if timed_out else CommandRunStatus.Finished).value,
                  "execution_time": round(r.solver.wall_us / 1e6, 4), "return_code": None if timed_out else rc,
                  "stdout": stdout, "stderr": stderr}
    message = "" if d is None else d.reason
    if cut_out or cut_err:
        message = (message + "; " if message else "") + f"output cut at {lim.max_stdout_bytes} bytes"
    ok = verdict is Verdict.OK and rc == 0
    return {"status": (RunStatus.Success if ok else RunStatus.Failed).value, "message": message,
            "compile_result": compile_result, "run_result": run_result, "executor_pod_name": None, "files": {},
            "ibench_verdict": verdict.value}
