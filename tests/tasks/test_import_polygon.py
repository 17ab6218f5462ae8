"""`import-polygon` on Polygon packages built here (batch with a testlib checker, groups with
points and a dependency; interactive with an interactor whose tout the checker then judges;
a zip; a standard package without its tests), then `validate` judging every tagged solution
for real and measuring agreement with the tags."""

from __future__ import annotations

import csv
import json
import zipfile
from pathlib import Path

import pytest

from ibench.tasks.cli import main
from ibench.tasks.load import load_tasks


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


CHECKER = r"""
#include "testlib.h"
int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    double want = ans.readDouble(), got = ouf.readDouble();
    if (fabs(want - got) > 1e-6) quitf(_wa, "expected %.6f, found %.6f", want, got);
    quitf(_ok, "%.6f", got);
}
"""


def problem_xml(tests: list[dict], solutions: list[tuple[str, str]], *, interactor: bool = False,
                groups: str = "") -> str:
    test_xml = "".join("<test method=\"manual\"" + "".join(f' {k}="{v}"' for k, v in t.items()) + "/>" for t in tests)
    sols = "".join(f'<solution tag="{tag}"><source path="solutions/{name}" type="{_type(name)}"/></solution>'
                   for name, tag in solutions)
    inter = '<interactor><source path="files/interactor.cpp" type="cpp.g++17"/></interactor>' if interactor else ""
    return f"""<?xml version="1.0" encoding="utf-8"?>
<problem revision="1" short-name="p">
  <names><name language="english" value="Polygon Test"/></names>
  <judging input-file="" output-file="">
    <testset name="tests">
      <time-limit>500</time-limit>
      <memory-limit>268435456</memory-limit>
      <test-count>{len(tests)}</test-count>
      <input-path-pattern>tests/%02d</input-path-pattern>
      <answer-path-pattern>tests/%02d.a</answer-path-pattern>
      <tests>{test_xml}</tests>
      {groups}
    </testset>
  </judging>
  <assets>
    <checker name="check.cpp" type="testlib"><source path="files/check.cpp" type="cpp.g++17"/></checker>
    {inter}
    <solutions>{sols}</solutions>
  </assets>
</problem>
"""


def _type(name: str) -> str:
    return {"cpp": "cpp.g++17", "py": "python.3", "java": "java11"}[name.rsplit(".", 1)[1]]


HALF_OK = "#include <cstdio>\nint main(){ double a; scanf(\"%lf\",&a); printf(\"%.9f\\n\", a/2); }\n"
HALF_SMALL_ONLY = "#include <cstdio>\nint main(){ double a; scanf(\"%lf\",&a); printf(\"%.9f\\n\", a < 100 ? a/2 : 0); }\n"
SPIN = "int main(){ volatile unsigned long x = 0; for (;;) x++; }\n"
HOG = ("#include <vector>\n#include <cstdio>\nint main(){ std::vector<char> v(900u << 20, 1); "
       "long s = 0; for (size_t i = 0; i < v.size(); i += 4096) s += v[i]; printf(\"%ld\\n\", s); }\n")


def half_package(base: Path) -> Path:
    """Batch; group 1 (samples, 0 points), group 2 (30, depends on 1), group 3 (70, depends on 2)."""
    p = base / "half"
    values = [(2, "1"), (10, "2"), (20, "2"), (300, "3"), (500, "3")]
    tests = [{"group": g, "points": 0 if g == "1" else (15 if g == "2" else 35)} | ({"sample": "true"} if g == "1" else {})
             for _, g in values]
    groups = ('<groups><group name="1" points-policy="complete-group"/>'
              '<group name="2" points-policy="complete-group"><dependencies><dependency group="1"/></dependencies></group>'
              '<group name="3" points-policy="complete-group"><dependencies><dependency group="2"/></dependencies></group>'
              '</groups>')
    solutions = [("main.cpp", "main"), ("ok.py", "accepted"), ("small.cpp", "wrong-answer"), ("spin.cpp", "time-limit-exceeded"),
                 ("maybe.cpp", "time-limit-exceeded-or-accepted"), ("hog.cpp", "memory-limit-exceeded"),
                 ("bad.cpp", "rejected"), ("broken.cpp", "failed")]
    write(p / "problem.xml", problem_xml(tests, solutions, groups=groups))
    write(p / "files" / "check.cpp", CHECKER)
    write(p / "files" / "testlib.h", "#error the package's own testlib.h is not used\n")
    for i, (v, _) in enumerate(values, 1):
        write(p / "tests" / f"{i:02d}", f"{v}\n")
        write(p / "tests" / f"{i:02d}.a", f"{v / 2}\n")
    s = p / "solutions"
    write(s / "main.cpp", HALF_OK)
    write(s / "ok.py", "print(float(input()) / 2)\n")
    write(s / "small.cpp", HALF_SMALL_ONLY)
    write(s / "spin.cpp", SPIN)
    write(s / "maybe.cpp", HALF_OK)
    write(s / "hog.cpp", HOG)
    write(s / "bad.cpp", HALF_SMALL_ONLY)
    write(s / "broken.cpp", HALF_OK)
    return p


