"""The ICPC / Kattis validator contract, for batch checkers and for interactors.

A validator is called ``validator input answer feedback_dir [flags]`` with the program's output
on its stdin (batch), or joined to the solver by pipes (interactive: the solver's output on its
stdin, its stdout to the solver). It exits 42 to accept and 43 to reject; anything else is the
judge's failure (SE). It may write ``judgemessage.txt`` (why) and ``score.txt`` (points) into
``feedback_dir``, which is passed with a trailing slash, as the ICPC tools do: validators
written for them build paths by concatenation.

A validator is a folder of sources (tasks with ``"contract": "icpc"``): C++ files compiled
together (``.cpp``/``.cc``/``.cxx``, with the folder's headers and testlib.h on the include
path), or Python (``main.py``, or the folder's only ``.py``), run by the judge's interpreter.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from .verdict import Decision, Verdict

if TYPE_CHECKING:
    from ..tasks.model import Case
    from .judge import Judge
    from .sandbox.messages import RunReport

ACCEPT, REJECT = 42, 43
CPP_SOURCES = (".cpp", ".cc", ".cxx")
MESSAGE_BYTES = 4000
VALIDATOR_TIMEOUT_S = 60.0


def program_sources(folder: Path) -> tuple[str, list[Path]]:
    """("cpp", sources) or ("python", [entry]) of a validator folder; ValueError when it is neither."""
    files = sorted(p for p in folder.iterdir() if p.is_file())
    cpp = [p for p in files if p.suffix in CPP_SOURCES]
    if cpp:
        return "cpp", cpp
    py = [p for p in files if p.suffix == ".py"]
    main = [p for p in py if p.name == "main.py"]
    if main or len(py) == 1:
        return "python", main or py
    if py:
        raise ValueError(f"{folder}: several Python files and no main.py; expected main.py as the entry point")
    raise ValueError(f"{folder}: no C++ (.cpp, .cc, .cxx) or Python (.py) sources")


def build_program(judge: "Judge", folder: Path) -> Path:
    """The runnable validator of ``folder``: a binary of its C++ sources compiled together, or a
    launcher script that runs its Python entry with the judge's interpreter."""
    from .errors import ToolError

    try:
        language, sources = program_sources(folder)
    except ValueError as e:
        raise ToolError(str(e)) from None
    if language == "cpp":
        prog = judge.executor("cpp").compile_trusted(sources, [judge.testlib_dir, folder], judge.testlib_dir)
        if prog.binary is None:
            raise ToolError(f"{folder} does not compile:\n{prog.info.message}")
        return prog.binary
    entry = sources[0].resolve()
    python = judge.settings.python
    script = f'#!/bin/sh\nexec "{python}" "{entry}" "$@"\n'
    digest = hashlib.sha256(script.encode()).hexdigest()[:16]
    path = judge.cache_dir / "validators" / f"py-{digest}.sh"
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(script)
        tmp.chmod(0o755)
        os.replace(tmp, path)
    return path


def validator_args(input_path: str, answer: Path, feedback_dir: Path, flags: tuple[str, ...]) -> list[str]:
    return [input_path, str(answer), str(feedback_dir).rstrip("/") + "/", *flags]


