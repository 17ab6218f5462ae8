"""One box serves a slot's samples one after another (C++: nothing of a sample is bound into it).
What one sample leaves must not reach the next: not its files (their memory, charged to the
slot, is freed before the next case's counters start), not its program, not its limits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from judge_fixtures import build_guess_task, make_public, public_dir, solver

from ibench.judge import Judge, JudgeSettings
from ibench.judge.sandbox.run import _SERVER
from ibench.tasks.load import load_task

# Fills the box's /tmp and working dir with ~120 MB (60 MB a file: the output limit is 64 MB) (as much as fits), leaves it there, plays.
FILLER = solver("/* filler */").replace("int main() {", r"""
#include <cstdio>
static void fill() {
    std::string block(1 << 20, 'x');
    for (const char* f : {"/tmp/ibench-fill", "ibench-fill"}) {
        FILE* out = fopen(f, "w");
        for (int i = 0; out && i < 60; i++) fwrite(block.data(), 1, block.size(), out);
        if (out) fclose(out);
    }
}
int main() { fill();""")

# Touches 200 MB of a 256 MB limit, then plays: OK only if nothing of the filler is still charged.
BIG_HEAP = solver("/* big heap */").replace("int main() {", r"""
#include <cstring>
#include <cstdlib>
int main() { { char* p = (char*)malloc(200u << 20); memset(p, 1, 200u << 20); volatile char s = p[12345]; (void)s; }""")


def zygote_pid() -> int | None:
    server = _SERVER.get("proc")
    if server is None or server.poll() is not None:
        return None
    kids = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
    return int(kids[0]) if len(kids) == 1 else None


@pytest.fixture(scope="module")
def guess():
    base = public_dir("ibench-shared-box-")
    task = load_task(build_guess_task(base))
    make_public(base)
    yield task


def test_a_slots_box_serves_the_next_sample_clean(guess):
    judge = Judge(JudgeSettings())
    if not judge.sandbox.boxed:
        pytest.skip(f"no box on this host: {judge.sandbox.warnings}")
    first = judge.judge(guess, FILLER, "cpp")
    assert first.verdict.value == "OK", first.message
    box = zygote_pid()
    assert box is not None
    second = judge.judge(guess, BIG_HEAP, "cpp")
    # the same box (no new one per sample), and the filler's 120 MB were not charged to it
    assert zygote_pid() == box
    assert second.verdict.value == "OK", (second.message, [(c.verdict.value, c.peak_kb) for c in second.cases])
    assert all(c.peak_kb < 256 * 1024 for c in second.cases)
    # an honest sample after both, then one that binds its own files (a script: a box of its
    # own), then C++ again: every label right
    assert judge.judge(guess, solver("/* third */"), "cpp").verdict.value == "OK"
    py = "lo, hi = 1, 1000\nwhile lo < hi:\n    m = (lo + hi) // 2\n    print('?', m, flush=True)\n    r = input().strip()\n" \
         "    if r == '=':\n        lo = hi = m\n        break\n    lo, hi = (m + 1, hi) if r == '<' else (lo, m - 1)\nprint('!', lo, flush=True)\n"
    assert judge.judge(guess, py, "python").verdict.value == "OK"
    assert judge.judge(guess, solver("/* fourth */"), "cpp").verdict.value == "OK"


def test_each_sample_gets_its_own_limits_in_a_shared_box(guess):
    """The limits travel with each case: a sample of a task with a 64 MB limit after one of 256 MB
    in the same box is held to 64 MB (MLE), and the next 256 MB sample has its 256 MB again."""
    judge = Judge(JudgeSettings())
    if not judge.sandbox.boxed:
        pytest.skip(f"no box on this host: {judge.sandbox.warnings}")
    small_root = build_guess_task(public_dir("ibench-shared-box-small-"))
    meta = json.loads((small_root / "meta.json").read_text())
    meta["memory_limit_mb"] = 64
    (small_root / "meta.json").write_text(json.dumps(meta))
    make_public(small_root.parent)
    small = load_task(small_root)
    assert judge.judge(guess, BIG_HEAP, "cpp").verdict.value == "OK"
    box = zygote_pid()
    assert judge.judge(small, BIG_HEAP, "cpp").verdict.value == "MLE"
    assert judge.judge(guess, BIG_HEAP, "cpp").verdict.value == "OK"
    assert box is not None and zygote_pid() == box  # the limits changed, the box did not


def test_every_case_of_a_shared_box_starts_its_solver_with_the_same_pid(guess):
    """The box's PID counter is set back before each case: a pid never tells a solver how many
    cases (or processes) came before it in the box."""
    judge = Judge(JudgeSettings(all_cases=True))
    if not judge.sandbox.boxed:
        pytest.skip(f"no box on this host: {judge.sandbox.warnings}")
    tells = solver('fprintf(stderr, "pid=%d\\n", (int)getpid());').replace(
        "#include <bits/stdc++.h>", "#include <bits/stdc++.h>\n#include <unistd.h>")
    first = judge.judge(guess, tells, "cpp")
    again = judge.judge(guess, tells, "cpp")  # the next sample, the same box
    pids = {c.solver_stderr_tail.strip() for r in (first, again) for c in r.cases}
    assert first.verdict.value == "OK" and again.verdict.value == "OK", (first.message, again.message)
    assert len(first.cases) > 1 and len(pids) == 1, pids
