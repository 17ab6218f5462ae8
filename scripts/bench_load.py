"""The judge under load: CPU hogs beside it (two per CPU by default), and solutions whose CPU time
is a known share of their limit, judged many times. A verdict that moves with the load is a bug
(issue 16): a solution at 90-95 % of its limit must never be TLE, one at 105 % always, and a
solution that exits right after the interactor accepts must never be charged with the grace.

    python scripts/bench_load.py                      # 10 runs per row, 2 hogs per CPU
    python scripts/bench_load.py --runs 30 --validate guess-the-number

Each row's solution is the task's own accepted one (guess-the-number, in C++, Python, Java and Go)
with a loop put in front that burns the process's CPU (its own clock: all threads) up to the
given share of the limit. Prints a table of verdict counts and flips; exit 1 on any flip."""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TASK = ROOT / "tasks" / "guess-the-number"

# Where each language's accepted solution gets its burn loop, and the loop (TARGET in seconds).
BURN = {
    "cpp": ("int main() {", "int main() {\n    while ((double)clock() / CLOCKS_PER_SEC < TARGET) {}\n"),
    "python": ("def main() -> None:\n", "def main() -> None:\n    import time\n"
               "    while time.process_time() < TARGET:\n        pass\n"),
    "java": ("public static void main(String[] args) throws IOException {",
             "public static void main(String[] args) throws IOException {\n"
             "        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)\n"
             "            java.lang.management.ManagementFactory.getOperatingSystemMXBean();\n"
             "        while (os.getProcessCpuTime() < (long) (TARGET * 1e9)) {}\n"),
    "go": ("func main() {", "func burn() {\n\tvar ru syscall.Rusage\n\tfor {\n"
           "\t\tsyscall.Getrusage(syscall.RUSAGE_SELF, &ru)\n"
           "\t\tif float64(ru.Utime.Nano()+ru.Stime.Nano())/1e9 >= TARGET {\n\t\t\treturn\n\t\t}\n\t}\n}\n\n"
           "func main() {\n\tburn()\n"),
}


@dataclass
class Row:
    name: str
    language: str
    share: float | None  # of the language's CPU limit; None: the solution as it is (the grace row)
    expected: str


ROWS = [
    Row("C++ at 92 %", "cpp", 0.92, "OK"),
    Row("C++ at 95 %", "cpp", 0.95, "OK"),
    Row("C++ at 105 %", "cpp", 1.05, "TLE"),
    Row("Python at 92 %", "python", 0.92, "OK"),
    Row("Java at 90 %", "java", 0.90, "OK"),
    Row("Go at 92 %", "go", 0.92, "OK"),
    Row("exit right after accept (Python)", "python", None, "OK"),
    Row("exit right after accept (C++)", "cpp", None, "OK"),
]


def source_for(row: Row, limit_s: float) -> str:
    from ibench.languages import LANGUAGES

    src = (TASK / "solutions" / f"ok_binary_search{LANGUAGES[row.language].extensions[0]}").read_text()
    if row.share is None:
        return src
    anchor, burn = BURN[row.language]
    assert anchor in src, f"{row.language}: the accepted solution changed; no {anchor!r} in it"
    src = src.replace(anchor, burn.replace("TARGET", repr(round(row.share * limit_s, 4))), 1)
    if row.language == "go":
        src = src.replace("import (", 'import (\n\t"syscall"', 1)
    return src


def _hog() -> None:
    while True:
        pass


def start_hogs(per_cpu: int) -> list[mp.Process]:
    n = per_cpu * len(os.sched_getaffinity(0))
    hogs = [mp.Process(target=_hog, daemon=True) for _ in range(n)]
    for h in hogs:
        h.start()
    return hogs


def stop_hogs(hogs: list[mp.Process]) -> None:
    for h in hogs:
        h.kill()
    for h in hogs:
        h.join()


def run_rows(rows: list[Row], runs: int, judge=None, progress=print) -> list[dict]:
    """Judge each row's solution ``runs`` times (all cases): verdict counts, flips, CPU figures."""
    from ibench.judge import Judge, JudgeSettings
    from ibench.languages import LANGUAGES
    from ibench.tasks.load import load_task

    judge = judge or Judge(JudgeSettings(non_adaptive_cases=1))
    task = load_task(TASK)
    out = []
    for row in rows:
        factor = LANGUAGES[row.language].time_factor
        src = source_for(row, task.cpu_time_limit_ms * factor / 1000)
        verdicts: Counter[str] = Counter()
        cpu: list[float] = []
        messages: list[str] = []
        for _ in range(runs):
            r = judge.judge(task, src, row.language)
            verdicts[r.verdict.value] += 1
            cpu.append(max((c.cpu_ms for c in r.cases), default=0.0))
            if r.verdict.value != row.expected:
                messages.append(r.message[:160])
        flips = runs - verdicts[row.expected]
        out.append({"row": row.name, "expected": row.expected, "runs": runs, "verdicts": dict(verdicts),
                    "flips": flips, "cpu_ms": (min(cpu), statistics.median(cpu), max(cpu)), "messages": messages})
        progress(f"  {row.name}: {dict(verdicts)} (max CPU {max(cpu):.0f} ms)")
    return out


def validate_under_load(task_ids: list[str], cases: int | None = None) -> tuple[int, str]:
    """``python -m ibench.tasks validate`` of bundled tasks (every case, or ``cases`` of each pool)."""
    cmd = [sys.executable, "-m", "ibench.tasks", "validate", *[str(ROOT / "tasks" / t) for t in task_ids], "--jobs", "1"]
    if cases:
        cmd += ["--cases", str(cases)]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    return r.returncode, (r.stdout + r.stderr)[-3000:]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--hogs-per-cpu", type=int, default=2)
    ap.add_argument("--validate", nargs="*", default=[], metavar="TASK", help="also validate these bundled tasks under load")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    hogs = start_hogs(args.hogs_per_cpu)
    t0 = time.time()
    try:
        time.sleep(0.5)
        print(f"{len(hogs)} CPU hogs on {len(os.sched_getaffinity(0))} CPUs; load average {os.getloadavg()[0]:.1f}")
        results = run_rows(ROWS, args.runs)
        code, text = validate_under_load(args.validate) if args.validate else (0, "")
        load = os.getloadavg()[0]
    finally:
        stop_hogs(hogs)
    print(f"\n{'row':<36} {'expected':>8} {'runs':>5} {'flips':>6}  {'CPU ms min/median/max':>24}  verdicts")
    for r in results:
        lo, med, hi = r["cpu_ms"]
        print(f"{r['row']:<36} {r['expected']:>8} {r['runs']:>5} {r['flips']:>6}  {lo:>7.0f} {med:>7.0f} {hi:>7.0f}  "
              f"{r['verdicts']}")
        for m in r["messages"][:3]:
            print(f"    {m}")
    if args.validate:
        print(f"\nvalidate {' '.join(args.validate)} under load: {'passed' if code == 0 else 'FAILED'}")
        if code:
            print(text)
    print(f"\n{time.time() - t0:.0f} s, load average at the end {load:.1f}")
    return 1 if any(r["flips"] for r in results) or code else 0


if __name__ == "__main__":
    raise SystemExit(main())