def fresh_feedback_dir(path: Path) -> Path:
    """An empty feedback dir at ``path`` (what a validator wrote for the last case removed)."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.unlink(path)
    path.mkdir(mode=0o700)
    return path


def read_feedback(feedback_dir: Path) -> tuple[str, float | None, str]:
    """(judgemessage.txt, the value of score.txt or None, a note when score.txt is not a number)."""
    message = ""
    try:
        with open(feedback_dir / "judgemessage.txt", "rb") as f:
            message = f.read(MESSAGE_BYTES).decode("utf-8", "replace").strip()
    except OSError:
        pass
    score: float | None = None
    note = ""
    try:
        with open(feedback_dir / "score.txt", "rb") as f:
            raw = f.read(200).decode("utf-8", "replace").strip()
        try:
            score = float(raw)
        except ValueError:
            note = f"score.txt is not a number: {raw[:40]!r}"
    except OSError:
        pass
    return message, score, note


def case_fraction(task, case_name: str, score: float | None) -> float | None:
    """An accepted case's share of its group's points where the task scores by score.txt
    (meta.json ``score_txt``: case -> {"max": the group's maximum, "accept": the points of an
    accept without score.txt}), clamped to [0, 1]; None for other tasks (an accept is 1)."""
    spec = (task.meta.get("score_txt") or {}).get(case_name) if task is not None else None
    if spec is None:
        return None
    value = score if score is not None else float(spec.get("accept", spec["max"]))
    return min(1.0, max(0.0, value / float(spec["max"])))


def decide_validator(code: int | None, message: str, score: float | None = None, *, who: str = "validator",
                     timed_out: bool = False, fraction: float | None = None) -> Decision:
    """A validator's exit: 42 accepts (with ``fraction`` of the points where the task scores by
    score.txt), 43 rejects; a timeout, a crash or any other code is SE."""
    shown = f" (score {score:g})" if score is not None else ""
    if timed_out:
        return Decision(Verdict.SE, f"{who} timed out")
    if code is None or code < 0:
        return Decision(Verdict.SE, f"{who} crashed: {message}")
    if code == ACCEPT:
        return Decision(Verdict.OK, (message or "accepted") + shown, 1.0 if fraction is None else fraction)
    if code == REJECT:
        return Decision(Verdict.WA, message or "rejected", 0.0)
    return Decision(Verdict.SE, f"{who} exited with code {code}; expected {ACCEPT} (accept) or {REJECT} (reject): {message}")


def run_output_validator(program: Path, case: "Case", output: Path, flags: tuple[str, ...], memory_mb: int = 0,
                         timeout_s: float = VALIDATOR_TIMEOUT_S, task=None) -> tuple[Decision, str]:
    """A batch case's output judged by a validator: ``program input answer feedback_dir flags < output``."""
    from .checker import with_address_space_cap

    assert case.answer_path is not None
    with tempfile.TemporaryDirectory(prefix="ibench-feedback-") as tmp:
        fb = Path(tmp)
        argv = [str(program), *validator_args(str(case.input_path), case.answer_path, fb, flags)]
        try:
            with open(output, "rb") as stdin:
                r = subprocess.run(with_address_space_cap(argv, memory_mb), stdin=stdin, capture_output=True,
                                   timeout=timeout_s)
        except subprocess.TimeoutExpired:
            return decide_validator(None, "", timed_out=True), "timeout"
        message, score, note = read_feedback(fb)
    if not message:
        message = r.stderr[-MESSAGE_BYTES:].decode("utf-8", "replace").strip()
    if note:
        message = f"{message} [{note}]".strip()
    code = r.returncode if r.returncode >= 0 else None
    exit_text = f"exit {r.returncode}" if r.returncode >= 0 else f"signal {-r.returncode}"
    return decide_validator(code, message, score, fraction=case_fraction(task, case.name, score)), exit_text


# The interactor the supervisor starts for an ICPC validator: it runs the validator and exits
# as a testlib interactor would (42 -> 0, accept: the solver then gets its grace to end on its
# own, as after any accept; 43 -> 1, reject; anything else -> 3, the judge's failure), a signal
# death passed on as itself, the validator's own exit status written to the file named first.
# It keeps no copy of the pipes (or the case): a validator that closes its output to send the
# solver EOF must be the last holder of that end.
_WRAPPER = """#!/bin/sh
f="$1"; shift
exec 4<&0
"$@" 0<&4 4<&- &
exec 0<&- 1>&- 3<&- 4<&-
wait $!
c=$?
echo "$c" > "$f"
case "$c" in 42) exit 0 ;; 43) exit 1 ;; esac
if [ "$c" -gt 128 ]; then kill -s "$(kill -l "$c")" $$; fi
exit 3
"""


def interactor_wrapper(cache_dir: Path) -> Path:
    """The wrapper script (written once per cache, by content)."""
    digest = hashlib.sha256(_WRAPPER.encode()).hexdigest()[:16]
    path = cache_dir / "validators" / f"icpc-interactor-{digest}.sh"
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(_WRAPPER)
        tmp.chmod(0o755)
        os.replace(tmp, path)
    return path


def interactor_outcome(r: "RunReport", feedback_dir: Path, exit_file: Path,
                       stderr_message: str) -> tuple["RunReport", str, float | None]:
    """An ICPC interactor's run (through :data:`_WRAPPER`, so the report already reads 0 / 1 / 3)
    with its message: judgemessage.txt (stderr's tail where there is none), and for an exit that
    is neither 42 nor 43 the validator's own status. Returns (report, message, score.txt)."""
    message, score, note = read_feedback(feedback_dir)
    message = message or stderr_message
    try:
        code: int | None = int(exit_file.read_text().strip())
    except (OSError, ValueError):
        code = None
    it = r.interactor
    if it is not None and it.killed == "none" and it.signal is None and it.exit_code == 3:
        shown = "no exit status" if code is None else f"code {code}"
        message = f"validator exited with {shown}; expected {ACCEPT} (accept) or {REJECT} (reject): {message}"
    if note:
        message = f"{message} [{note}]"
    return r, message, score


def judge_batch_output(task, case: "Case", output: Path, program: Path | None, memory_mb: int,
                       output_limit: int) -> tuple[Decision, str]:
    """An ICPC-contract batch case's output: the task's validator, or the default output
    validator under the task's flags (a flag it does not know is the task's fault: SE)."""
    timeout = max(VALIDATOR_TIMEOUT_S, (task.interactor_cpu_ms or 0) / 1000)
    if program is not None:
        return run_output_validator(program, case, output, task.validator_flags, memory_mb, timeout, task)
    from .default_validator import compare, parse_flags

    assert case.answer_path is not None
    try:
        flags = parse_flags(task.validator_flags)
    except ValueError as e:
        return Decision(Verdict.SE, f"default validator: {e}"), ""
    return compare(output, case.answer_path, flags, output_limit), "default validator"
