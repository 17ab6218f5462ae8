"""The judge CLI on a compile error: the first error lines are shown (not the compiler's last
line of noise), and ``--json`` carries the compiler message without ``--full`` too."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TASK = REPO / "tasks" / "guess-the-number"


def _bad_program(tmp_path: Path) -> Path:
    # The first error is the interesting one; six more follow it (the judge keeps the compiler's
    # output up to its tail limit, which these fit in).
    body = "\n".join(f"    int v{i} = undeclared_{i};" for i in range(6))
    src = tmp_path / "bad.cpp"
    src.write_text(f"#include <cstdio>\nint main() {{\n    first_mistake();\n{body}\n    return 0;\n}}\n")
    return src


def _judge(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ibench.judge", str(TASK), *args], cwd=REPO, capture_output=True,
                          text=True, timeout=300)


def test_ce_shows_the_first_error_lines(tmp_path):
    proc = _judge(str(_bad_program(tmp_path)))
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "'first_mistake' was not declared in this scope" in out
    verdict = next(line for line in out.splitlines() if line.startswith("verdict:"))
    assert verdict.startswith("verdict: CE") and "first_mistake" in verdict
    assert "undeclared_5" not in out  # only the first error lines, then a count of the rest
    assert "more line(s) of compiler output" in out


def test_json_carries_the_compiler_message(tmp_path):
    proc = _judge(str(_bad_program(tmp_path)), "--json")
    assert proc.returncode == 0, proc.stderr[-2000:]
    d = json.loads(proc.stdout)
    assert d["verdict"] == "CE" and d["compile"]["ok"] is False
    assert "first_mistake" in d["compile"]["message"] and "undeclared_5" in d["compile"]["message"]
    assert "first_mistake" in d["compile"]["first_error"]
