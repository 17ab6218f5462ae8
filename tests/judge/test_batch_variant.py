"""The batch variant (InteractBench C.1, ``judge.variant=batch``): the solver receives the
interactor's own input file on stdin before the interaction, and the same interactor judges the
final answer.

What a program gets under each variant (decided here, documented in docs/JUDGE.md):
- a batch-variant solution (it reads the case first) gets its declared label under the batch
  variant, and IDLE under the interactive one (it waits for data that never comes);
- a solution written for the interaction gets no special treatment under the batch variant: it
  reads the case's tokens as if they were the judge's messages, and the interactor judges what it
  then writes (guess-the-number's binary search: WA).

The prefill takes two paths in the supervisor, both checked in every mode the judge runs in
(root box of a sample, one-case box, rlimit, and the user-namespace box as an unprivileged user):
written straight into the solver's enlarged stdin pipe when it fits, or through a relay child of
the supervisor when it does not (a hidden case over 1 MiB)."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from judge_fixtures import make_public, public_dir

from ibench.judge import Judge, JudgeSettings
from ibench.judge.sandbox.run import Sandbox, _SERVER
from ibench.judge.sandbox.unprivileged import NOBODY, unprivileged_command
from ibench.tasks.load import load_task

REPO = Path(__file__).resolve().parents[2]
CASES = 6  # of each bundled task: enough for every declared label, quick on 2 cores
BATCH_VARIANT_TASKS = ("guess-the-number", "three-remainders", "missing-number-bit-probe", "tree-diameter-by-distance")

# A temp task whose second case is bigger than any pipe the kernel grants without root's say-so
# (fs/pipe-max-size, 1 MiB by default): its prefill must take the relay.
SUM_INTERACTOR = r"""
#include "testlib.h"
#include <csignal>
int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);
    int n = inf.readInt(1, 1000000, "n");
    long long sum = 0;
    for (int i = 0; i < n; i++) sum += inf.readInt(0, 1000000000, "a");
    tout << "queries=0\nquery_limit=0" << std::endl;
    std::cout << n << std::endl;
    long long got = ouf.readLong();
    if (got != sum) quitf(_wa, "expected %lld, got %lld", sum, got);
    quitf(_ok, "sum of %d numbers", n);
}
"""
SUM_OK = r"""
#include <bits/stdc++.h>
int main() {
    int n; if (scanf("%d", &n) != 1) return 0;
    long long s = 0;
    for (int i = 0; i < n; i++) { long long a; if (scanf("%lld", &a) != 1) return 0; s += a; }
    int m; if (scanf("%d", &m) != 1 || m != n) return 0;   // the judge's message after the data
    printf("%lld\n", s); fflush(stdout);
}
"""
SUM_WA = SUM_OK.replace('printf("%lld\\n", s)', 'printf("%lld\\n", s + 1)')
# Never reads its stdin: the relay stays blocked on a full pipe until the case ends.
SUM_IDLE = "#include <unistd.h>\nint main() { for (;;) pause(); }\n"
SOLUTIONS = {"ok.cpp": (SUM_OK, "OK"), "wa.cpp": (SUM_WA, "WA"), "idle.cpp": (SUM_IDLE, "IDLE")}
BIG_N = 250_000  # ~2.5 MB of hidden data


def build_sum_task(root: Path) -> Path:
    t = root / "hidden-sum"
    for d in ("interactor", "cases", "solutions"):
        (t / d).mkdir(parents=True)
    (t / "desc.md").write_text("The judge holds n numbers and sends n; print their sum.\n")
    (t / "meta.json").write_text(json.dumps({
        "problem_id": "hidden-sum", "interactor_mode": "non_adaptive", "cpu_time_limit_ms": 1000,
        "memory_limit_mb": 256, "difficulty": "Easy", "categorization": ["Math"],
        "hidden_input_format": "a line with n, then a line with the n numbers"}))
    (t / "interactor" / "non_adaptive.cpp").write_text(SUM_INTERACTOR)
    rng = random.Random(7)
    for i, n in enumerate((5, BIG_N), 1):
        nums = " ".join(str(rng.randrange(10**8, 10**9)) for _ in range(n))
        (t / "cases" / f"{i:03d}.in").write_text(f"{n}\n{nums}\n")
    expected = {}
    for name, (code, label) in SOLUTIONS.items():
        (t / "solutions" / name).write_text(code)
        expected[name] = {"expected": label, "variant": "batch"}
    (t / "solutions" / "expected.json").write_text(json.dumps(expected))
    return t


@pytest.fixture(scope="module")
def sum_task():
    base = public_dir("ibench-batch-variant-")
    root = build_sum_task(base)
    make_public(base)
    yield root
    shutil.rmtree(base, ignore_errors=True)


def judge_recording(judge: Judge, task, source: str) -> tuple[str, list[tuple[str, str, int | None]]]:
    """(sample verdict, [(case verdict, prefill path, prefill bytes)]): the supervisor's report of
    each run, read as the grader gets it."""
    reports = []
    real = judge.sandbox.run

    def run(req, *a, **kw):
        r = real(req, *a, **kw)
        reports.append(r)
        return r

    judge.sandbox.run = run
    try:
        res = judge.judge(task, source)
    finally:
        del judge.sandbox.run
    runs = [r for r in reports if r.interactor is not None]
    return res.verdict.value, [(c.verdict.value, r.prefill, r.prefill_bytes) for c, r in zip(res.cases, runs)]


def server_children() -> list[int]:
    """The children the slot's supervisor server still has between samples (its sample box at most)."""
    server = _SERVER.get("proc")
    if server is None or server.poll() is not None:
        return []
    text = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text()
    return [int(p) for p in text.split()]


