"""Judges a list of solutions of one task in one Judge, in order, and prints one JSON line per
solution: its verdict, each case's solver stderr tail, and the state of the judge slot's host
directories right after it. The sandbox tests run it in-process as root and, as an unprivileged
user, in a subprocess (`python box_driver.py TASK SOLUTION...`)."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path


def slot_state(judge) -> dict:
    """What a solver may have left on the host side of its slot."""
    slot = judge.sandbox.slot()
    out: dict = {"solver_uid": slot.uid}
    for name, d in (("scratch", slot.scratch), ("work", slot.work)):
        st = os.lstat(d)
        out[name] = {"mode": oct(stat.S_IMODE(st.st_mode)), "uid": st.st_uid, "judge_uid": os.geteuid(),
                     "entries": sorted(os.listdir(d)) if name == "scratch" else []}
    return out


def judge_all(task_dir: Path, solutions: list[Path], settings=None) -> list[dict]:
    from ibench.judge import Judge
    from ibench.judge.settings import JudgeSettings
    from ibench.tasks.load import load_task

    judge = Judge(settings or JudgeSettings())
    task = load_task(task_dir)
    results = []
    for sol in solutions:
        language = "python" if sol.suffix == ".py" else "cpp"
        r = judge.judge(task, sol.read_text(), language)
        results.append({"solution": sol.name, "verdict": r.verdict.value, "message": r.message,
                        "sandbox": r.sandbox, "compile_message": r.compile.message,
                        "cached": r.compile.cached,
                        "stderr": [c.solver_stderr_tail for c in r.cases], "slot": slot_state(judge)})
    return results


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    for row in judge_all(Path(sys.argv[1]), [Path(p) for p in sys.argv[2:]]):
        print("BOX-RESULT " + json.dumps(row), flush=True)
