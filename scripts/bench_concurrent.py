"""One host, many judges: N judge processes side by side, each with a runtime dir of its own (as
two installs, a test run and an evaluation on one node would be), judging a mix of a task's
known solutions (accepted, wrong, too slow, idle, hostile) for a fixed number of samples.

First each solution is judged once by one judge alone (the solo run). Then prints, per process
and in all: crashes (a process that died or raised), SE verdicts, verdicts that differ from the
solo run's (a flip), and samples a second. Run as root for the full picture (slot uids and cgroups are the host's only as root).

    python scripts/bench_concurrent.py --procs 4 --samples 500
    python scripts/bench_concurrent.py --procs 4 --samples 60 --task tasks/guess-the-number --cases 3
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WORKER = r"""
import json, sys, time
from pathlib import Path
from ibench.judge import Judge, JudgeSettings
from ibench.tasks.load import load_task
spec = json.loads(sys.argv[1])
task = load_task(Path(spec["task"]))
judge = Judge(JudgeSettings(non_adaptive_cases=spec["cases"], adaptive_cases=spec["cases"]))
langs = {".py": "python", ".java": "java", ".go": "go"}
for name in spec["order"]:
    path = Path(spec["task"]) / "solutions" / name
    t0 = time.perf_counter()
    try:
        r = judge.judge(task, path.read_text(), langs.get(path.suffix, "cpp"))
        row = {"solution": name, "verdict": r.verdict.value, "message": r.message[:200]}
    except Exception as e:  # a crash: the judge must never raise on a sample
        row = {"solution": name, "verdict": "CRASH", "message": f"{type(e).__name__}: {e}"[:300]}
    row["s"] = time.perf_counter() - t0
    print("ROW " + json.dumps(row), flush=True)
"""


def plan(task: Path, samples: int, seed: int) -> list[str]:
    """The samples: the task's known solutions of the interactive variant, drawn at random."""
    expected = json.loads((task / "solutions" / "expected.json").read_text())
    names = sorted(name for name, e in expected.items()
                   if (task / "solutions" / name).exists() and e.get("variant", "interactive") == "interactive")
    rng = random.Random(seed)
    return [rng.choice(names) for _ in range(samples)]


def launch(spec: dict, runtime_dir: Path) -> subprocess.Popen:
    env = {**os.environ, "IBENCH_RUNTIME_DIR": str(runtime_dir), "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", WORKER, json.dumps(spec)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def rows_of(out: str) -> list[dict]:
    return [json.loads(line[4:]) for line in out.splitlines() if line.startswith("ROW ")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--procs", type=int, default=4)
    ap.add_argument("--samples", type=int, default=500, help="in all, shared out over the processes")
    ap.add_argument("--task", type=Path, default=ROOT / "tasks" / "guess-the-number")
    ap.add_argument("--cases", type=int, default=2, help="cases of each pool per sample")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    order = plan(args.task.resolve(), args.samples, args.seed)
    dirs = [Path(tempfile.mkdtemp(prefix=f"ibench-rt{i}-")) for i in range(args.procs + 1)]
    # The solo run: each solution once, one judge alone; a flip is a verdict that differs from it.
    t_solo = time.perf_counter()
    solo_out, solo_err = launch({"task": str(args.task.resolve()), "order": sorted(set(order)), "cases": args.cases},
                                dirs[-1]).communicate()
    solo = {r["solution"]: r["verdict"] for r in rows_of(solo_out)}
    if len(solo) < len(set(order)) or any(v in ("CRASH", "SE") for v in solo.values()):
        print(f"the solo run did not judge every solution cleanly: {solo}\n{solo_err[-1500:]}")
        return 1
    print(f"solo run: {len(solo)} solutions in {time.perf_counter() - t_solo:.0f} s")
    accepts = {name: {v} for name, v in solo.items()}
    share = [order[i::args.procs] for i in range(args.procs)]
    t0 = time.perf_counter()
    procs = [launch({"task": str(args.task.resolve()), "order": part, "cases": args.cases}, dirs[i])
             for i, part in enumerate(share)]
    totals = {"samples": 0, "crashes": 0, "se": 0, "flips": 0}
    flips: list[str] = []
    print(f"{'proc':>4} {'samples':>8} {'crashes':>8} {'SE':>4} {'flips':>6} {'exit':>5}")
    for i, p in enumerate(procs):
        out, err = p.communicate()
        rows = rows_of(out)
        crashes = sum(r["verdict"] == "CRASH" for r in rows) + (len(rows) < len(share[i]))
        se = sum(r["verdict"] == "SE" for r in rows)
        bad = [r for r in rows if r["verdict"] not in accepts[r["solution"]] and r["verdict"] not in ("CRASH", "SE")]
        flips += [f"proc {i}: {r['solution']}: {r['verdict']} (alone: {'/'.join(sorted(accepts[r['solution']]))}): "
                  f"{r['message']}" for r in bad]
        print(f"{i:>4} {len(rows):>8} {crashes:>8} {se:>4} {len(bad):>6} {p.returncode:>5}")
        if p.returncode != 0 or len(rows) < len(share[i]):
            print(f"     stderr: {err.strip()[-600:]}")
        totals["samples"] += len(rows)
        totals["crashes"] += crashes
        totals["se"] += se
        totals["flips"] += len(bad)
    wall = time.perf_counter() - t0
    for d in dirs:
        shutil.rmtree(d, ignore_errors=True)
    print(f" all {totals['samples']:>8} {totals['crashes']:>8} {totals['se']:>4} {totals['flips']:>6}")
    print(f"{totals['samples'] / wall:.2f} samples/s over {wall:.0f} s, {args.procs} judge processes, "
          f"{args.procs} runtime dirs")
    for line in flips[:20]:
        print("flip:", line)
    return 0 if not (totals["crashes"] or totals["se"] or totals["flips"]) else 1


if __name__ == "__main__":
    sys.exit(main())
