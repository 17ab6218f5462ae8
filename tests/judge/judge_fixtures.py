"""A small guess-the-number task built in a temp dir, with a testlib interactor, for judging
real programs end to end (real g++, real processes and pipes, the real sandbox)."""

from __future__ import annotations

import json
from pathlib import Path


INTERACTOR = r"""
#include "testlib.h"
int main(int argc, char** argv) {
    registerInteraction(argc, argv);
    int x = inf.readInt();
    const int limit = 10;
    int q = 0;
    tout << "queries=0\nquery_limit=" << limit << std::endl;
    while (true) {
        std::string op = ouf.readToken("[?!]", "op");
        int v = ouf.readInt(1, 1000, "v");
        if (op == "!") {
            tout << "queries=" << q << "\nquery_limit=" << limit << std::endl;
            if (v == x) quitf(_ok, "guessed %d in %d queries", x, q);
            quitf(_wa, "expected %d, found %d", x, v);
        }
        q++;
        tout << "queries=" << q << std::endl;
        std::cout << (v < x ? "<" : v > x ? ">" : "=") << std::endl;
    }
}
"""

BINARY_SEARCH = r"""
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
    EPILOGUE
}
"""

HIDDEN_VALUES = [777, 3, 1000, 1, 500, 640]


def solver(epilogue: str = "") -> str:
    return BINARY_SEARCH.replace("EPILOGUE", epilogue)


def build_guess_task(root: Path) -> Path:
    t = root / "guess"
    for d in ("interactor", "cases", "solutions"):
        (t / d).mkdir(parents=True)
    (t / "desc.md").write_text("Guess x in [1, 1000]: `? v` answers <, > or =; `! v` answers. At most 10 queries.\n")
    (t / "meta.json").write_text(json.dumps({
        "problem_id": "guess", "interactor_mode": "non_adaptive", "cpu_time_limit_ms": 1000,
        "memory_limit_mb": 256, "difficulty": "Easy", "categorization": ["Search"]}))
    (t / "interactor" / "non_adaptive.cpp").write_text(INTERACTOR)
    for i, v in enumerate(HIDDEN_VALUES, 1):
        (t / "cases" / f"{i:03d}.in").write_text(f"{v}\n")
    (t / "solutions" / "ok.cpp").write_text(solver())
    (t / "solutions" / "expected.json").write_text(json.dumps({"ok.cpp": {"expected": "OK"}}))
    return t


# The interactor's accepting line, for tests that change what happens on a correct answer.
ACCEPT = 'if (v == x) quitf(_ok, "guessed %d in %d queries", x, q);'


def guess_task_with(tmp: Path, old: str, new: str):
    """The guess task, loaded, with one piece of its interactor replaced."""
    from ibench.tasks.load import load_task

    changed = INTERACTOR.replace(old, new)
    assert changed != INTERACTOR, f"not in the interactor: {old}"
    root = build_guess_task(tmp)
    (root / "interactor" / "non_adaptive.cpp").write_text(changed)
    return load_task(root)


def public_dir(prefix: str = "ibench-test-") -> Path:
    """A fresh folder outside /tmp whose files everyone may read. The solver gets its own empty
    /tmp, so a task under pytest's tmp_path is out of its reach whatever the judge hides: tests
    of hiding must put the task where only the judge's hiding keeps the solver out. The caller
    removes it (shutil.rmtree)."""
    import os
    import tempfile

    base = Path(tempfile.mkdtemp(prefix=prefix, dir="/run" if os.access("/run", os.W_OK) else None))
    os.chmod(base, 0o755)
    return base


def make_public(root: Path) -> None:
    """World-readable files and folders below ``root`` (only the judge's hiding may stop a read)."""
    import os

    for d, _, files in os.walk(root):
        os.chmod(d, 0o755)
        for f in files:
            os.chmod(os.path.join(d, f), 0o644)