def check_sum_rows(rows: dict, case_sizes: list[int]) -> None:
    ok_verdict, ok_cases = rows["ok.cpp"]
    assert ok_verdict == "OK", rows
    # the small case fits the pipe, the big one takes the relay; both reach the solver whole
    assert [c[1] for c in ok_cases] == ["direct", "relay"], ok_cases
    assert [c[2] for c in ok_cases] == case_sizes
    assert rows["wa.cpp"][0] == "WA" and rows["wa.cpp"][1][0][1] == "direct"
    assert rows["idle.cpp"][0] == "IDLE", rows["idle.cpp"]


def sum_case_sizes(task_root: Path) -> list[int]:
    return [(task_root / "cases" / f"{i:03d}.in").stat().st_size for i in (1, 2)]


def judge_sum_task(judge: Judge, task_root: Path) -> dict:
    task = load_task(task_root)
    rows = {}
    for name in SOLUTIONS:
        source = (task_root / "solutions" / name).read_text()
        if name == "idle.cpp":
            # only the big case: the relay is blocked writing to a solver that never reads
            by_name = {c.name: c for c in task.cases}
            reports = []
            real = judge.sandbox.run
            judge.sandbox.run = lambda req, *a, **kw: reports.append(real(req, *a, **kw)) or reports[-1]
            try:
                res = judge.judge(task, source, cases=[by_name["002"]])
            finally:
                del judge.sandbox.run
            rows[name] = (res.verdict.value, [(c.verdict.value, r.prefill, r.prefill_bytes)
                                              for c, r in zip(res.cases, [r for r in reports if r.interactor])])
        else:
            rows[name] = judge_recording(judge, task, source)
    return rows


# ---- the bundled batch-variant known solutions ----------------------------------------------

@pytest.fixture(scope="module")
def batch_variant_judge():
    return Judge(JudgeSettings(variant="batch", non_adaptive_cases=CASES, adaptive_cases=CASES))


@pytest.mark.parametrize("task_id", BATCH_VARIANT_TASKS)
def test_batch_variant_known_solutions_get_their_labels(batch_variant_judge, task_id):
    task = load_task(REPO / "tasks" / task_id)
    sols = [s for s in task.solutions if s.variant == "batch"]
    assert any(s.accepted for s in sols) and any(not s.accepted for s in sols), "an OK one and a probe at least"
    for sol in sols:
        res = batch_variant_judge.judge(task, sol.path.read_text())
        assert res.verdict.value == sol.expected_for(all_cases=False), (sol.path.name, res.message)


def test_the_interactive_variant_is_unchanged_by_the_setting(batch_variant_judge):
    """The same interactive solutions, judged with variant=interactive, keep their labels (and no
    prefill reaches them)."""
    task = load_task(REPO / "tasks" / "guess-the-number")
    judge = Judge(JudgeSettings(non_adaptive_cases=CASES))
    for name in ("ok_binary_search.cpp", "wa_flipped_reply.cpp", "qle_linear_scan.cpp", "pe_malformed_token.cpp"):
        sol = next(s for s in task.solutions if s.path.name == name)
        verdict, cases = judge_recording(judge, task, sol.path.read_text())
        assert verdict == sol.expected_for(all_cases=False), name
        assert all(c[1] == "" for c in cases), cases


