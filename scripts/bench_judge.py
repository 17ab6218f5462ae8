#!/usr/bin/env python3
"""Judge speed benchmark (prints figures; not a test).

1. Median wall ms per interactive case through the judge, against the floor measured in the
   same run: the same two programs joined by os.pipe and started with subprocess, nothing else.
   Target: judge <= 1.2x floor. Also the lightest case (one answer, no query), where the fixed
   cost of the sandbox weighs most.
2. Compile ms of typical solutions (the bundled tasks' accepted solutions): plain g++, with the
   precompiled <bits/stdc++.h>, and a cache hit. Targets: precompiled >= 3.5x faster than plain; cache hit < 20 ms.

    python scripts/bench_judge.py [--cases 200] [--compiles 12] [--unprivileged]
    python scripts/bench_judge.py --both      # per case and per sample, root and user-namespace box, one table
    python scripts/bench_judge.py --round-trips   # us per query round trip: floor on one CPU / two / as placed, judge
    python scripts/bench_judge.py --phases    # where a lightest case's time goes inside the supervisor
                                              # (IBENCH_BENCH_PIN=0 / IBENCH_BENCH_ISOLATION=rlimit: the same, unpinned / boxless)

--unprivileged (as root) runs the same benchmark as an unprivileged user, the way a Slurm node
judges: the box is then built through a user namespace.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ibench.judge import Judge, JudgeSettings  # noqa: E402
from ibench.tasks.model import Case, InteractorMode, Task, TaskKind  # noqa: E402

INTERACTOR = r"""
#include "testlib.h"
int main(int argc, char** argv) {
    registerInteraction(argc, argv);
    int x = inf.readInt();
    int limit = 12, q = 0;
    tout << "queries=0\nquery_limit=" << limit << "\n";
    while (true) {
        std::string op = ouf.readToken("[?!]");
        int v = ouf.readInt(1, 1000, "v");
        if (op == "!") {
            tout << "queries=" << q << "\nquery_limit=" << limit << "\n";
            if (v == x) quitf(_ok, "guessed in %d queries", q);
            quitf(_wa, "expected %d, found %d", x, v);
        }
        q++;
        std::cout << (v < x ? "<" : v > x ? ">" : "=") << std::endl;
    }
}
"""

SOLVER = r"""
#include <bits/stdc++.h>
using namespace std;
int main() {
    int lo = 1, hi = 1000;
    while (lo < hi) {
        int m = (lo + hi) / 2;
        cout << "? " << m << endl;
        string r; cin >> r;
        if (r == "=") { lo = hi = m; break; }
        if (r == "<") lo = m + 1; else hi = m - 1;
    }
    cout << "! " << lo << endl;
}
"""

# A typical model-written solution: the usual template, some STL, a little work.
TYPICAL = r"""
#include <bits/stdc++.h>
using namespace std;
typedef long long ll;
// NONCE
int main() {
    ios::sync_with_stdio(false); cin.tie(nullptr);
    int n; if (!(cin >> n)) return 0;
    vector<ll> a(n); for (auto& x : a) cin >> x;
    map<ll, int> cnt; for (ll x : a) cnt[x]++;
    priority_queue<pair<int, ll>> pq; for (auto& [k, v] : cnt) pq.push({v, k});
    set<ll> s(a.begin(), a.end()); unordered_map<ll, ll> um;
    sort(a.begin(), a.end()); cout << accumulate(a.begin(), a.end(), 0LL) << "\n";
}
"""


def make_task(root: Path, n_cases: int) -> Task:
    t = root / "bench-guess"
    (t / "interactor").mkdir(parents=True)
    (t / "cases").mkdir()
    (t / "interactor" / "non_adaptive.cpp").write_text(INTERACTOR)
    cases = []
    for i in range(1, min(n_cases, 100) + 1):
        p = t / "cases" / f"{i:03d}.in"
        p.write_text(f"{(i * 7919) % 1000 + 1}\n")
        cases.append(Case(f"{i:03d}", p, interactor="non_adaptive"))
    return Task(root=t, task_id="bench-guess", kind=TaskKind.INTERACTIVE, cpu_time_limit_ms=1000,
                memory_limit_mb=256, difficulty="Easy", categories=("Search",), cases=tuple(cases),
                interactor_mode=InteractorMode.NON_ADAPTIVE,
                interactors={"non_adaptive": t / "interactor" / "non_adaptive.cpp"})


def floor_case(solver: Path, interactor: Path, case: Path, tout: Path,
               cpus: tuple[set[int], set[int]] | None = None) -> float:
    """Two processes on os.pipe via subprocess: the least any harness can do. ``cpus``: where
    the interactor and the solver may run (default: wherever the scheduler puts them); set on
    this process around each start and inherited, so that subprocess keeps its fast spawn path."""
    mine = os.sched_getaffinity(0)
    t0 = time.perf_counter()
    a_r, a_w = os.pipe()  # solver -> interactor
    b_r, b_w = os.pipe()  # interactor -> solver
    try:
        if cpus:
            os.sched_setaffinity(0, cpus[0])
        pi = subprocess.Popen([str(interactor), str(case), str(tout)], stdin=a_r, stdout=b_w, stderr=subprocess.DEVNULL)
        if cpus:
            os.sched_setaffinity(0, cpus[1])
        ps = subprocess.Popen([str(solver)], stdin=b_r, stdout=a_w)
    finally:
        if cpus:
            os.sched_setaffinity(0, mine)
    for fd in (a_r, a_w, b_r, b_w):
        os.close(fd)
    ps.wait()
    pi.wait()
    if pi.returncode != 0:
        raise RuntimeError(f"floor run failed: interactor exit {pi.returncode}")
    return (time.perf_counter() - t0) * 1000


def bench_cases(judge: Judge, task: Task, n: int, source: str = SOLVER, one_case: bool = False,
                per_sample: bool = False) -> dict:
    """Median wall ms per case through the judge vs the floor, interleaved. ``per_sample``: every
    case is a sample of its own (a new box and network namespace each time, as the first case of
    every sample pays); otherwise the cases share one sample's box, as a sample's later cases do."""
    src_dir = Path(tempfile.mkdtemp(prefix="ibench-bench-"))
    prog = judge.compile_solution(task, source)
    assert prog.binary is not None, prog.info.message
    interactor = judge.compile_tool(task, task.interactors["non_adaptive"])
    tout = src_dir / "tout"
    floor, through = [], []
    for i in range(n):
        case = task.cases[0 if one_case else i % len(task.cases)]
        # Interleaved so that load drift hits both sides alike.
        floor.append(floor_case(prog.binary, interactor, case.input_path, tout))
        t0 = time.perf_counter()
        if per_sample:
            judge.sandbox.new_sample()
        r = judge.interactive.run_case(task, case, prog, interactor)
        through.append((time.perf_counter() - t0) * 1000)
        if r.verdict.value != "OK":
            raise RuntimeError(f"judge run failed on case {case.name}: {r.verdict} {r.message}")
    f, j = statistics.median(floor), statistics.median(through)
    return {"cases": n, "floor_ms": round(f, 3), "judge_ms": round(j, 3), "ratio": round(j / f, 3),
            "sandbox": judge.sandbox.label}


def corpus(limit: int) -> list[str]:
    """Typical solutions: the bundled tasks' accepted solutions (real competitive programs)."""
    root = Path(__file__).resolve().parents[1] / "tasks"
    found = []
    for exp in sorted(root.glob("*/solutions/expected.json")):
        for name, entry in json.loads(exp.read_text()).items():
            if entry.get("expected") == "OK" and name.endswith(".cpp"):
                found.append((exp.parent / name).read_text())
    step = max(1, len(found) // limit) if limit else 1
    return found[::step][:limit] if found else [TYPICAL]


def bench_compile(n: int) -> dict:
    """Median over a corpus of real solutions, each compiled fresh (a nonce defeats the cache)
    plainly and with the precompiled header, then once more unchanged (a cache hit)."""
    sources = corpus(n)
    cache = tempfile.mkdtemp(prefix="ibench-bench-cache-")
    task = make_task(Path(tempfile.mkdtemp(prefix="ibench-bench-")), 1)
    plain_judge = Judge(JudgeSettings(precompiled_header=False, cache_dir=cache))
    pch_judge = Judge(JudgeSettings(precompiled_header=True, cache_dir=cache))
    pch_judge.compile_solution(task, TYPICAL)  # builds the PCH once per machine, outside the timing

    def timed(judge: Judge, src: str) -> float:
        t0 = time.perf_counter()
        prog = judge.compile_solution(task, src)
        assert prog.binary is not None, prog.info.message
        return (time.perf_counter() - t0) * 1000

    plain, pch, hit, ratios = [], [], [], []
    for src in sources:
        p = timed(plain_judge, f"{src}\n// {uuid.uuid4().hex}\n")
        fresh = f"{src}\n// {uuid.uuid4().hex}\n"
        q = timed(pch_judge, fresh)
        hit.append(timed(pch_judge, fresh))
        plain.append(p)
        pch.append(q)
        ratios.append(p / q)
    med = statistics.median
    return {"programs": len(sources), "plain_ms": round(med(plain), 1), "pch_ms": round(med(pch), 1),
            "pch_speedup": round(med(ratios), 2), "cache_hit_ms": round(med(hit), 2)}


# One query per value from 1 up: as many round trips as the hidden number (920 on case 001).
SCAN = r"""
#include <bits/stdc++.h>
using namespace std;
int main() {
    for (int m = 1;; m++) {
        cout << "? " << m << endl;
        string r; cin >> r;
        if (r == "=") { cout << "! " << m << endl; return 0; }
    }
}
"""


def bench_round_trips(n: int) -> dict:
    """Microseconds per query round trip (SCAN against the bench interactor, its budget raised):
    the floor as the scheduler places the two processes, the floor with both on one CPU and on
    two, and the judge. The spread between the floor's placements is what the interactive
    case's ratio moves with on an idle machine."""
    global INTERACTOR
    saved, INTERACTOR = INTERACTOR, INTERACTOR.replace("limit = 12", "limit = 100000")
    try:
        task = make_task(Path(tempfile.mkdtemp(prefix="ibench-bench-")), 1)
    finally:
        INTERACTOR = saved
    judge = Judge(JudgeSettings())
    prog = judge.compile_solution(task, SCAN)
    assert prog.binary is not None, prog.info.message
    interactor = judge.compile_tool(task, task.interactors["non_adaptive"])
    case = task.cases[0]
    trips = int(case.input_path.read_text())
    tout = Path(tempfile.mkdtemp(prefix="ibench-bench-")) / "tout"
    cpus = sorted(os.sched_getaffinity(0))
    places: dict[str, tuple[set[int], set[int]] | None] = {"floor, placed by the scheduler": None,
                                                           "floor, both on one CPU": ({cpus[0]}, {cpus[0]})}
    if len(cpus) > 1:
        places["floor, one CPU each"] = ({cpus[0]}, {cpus[1]})
    times: dict[str, list[float]] = {name: [] for name in [*places, "judge"]}
    for _ in range(n):
        for name, where in places.items():
            times[name].append(floor_case(prog.binary, interactor, case.input_path, tout, where))
        t0 = time.perf_counter()
        r = judge.interactive.run_case(task, case, prog, interactor)
        times["judge"].append((time.perf_counter() - t0) * 1000)
        if r.verdict.value != "OK":
            raise RuntimeError(f"judge run failed: {r.verdict} {r.message}")
    return {"round_trips": trips, "sandbox": judge.sandbox.label,
            "us_per_round_trip": {k: round(statistics.median(v) * 1000 / trips, 1) for k, v in times.items()}}


LIGHT = "#include <cstdio>\nint main() { printf(\"! ANSWER\\n\"); }\n"


PHASES = ("request read", "interactor's descriptors (its fork follows)",
          "box clean-up waited, counters reset, solver handed to the box",
          "solver ended (its box's record)", "interactor ended, run over", "counters read, report begins")


def bench_phases(judge: Judge, task: Task, n: int, source: str) -> dict:
    """Where a lightest case's time goes: the supervisor's clock readings (IBENCH_SUPERVISOR_PHASES)
    inside the judge's wall time, beside the floor of the same run."""
    from ibench.judge.sandbox import run as sandbox_run

    prog = judge.compile_solution(task, source)
    interactor = judge.compile_tool(task, task.interactors["non_adaptive"])
    case = task.cases[0]
    tout = Path(tempfile.mkdtemp(prefix="ibench-bench-")) / "tout"
    seen: list[tuple[float, str]] = []
    original = sandbox_run.Sandbox._request

    def timed(self, args):
        t0 = time.perf_counter()
        text = original(self, args)
        seen.append(((time.perf_counter() - t0) * 1000, text))
        return text

    sandbox_run.Sandbox._request = timed
    floor, through = [], []
    try:
        for i in range(n + 10):
            f = floor_case(prog.binary, interactor, case.input_path, tout)
            t0 = time.perf_counter()
            judge.interactive.run_case(task, case, prog, interactor)
            if i >= 10:  # warm
                floor.append(f)
                through.append((time.perf_counter() - t0) * 1000)
    finally:
        sandbox_run.Sandbox._request = original
    seen = seen[10:]
    marks = [[int(x) / 1000 for x in text.split("phases_us=")[1].split()[0].split(",")] for _, text in seen
             if "phases_us=" in text]
    if not marks:
        return {}
    med = [statistics.median(m[i] for m in marks) for i in range(6)]
    # the solver's end is the fifth reading of the list; run_case's order of readings is otherwise kept
    points = [med[0], med[1], med[2], med[5], med[3], med[4]]
    return {"floor_ms": statistics.median(floor), "judge_ms": statistics.median(through),
            "request_ms": statistics.median(t for t, _ in seen), "points_ms": points}


def run_unprivileged(argv: list[str], capture: bool = False):
    """This benchmark again, as an unprivileged user (the judge then builds its box through a
    user namespace)."""
    from ibench.judge.sandbox.unprivileged import NOBODY, unprivileged_command

    home = Path(tempfile.mkdtemp(prefix="ibench-bench-nobody-"))
    os.chmod(home, 0o755)
    os.chown(home, NOBODY, NOBODY)
    cmd = unprivileged_command([sys.executable, str(Path(__file__).resolve()),
                                *[a for a in argv if a != "--unprivileged"]], home,
                               needs=[Path(__file__).resolve().parents[1]])
    if isinstance(cmd, str):
        print(f"cannot run unprivileged here: {cmd}", file=sys.stderr)
        return {} if capture else 2
    if not capture:
        return subprocess.run(cmd).returncode
    out = subprocess.run(cmd, capture_output=True, text=True).stdout.strip().splitlines()
    data = json.loads(out[-1]) if out else {}
    rows = data.get("rows", {})
    return {"rows": rows, "label": next(iter(rows.values()))["sandbox"] if rows else "userns"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--compiles", type=int, default=12, help="how many bundled accepted solutions to compile")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--unprivileged", action="store_true", help="as root: run as an unprivileged user (user-namespace box)")
    ap.add_argument("--both", action="store_true", help="as root: per case and per sample, lightest and interactive, "
                                                      "root and user-namespace box side by side (no compile figures)")
    ap.add_argument("--modes", action="store_true", help=argparse.SUPPRESS)  # the rows as JSON (for --both)
    ap.add_argument("--phases", action="store_true", help="where a lightest case's time goes, inside the supervisor")
    ap.add_argument("--round-trips", action="store_true", help="microseconds per query round trip: the floor on one "
                                                             "CPU, on two, as placed, and the judge")
    args = ap.parse_args()
    if args.unprivileged:
        return run_unprivileged(sys.argv[1:])
    if args.round_trips:
        rt = bench_round_trips(max(5, args.cases // 10))
        print(f"query round trips ({rt['round_trips']} per case, sandbox {rt['sandbox']}; median us per round trip):")
        for name, us in rt["us_per_round_trip"].items():
            print(f"  {name:32s} {us:7.1f}")
        return 0
    if args.phases:
        os.environ["IBENCH_SUPERVISOR_PHASES"] = "1"  # read by the supervisor server it starts
        judge = Judge(JudgeSettings(pin_cpu=os.environ.get("IBENCH_BENCH_PIN", "1") == "1",
                                    isolation=os.environ.get("IBENCH_BENCH_ISOLATION", "auto")))
        task = make_task(Path(tempfile.mkdtemp(prefix="ibench-bench-")), 1)
        light_src = LIGHT.replace("ANSWER", task.cases[0].input_path.read_text().strip())
        r = bench_phases(judge, task, args.cases, light_src)
        print(f"lightest case, {args.cases} runs, sandbox {judge.sandbox.label} (medians, ms from the request's start):")
        print(f"  floor (2 processes on os.pipe via subprocess): {r['floor_ms']:.3f}")
        print(f"  run_case in Python: {r['judge_ms']:.3f}   of which the supervisor request: {r['request_ms']:.3f}")
        prev = 0.0
        for name, at in zip(PHASES, r["points_ms"]):
            print(f"  {at:7.3f}  (+{at - prev:6.3f})  {name}")
            prev = at
        print(f"  Python around the request: {r['judge_ms'] - r['request_ms']:.3f}; "
              f"request beyond the supervisor's readings: {r['request_ms'] - r['points_ms'][-1]:.3f}")
        return 0
    judge = Judge(JudgeSettings())
    task = make_task(Path(tempfile.mkdtemp(prefix="ibench-bench-")), 100)
    answer = task.cases[0].input_path.read_text().strip()
    light_src = LIGHT.replace("ANSWER", answer)
    rows = {"interactive, per case": bench_cases(judge, task, args.cases),
            "lightest, per case": bench_cases(judge, task, args.cases, light_src, one_case=True),
            "interactive, per sample (1 case)": bench_cases(judge, task, args.cases, per_sample=True),
            "lightest, per sample (1 case)": bench_cases(judge, task, args.cases, light_src, one_case=True,
                                                         per_sample=True)}
    cases, light = rows["interactive, per case"], rows["lightest, per case"]
    if args.modes:
        print(json.dumps({"rows": rows}))
        return 0
    if args.both and os.geteuid() == 0:
        # the user-namespace box: the same rows, as an unprivileged user, in this one run
        un = run_unprivileged([a for a in sys.argv[1:] if a != "--both"] + ["--modes"], capture=True)
        print(f"{'sandbox':28s} {'case':34s} {'floor ms':>9s} {'judge ms':>9s} {'ratio':>6s}   (target <= 1.2)")
        for label, table in ((judge.sandbox.label, rows), (un.get("label", "userns"), un.get("rows", {}))):
            for name, r in table.items():
                print(f"{label:28s} {name:34s} {r['floor_ms']:9.2f} {r['judge_ms']:9.2f} {r['ratio']:6.2f}")
        if not un:
            print("  (user-namespace mode not run here)")
        return 0
    comp = bench_compile(args.compiles)
    if args.json:
        print(json.dumps({"interactive": cases, "lightest": light, "compile": comp, "rows": rows}))
        return 0
    for name, r in rows.items():
        if "per sample" in name:
            print(f"{name} ({r['cases']} runs): floor {r['floor_ms']:.2f} ms, judge {r['judge_ms']:.2f} ms, "
                  f"ratio {r['ratio']:.2f}")
    print(f"interactive case ({cases['cases']} runs, sandbox {cases['sandbox']}):")
    print(f"  floor (2 processes on os.pipe via subprocess): {cases['floor_ms']:8.2f} ms median")
    print(f"  through the judge:                            {cases['judge_ms']:8.2f} ms median")
    print(f"  ratio judge/floor: {cases['ratio']:.2f}  (target <= 1.2)")
    print(f"lightest case (one answer, no query; {light['cases']} runs):")
    print(f"  floor {light['floor_ms']:.2f} ms, judge {light['judge_ms']:.2f} ms, ratio {light['ratio']:.2f}")
    print(f"compile of typical solutions ({comp['programs']} accepted solutions of the bundled tasks, median):")
    print(f"  plain g++:              {comp['plain_ms']:8.1f} ms")
    print(f"  precompiled header:     {comp['pch_ms']:8.1f} ms   speed-up {comp['pch_speedup']:.2f}x (target >= 3.5)")
    print(f"  cache hit:              {comp['cache_hit_ms']:8.2f} ms   (target < 20)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