INTERACTOR = r"""
#include "testlib.h"
int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    int secret = inf.readInt();
    for (int q = 0; q < 12; q++) {
        int g = ouf.readInt(1, 1000, "guess");
        if (g == secret) { std::cout << "correct" << std::endl; tout << q + 1 << std::endl; quitf(_ok, "found"); }
        std::cout << (g < secret ? "higher" : "lower") << std::endl;
    }
    tout << 99 << std::endl;
    quitf(_ok, "out of guesses");  // the checker decides from tout
}
"""

# The checker judges the interactor's tout (the guesses used) against the answer (a budget).
GUESS_CHECKER = r"""
#include "testlib.h"
int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    int used = ouf.readInt(), budget = ans.readInt();
    if (used > budget) quitf(_wa, "%d guesses, budget %d", used, budget);
    quitf(_ok, "%d guesses", used);
}
"""

GUESSER = r"""
#include <cstdio>
#include <cstring>
int main() { int lo = 1, hi = 1000; char r[16];
  while (true) { int m = STEP; printf("%d\n", m); fflush(stdout);
    if (scanf("%15s", r) != 1) return 0; if (!strcmp(r, "correct")) break;
    if (!strcmp(r, "higher")) lo = m + 1; else hi = m - 1; }
  return 0; }
"""


def guess_package(base: Path) -> Path:
    p = base / "pguess"
    solutions = [("bs.cpp", "main"), ("lin.cpp", "wrong-answer")]
    write(p / "problem.xml", problem_xml([{}, {}, {}], solutions, interactor=True))
    write(p / "files" / "interactor.cpp", INTERACTOR)
    write(p / "files" / "check.cpp", GUESS_CHECKER)
    for i, secret in enumerate((700, 3, 1000), 1):
        write(p / "tests" / f"{i:02d}", f"{secret}\n")
        write(p / "tests" / f"{i:02d}.a", "10\n")
    write(p / "solutions" / "bs.cpp", GUESSER.replace("STEP", "(lo + hi) / 2"))
    write(p / "solutions" / "lin.cpp", GUESSER.replace("STEP", "lo"))  # 12+ guesses on 700: the checker's WA
    return p


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    base = tmp_path_factory.mktemp("packages")
    half = half_package(base)
    guess = guess_package(base)
    zipped = base / "pguess.zip"
    with zipfile.ZipFile(zipped, "w") as z:
        for f in guess.rglob("*"):
            z.write(f, Path("pguess") / f.relative_to(guess))
    standard = base / "standard"
    write(standard / "problem.xml", problem_xml([{}, {}], []))
    write(standard / "files" / "check.cpp", CHECKER)
    out = tmp_path_factory.mktemp("out")
    rc = main(["import", str(half), str(zipped), str(standard), "--out", str(out)])
    assert rc == 0
    return out


def test_import_layout_and_report(imported):
    report = json.loads((imported / "import_packages.json").read_text())
    assert report["counts"]["imported"] == 2 and report["counts"]["unsupported (kept for reference)"] == 1
    assert "does not hold its tests" in (imported / "_unsupported" / "standard" / "UNSUPPORTED.txt").read_text()
    assert any("broken.cpp" in w[1] and "checker to fail" in w[1] for w in report["warnings"])
    tasks = {t.task_id: t for t in load_tasks(imported)}
    half, guess = tasks["half"], tasks["pguess"]
    assert half.cpu_time_limit_ms == 500 and half.memory_limit_mb == 256 and half.contract == "testlib"
    subtasks = {s.id: (s.score, s.tests) for s in half.subtasks}
    assert subtasks["group-2"] == (30, ("002", "003", "001"))  # its dependency's tests join it
    assert subtasks["group-3"][0] == 70 and set(subtasks["group-3"][1]) == {"001", "002", "003", "004", "005"}
    tags = {s.path.name: s.accepts or (s.expected,) for s in half.solutions}
    assert tags["time-limit-exceeded-or-accepted-maybe.cpp"] == ("TLE", "IDLE", "OK")
    assert tags["memory-limit-exceeded-hog.cpp"] == ("MLE",)
    assert guess.open_cases and guess.checker is not None and guess.cases[0].answer_path is not None


def test_validate_measures_agreement(imported, capsys):
    rc = main(["validate", str(imported), "--jobs", "2"])
    out = capsys.readouterr().out
    assert "agreement: 9 of 9 submissions (100.0%)" in out, out[-3000:]
    assert rc == 0
    rows = {(r["task"], r["solution"]): r["ibench"] for r in csv.DictReader(open(imported / "_validate" / "agreement.csv"))}
    assert rows[("half", "time-limit-exceeded-spin.cpp")] == "TLE"
    assert rows[("half", "memory-limit-exceeded-hog.cpp")] == "MLE"
    assert rows[("half", "wrong-answer-small.cpp")] == "WA"
    assert rows[("pguess", "wrong-answer-lin.cpp")] == "WA"  # the checker, reading the interactor's tout
    assert rows[("pguess", "main-bs.cpp")] == "OK"
    assert "100 / 100" in out
