"""A batch task's checker (``checker input output answer``), run by the judge outside the box: it
is the task's own trusted program, under an address-space cap and a timeout."""

from __future__ import annotations

import subprocess
from pathlib import Path

from ..tasks.model import Case
from .limits import MESSAGE_LIMIT, STDERR_READ
from .verdict import Decision, decide_checker, verdict_message

CHECKER_TIMEOUT_S = 60


def with_address_space_cap(argv: list[str], memory_mb: int) -> list[str]:
    """The command under an address-space cap (none when ``memory_mb`` is 0). Set by a shell in
    the child, not a preexec hook, which is unsafe in a threaded process such as a Ray worker."""
    if memory_mb <= 0:
        return argv
    return ["/bin/sh", "-c", 'ulimit -v "$0" && exec "$@"', str(memory_mb * 1024), *argv]


def run_checker(checker: Path, case: Case, output: Path, memory_mb: int = 0) -> tuple[Decision, str]:
    assert case.answer_path is not None
    argv = [str(checker), str(case.input_path), str(output), str(case.answer_path)]
    try:
        r = subprocess.run(with_address_space_cap(argv, memory_mb), capture_output=True, timeout=CHECKER_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return decide_checker(None, "", timed_out=True), ""
    msg = verdict_message(r.stderr[-STDERR_READ:].decode("utf-8", "replace"), MESSAGE_LIMIT)
    code = r.returncode if r.returncode >= 0 else None
    return decide_checker(code, msg), f"exit {r.returncode}" if r.returncode >= 0 else f"signal {-r.returncode}"