def test_each_variant_on_the_other_variants_solution(batch_variant_judge):
    task = load_task(REPO / "tasks" / "guess-the-number")
    sols = task.root / "solutions"
    # written for the interaction, it reads the case as the judge's messages: the interactor's WA
    assert batch_variant_judge.judge(task, (sols / "ok_binary_search.cpp").read_text()).verdict.value == "WA"
    # written for the batch variant, it waits for the hidden data the interaction never sends
    interactive = Judge(JudgeSettings(non_adaptive_cases=2))
    assert interactive.judge(task, (sols / "batch_ok_read_case.cpp").read_text()).verdict.value == "IDLE"


def test_batch_variant_skips_grader_linked_tasks():
    """A grader-linked task is never given the case (its solution has no stdin of its own)."""
    from ibench.judge.interactive import prefills

    linked = load_task(REPO / "tasks" / "sort-the-boxes")
    assert linked.grader_files and not prefills(linked, JudgeSettings(variant="batch"))
    plain = load_task(REPO / "tasks" / "guess-the-number")
    assert prefills(plain, JudgeSettings(variant="batch")) and not prefills(plain, JudgeSettings())
    assert JudgeSettings(variant="both").problems() and not JudgeSettings(variant="batch").problems()


# ---- the two prefill paths, in every mode -----------------------------------------------------

def test_prefill_direct_and_relay_in_a_samples_box(sum_task):
    judge = Judge(JudgeSettings(variant="batch"))
    if os.geteuid() == 0 and not judge.sandbox.boxed:
        pytest.skip(f"no box on this host: {judge.sandbox.warnings}")
    rows = judge_sum_task(judge, sum_task)
    check_sum_rows(rows, sum_case_sizes(sum_task))
    # every child of the case (interactor, relay, solver) was ended and reaped: only the
    # sample's box (its init) may outlive a case
    assert len(server_children()) <= 1, server_children()


def test_prefill_in_rlimit_mode(sum_task):
    rows = judge_sum_task(Judge(JudgeSettings(variant="batch", isolation="rlimit")), sum_task)
    check_sum_rows(rows, sum_case_sizes(sum_task))
    assert not server_children()


def test_prefill_in_a_one_case_box(sum_task, monkeypatch):
    """Each case through a supervisor of its own (no server, so no sample box): the box is built
    for the case and its init reaped with it."""
    judge = Judge(JudgeSettings(variant="batch"))
    if not judge.sandbox.boxed:
        pytest.skip(f"no box on this host: {judge.sandbox.warnings}")

    def one_shot(self, payload: bytes):
        args = payload.decode().split("\0")[:-2]  # every argument ends with a NUL, the request with one more
        return subprocess.run([str(self.supervisor), *args], capture_output=True, text=True, timeout=60).stdout

    monkeypatch.setattr(Sandbox, "_request", one_shot)
    rows = judge_sum_task(judge, sum_task)
    check_sum_rows(rows, sum_case_sizes(sum_task))


USERNS_DRIVER = r"""
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from test_batch_variant import judge_sum_task, server_children
from ibench.judge import Judge, JudgeSettings
judge = Judge(JudgeSettings(variant="batch"))
rows = judge_sum_task(judge, Path(sys.argv[3]))
print("BATCH-VARIANT-RESULT " + json.dumps({"sandbox": judge.sandbox.label, "rows": rows, "children": server_children()}))
"""


def test_prefill_in_the_user_namespace_box(sum_task):
    if os.geteuid() != 0:
        pytest.skip("starts as root and judges as nobody")
    home = Path(public_dir("ibench-batch-variant-nobody-"))
    try:
        os.chown(home, NOBODY, NOBODY)
        driver = home / "driver.py"
        driver.write_text(USERNS_DRIVER)
        os.chmod(driver, 0o644)
        cmd = unprivileged_command([sys.executable, str(driver), str(REPO), str(Path(__file__).parent), str(sum_task)],
                                   home, needs=[REPO, sum_task])
        if isinstance(cmd, str):
            pytest.skip(cmd)
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        mark = "BATCH-VARIANT-RESULT "
        lines = [json.loads(x[len(mark):]) for x in r.stdout.splitlines() if x.startswith(mark)]
        assert lines, f"the unprivileged judge failed (exit {r.returncode}):\n{r.stderr[-3000:]}"
        out = lines[0]
        assert out["sandbox"].startswith("userns+") and "+box+" in out["sandbox"], out["sandbox"]
        rows = {k: (v[0], [tuple(c) for c in v[1]]) for k, v in out["rows"].items()}
        check_sum_rows(rows, sum_case_sizes(sum_task))
        assert len(out["children"]) <= 1, out["children"]
    finally:
        shutil.rmtree(home, ignore_errors=True)
