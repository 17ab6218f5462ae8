"""How long `python -m ibench.launch` takes to reject a bad setting (issue 22: under 2 s, before Ray).

    python scripts/bench_reject.py [--repeat 3] [--limit 2.0]

Runs the launch CLI on each bad command below (a value ibench checks, an unknown key, a value of
the wrong type, an unknown config name, an unknown task id, a sweep whose second job is bad, a
resume that would change the run), `--repeat` times each, and prints the wall time per case
(best and median), the exit status, and whether Ray or a run folder appeared. Exits 1 when any
case's best time is over `--limit` seconds or its exit status is not 2.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CASES = [
    ("a value ibench checks", ["sampling.n=-1"]),
    ("unknown key", ["sampling.temprature=0.5"]),
    ("wrong type", ["sampling.n=ten"]),
    ("unknown config name", ["model=qwen3-23b"]),
    ("unknown task id", ["bench.ids=[guess-the-numbr]"]),
    ("sweep, second job bad", ["-m", "sampling.n=2,-1"]),
    ("four problems at once", ["sampling.n=-1", "wandb.mode=x", "bench.difficulties=[Impossible]", "metrics.ks=[0]"]),
]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--limit", type=float, default=2.0, help="seconds a rejection may take (best of --repeat)")
    args = ap.parse_args()
    env = {**os.environ, "WANDB_MODE": "offline", "WANDB_SILENT": "true"}
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "outputs"
        print(f"{'case':<26} {'best s':>7} {'median s':>9}  rc  ray  folder  first line of the message")
        for name, extra in CASES:
            times, rc, first, ray, folder = [], None, "", False, False
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                flags = [a for a in extra if a.startswith("-")]
                cmd = [*flags, f"paths.output_dir={out}", *[a for a in extra if not a.startswith("-")]]
                proc = subprocess.run([sys.executable, "-m", "ibench.launch", *cmd],
                                      cwd=REPO, capture_output=True, text=True, env=env)
                times.append(time.perf_counter() - t0)
                rc = proc.returncode
                lines = proc.stderr.strip().splitlines()
                first = lines[1].strip() if len(lines) > 1 else (lines[0] if lines else "")
                ray |= "Ray" in proc.stdout + proc.stderr
                folder |= out.exists()
            best = min(times)
            ok = rc == 2 and best < args.limit and not ray and not folder
            bad += not ok
            print(f"{name:<26} {best:7.2f} {statistics.median(times):9.2f}  {rc:>2}  {'yes' if ray else 'no':>3}  "
                  f"{'yes' if folder else 'no':>6}  {first[:90]}")
    print(f"{len(CASES) - bad}/{len(CASES)} rejected with exit 2 in under {args.limit:g} s, before Ray, no folder left")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
