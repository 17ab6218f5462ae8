"""A sample's cases share one request but for their files (InteractiveGrader._request,
RunRequest.with_files), and the server's arguments but for those files are encoded once per
request shape (Sandbox.run). Reuse must never carry one case's file, or a changed limit, into
another run."""

from __future__ import annotations

from pathlib import Path

import pytest

from ibench.judge import Judge, JudgeSettings
from ibench.judge.sandbox import RunRequest, Sandbox

REPORT = ("wall_us=1\nfirst_exit=interactor\nsolver_exit=0\nsolver_killed=none\ninteractor_exit=0\n"
          "interactor_killed=none\n")


def _args(payload: bytes) -> list[str]:
    return payload.decode().split("\0")[:-2]


def _value(args: list[str], flag: str) -> list[str]:
    return [args[i + 1] for i, a in enumerate(args) if a == flag]


def test_with_files_changes_only_the_files():
    base = RunRequest(solver=Path("/bin/true"), cpu_ms=1000, mem_kb=1024, wall_ms=3000, interactor=Path("/bin/cat"),
                      interactor_args=["/dev/fd/3"])
    key = base.fixed_key()
    a = base.with_files(case=Path("/cases/001.in"))
    b = base.with_files(case=Path("/cases/002.in"))
    assert (a.case, b.case, base.case) == (Path("/cases/001.in"), Path("/cases/002.in"), None)
    assert a.cpu_ms == b.cpu_ms == 1000 and a.interactor_args == ["/dev/fd/3"]
    assert a.fixed_key() == b.fixed_key()
    # whether a file is given is part of the key
    assert key != a.fixed_key()
    assert a.with_files(prefill=Path("/cases/001.in")).fixed_key() != a.fixed_key()
    with pytest.raises(AssertionError, match="not a per-case file"):
        base.with_files(cpu_ms=5)  # type: ignore[arg-type]


def test_each_run_sends_its_own_case_and_limits(monkeypatch):
    sent: list[list[str]] = []
    monkeypatch.setattr(Sandbox, "_request", lambda self, payload: (sent.append(_args(payload)), REPORT)[1])
    judge = Judge(JudgeSettings())
    base = RunRequest(solver=Path("/bin/true"), cpu_ms=1000, mem_kb=1024, wall_ms=3000, interactor=Path("/bin/cat"))
    for name in ("001", "002", "001"):
        judge.sandbox.run(base.with_files(case=Path(f"/cases/{name}.in")))
    judge.sandbox.run(RunRequest(solver=Path("/bin/true"), cpu_ms=2000, mem_kb=1024, wall_ms=3000,
                                 interactor=Path("/bin/cat"), case=Path("/cases/003.in")))
    judge.sandbox.run(RunRequest(solver=Path("/bin/true"), cpu_ms=2000, mem_kb=1024, wall_ms=3000,
                                 stdin=Path("/cases/004.in")))
    assert [_value(a, "--case") for a in sent] == [["/cases/001.in"], ["/cases/002.in"], ["/cases/001.in"],
                                                  ["/cases/003.in"], []]
    assert [_value(a, "--cpu-ms") for a in sent] == [["1000"]] * 3 + [["2000"]] * 2
    assert _value(sent[-1], "--stdin") == ["/cases/004.in"] and _value(sent[-1], "--interactor") == []
    assert _value(sent[0], "--interactor") == ["/bin/cat"]


def test_a_task_with_other_limits_gets_its_own_request(guess_task, monkeypatch, tmp_path):
    """The grader's shared request is the sample's: another task object (another limit) builds
    its own, whatever program and interactor it shares."""
    import dataclasses

    sent: list[list[str]] = []
    original = Sandbox._request

    def capture(self, payload):
        sent.append(_args(payload))
        return original(self, payload)

    monkeypatch.setattr(Sandbox, "_request", capture)
    judge = Judge(JudgeSettings())
    prog = judge.compile_solution(guess_task, "#include <cstdio>\nint main(){ puts(\"! 1\"); }\n")
    interactor = judge.compile_tool(guess_task, guess_task.interactors["non_adaptive"])
    tighter = dataclasses.replace(guess_task, cpu_time_limit_ms=500, memory_limit_mb=64)
    sent.clear()
    for task in (guess_task, tighter, guess_task):
        judge.interactive.run_case(task, task.cases[0], prog, interactor)
    assert [_value(a, "--cpu-ms") for a in sent] == [["1000"], ["500"], ["1000"]]
    assert [_value(a, "--mem-kb") for a in sent] == [["262144"], ["65536"], ["262144"]]
