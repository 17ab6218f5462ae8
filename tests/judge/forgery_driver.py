"""Judges solutions of one task under given judge settings and prints one JSON line per solution
(verdict, message, each case's solver stderr tail and figures). The forgery tests run it in
process as root and, through ``ibench.judge.sandbox.unprivileged``, as an unprivileged user:
``python forgery_driver.py SPEC_JSON`` with {"task": DIR, "settings": {...}, "solutions": [...]}."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def judge_all(task_dir: str, solutions: list[str], settings: dict) -> list[dict]:
    from ibench.judge import Judge, JudgeSettings
    from ibench.tasks.load import load_task

    judge = Judge(JudgeSettings(**settings))
    task = load_task(Path(task_dir))
    rows = []
    for sol in map(Path, solutions):
        r = judge.judge(task, sol.read_text(), {".py": "python", ".java": "java", ".go": "go"}.get(sol.suffix, "cpp"))
        rows.append({"solution": sol.name, "verdict": r.verdict.value, "message": r.message, "sandbox": r.sandbox,
                     "stderr": [c.solver_stderr_tail for c in r.cases],
                     "cases": [{"verdict": c.verdict.value, "cpu_ms": c.cpu_ms, "peak_kb": c.peak_kb,
                                "message": c.message} for c in r.cases]})
    return rows


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    spec = json.loads(sys.argv[1])
    for row in judge_all(spec["task"], spec["solutions"], spec.get("settings", {})):
        print("FORGERY-RESULT " + json.dumps(row), flush=True)
