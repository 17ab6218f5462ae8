"""`import-polygon` on standard Polygon packages built here: tests that are generator commands
(stdout and from-file; built with the package's testlib.h where it has one, else ibench's), manual tests with Windows line ends, answers written by the main
solution (batch) or the interactor's tout with it (interactive); the same bytes on a second
import; a generator that fails rejects the package naming the test and its command; then
`validate` judges the tagged solutions on the generated tests."""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import pytest

from ibench.judge.judge import BUNDLED_TESTLIB
from ibench.tasks.cli import main
from ibench.tasks.load import load_tasks


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def problem_xml(tests: str, solutions: list[tuple[str, str]], executables: list[str], *, interactor: bool = False) -> str:
    sols = "".join(f'<solution tag="{tag}"><source path="solutions/{name}" type="cpp.g++17"/></solution>'
                   for name, tag in solutions)
    exes = "".join(f'<executable><source path="files/{n}" type="cpp.g++17"/>'
                   f'<binary path="files/{n[:-4]}.exe" type="exe.win32"/></executable>' for n in executables)
    inter = '<interactor><source path="files/interactor.cpp" type="cpp.g++17"/></interactor>' if interactor else ""
    return f"""<?xml version="1.0" encoding="utf-8"?>
<problem revision="1" short-name="g">
  <names><name language="english" value="Generated"/></names>
  <judging input-file="" output-file="">
    <testset name="tests">
      <time-limit>1000</time-limit>
      <memory-limit>268435456</memory-limit>
      <input-path-pattern>tests/%02d</input-path-pattern>
      <answer-path-pattern>tests/%02d.a</answer-path-pattern>
      <tests>{tests}</tests>
    </testset>
  </judging>
  <files><resources><file path="files/testlib.h" type="h.g++"/></resources><executables>{exes}</executables></files>
  <assets>
    <checker name="std::wcmp.cpp" type="testlib"><source path="files/check.cpp" type="cpp.g++17"/></checker>
    {inter}
    <solutions>{sols}</solutions>
  </assets>
</problem>
"""


# n random numbers in [1, hi]: testlib's rnd, seeded from the command line, so the bytes are fixed
GEN = r"""
#include "testlib.h"
#ifndef PACKAGE_TESTLIB
#error built with another testlib.h than the package's
#endif
int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    int n = opt<int>(1), hi = opt<int>(2);
    println(n);
    std::vector<int> a(n);
    for (int& x : a) x = rnd.next(1, hi);
    println(a);
}
"""

# writes the files 1, 2, 3 (Polygon's multigen: "multigen 4 > {3-5}")
MULTIGEN = r"""
#include "testlib.h"
#ifndef PACKAGE_TESTLIB
#error built with another testlib.h than the package's
#endif
#include <fstream>
int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    int n = opt<int>(1);
    for (int f = 1; f <= 3; f++) {
        std::ofstream out(std::to_string(f));
        out << n << "\n";
        for (int i = 0; i < n; i++) out << rnd.next(1, 100 * f) << (i + 1 < n ? " " : "\n");
    }
}
"""

CHECKER = r"""
#include "testlib.h"
int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    long long want = ans.readLong(), got = ouf.readLong();
    if (want != got) quitf(_wa, "expected %lld, found %lld", want, got);
    quitf(_ok, "%lld", got);
}
"""

SUM = "#include <cstdio>\nint main(){ int n; long long s = 0, x; scanf(\"%d\", &n); " \
      "for (int i = 0; i < n; i++) { scanf(\"%lld\", &x); s += x; } printf(\"%lld\\n\", s); }\n"
SUM_FIRST_ONLY = "#include <cstdio>\nint main(){ int n; long long x; scanf(\"%d %lld\", &n, &x); printf(\"%lld\\n\", x); }\n"


def sum_package(base: Path, name: str = "gsum", gen_body: str = GEN) -> Path:
    p = base / name
    tests = ('<test method="manual" sample="true"/>'
             '<test cmd="gen 5 10" method="generated"/>'
             '<test cmd="gen 1000 1000000" method="generated"/>'
             '<test cmd="multigen 4" from-file="1" method="generated"/>'
             '<test cmd="multigen 4" from-file="3" method="generated"/>')
    write(p / "problem.xml", problem_xml(tests, [("main.cpp", "main"), ("first.cpp", "wrong-answer")],
                                         ["gen.cpp", "multigen.cpp"]))
    # the package's own testlib.h (Polygon made the tests with it): ibench's plus a mark the generator asks for
    write(p / "files" / "testlib.h", (BUNDLED_TESTLIB / "testlib.h").read_text() + "\n#define PACKAGE_TESTLIB 1\n")
    write(p / "files" / "gen.cpp", gen_body)
    write(p / "files" / "multigen.cpp", MULTIGEN)
    write(p / "files" / "check.cpp", CHECKER)
    write(p / "tests" / "01", b"3\r\n1 2 3\r\n")  # a standard package's manual test: Windows line ends
    write(p / "solutions" / "main.cpp", SUM)
    write(p / "solutions" / "first.cpp", SUM_FIRST_ONLY)
    return p


INTERACTOR = r"""
#include "testlib.h"
int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    int secret = inf.readInt();
    for (int q = 1; q <= 40; q++) {
        int g = ouf.readInt(1, 1000000, "guess");
        if (g == secret) { std::cout << "correct" << std::endl; tout << q << std::endl; quitf(_ok, "found"); }
        std::cout << (g < secret ? "higher" : "lower") << std::endl;
    }
    quitf(_wa, "out of guesses");
}
"""

# the answer is the main solution's count (the interactor's tout with it): a solver may use no more
BUDGET_CHECKER = r"""
#include "testlib.h"
int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    int used = ouf.readInt(), budget = ans.readInt();
    if (used > budget) quitf(_wa, "%d guesses, the main solution's %d", used, budget);
    quitf(_ok, "%d guesses", used);
}
"""

SECRET_GEN = r"""
#include "testlib.h"
int main(int argc, char* argv[]) { registerGen(argc, argv, 1); println(rnd.next(1, opt<int>(1))); }
"""

GUESSER = r"""
#include <cstdio>
#include <cstring>
int main() { long lo = 1, hi = 1000000; char r[16];
  while (true) { long m = STEP; printf("%ld\n", m); fflush(stdout);
    if (scanf("%15s", r) != 1) return 0; if (!strcmp(r, "correct")) break;
    if (!strcmp(r, "higher")) lo = m + 1; else hi = m - 1; }
  return 0; }
"""


def guess_package(base: Path) -> Path:
    p = base / "gguess"
    tests = "".join(f'<test cmd="secret {hi}" method="generated"/>' for hi in (1000000, 999999, 500000))
    write(p / "problem.xml", problem_xml(tests, [("bs.cpp", "main"), ("skew.cpp", "wrong-answer")],
                                         ["secret.cpp"], interactor=True))
    write(p / "files" / "secret.cpp", SECRET_GEN)
    write(p / "files" / "interactor.cpp", INTERACTOR)
    write(p / "files" / "check.cpp", BUDGET_CHECKER)
    write(p / "solutions" / "bs.cpp", GUESSER.replace("STEP", "(lo + hi) / 2"))
    write(p / "solutions" / "skew.cpp", GUESSER.replace("STEP", "lo + (hi - lo) / 3"))  # more guesses than main's
    return p


def digest(folder: Path) -> dict[str, str]:
    return {str(f.relative_to(folder)): hashlib.sha256(f.read_bytes()).hexdigest()
            for f in sorted(folder.rglob("*")) if f.is_file() and "_validate" not in f.parts}


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    base = tmp_path_factory.mktemp("packages")
    packages = [sum_package(base), guess_package(base),
                sum_package(base, "gfail", GEN.replace("registerGen(argc, argv, 1);",
                                                       "registerGen(argc, argv, 1); if (opt<int>(1) > 100) return 3;"))]
    out = tmp_path_factory.mktemp("out")
    assert main(["import-polygon", *map(str, packages), "--out", str(out)]) == 0
    return out, packages


def test_generated_tests_and_answers(imported):
    out, _ = imported
    tests = out / "gsum" / "tests"
    assert (tests / "001.in").read_bytes() == b"3\n1 2 3\n"  # line ends made Unix
    assert (tests / "001.out").read_text() == "6\n"  # the main solution's answer
    lines = (tests / "003.in").read_text().split("\n")
    assert lines[0] == "1000" and len(lines[1].split()) == 1000
    four, five = (tests / "004.in").read_text().split(), (tests / "005.in").read_text().split()
    assert four[0] == five[0] == "4" and four != five  # files 1 and 3 of one multigen run
    assert all(int(x) <= 100 for x in four[1:]) and (tests / "004.out").read_text() == f"{sum(map(int, four[1:]))}\n"
    card = json.loads((out / "gsum" / "meta.json").read_text())
    assert card["case_names"]["002"] == "tests/02"
    guess = out / "gguess" / "cases"
    assert sorted(p.name for p in guess.iterdir()) == ["001.ans", "001.in", "002.ans", "002.in", "003.ans", "003.in"]
    assert 1 <= int((guess / "001.ans").read_text()) <= 20  # the main solution's guesses, from the interactor's tout
    report = json.loads((out / "import_polygon.json").read_text())
    assert report["counts"]["imported"] == 2 and report["counts"]["rejected"] == 1
    assert report["counts"]["tests generated at import"] == 4 + 3
    reason = (out / "_rejected" / "gfail" / "REJECTED.txt").read_text()
    assert "test 3: generator command 'gen 1000 1000000' exited 3" in reason


def test_second_import_is_byte_identical(imported, tmp_path):
    out, packages = imported
    again = tmp_path / "again"
    assert main(["import-polygon", *map(str, packages[:2]), "--out", str(again)]) == 0
    for name in ("gsum", "gguess"):
        assert digest(again / name) == digest(out / name)


def test_validate_on_generated_tests(imported, capsys):
    out, _ = imported
    assert {t.task_id for t in load_tasks(out)} == {"gsum", "gguess"}
    rc = main(["validate", str(out), "--jobs", "2"])
    text = capsys.readouterr().out
    assert "agreement: 4 of 4 submissions (100.0%)" in text, text[-3000:]
    assert rc == 0
    rows = {(r["task"], r["solution"]): r["ibench"] for r in csv.DictReader(open(out / "_validate" / "agreement.csv"))}
    assert rows[("gsum", "wrong-answer-first.cpp")] == "WA"
    assert rows[("gguess", "wrong-answer-skew.cpp")] == "WA"  # over the main solution's count, the checker's WA


def test_answers_from_an_accepted_solution_when_main_does_not_build(tmp_path):
    p = sum_package(tmp_path, "gmain")
    xml = (p / "problem.xml").read_text().replace(
        '<solution tag="wrong-answer">', '<solution tag="accepted"><source path="solutions/ok.cpp" type="cpp.g++17"/>'
                                         '</solution><solution tag="wrong-answer">')
    write(p / "problem.xml", xml)
    write(p / "solutions" / "main.cpp", "#include <cstdio>\nint link[5]; int main(){ link[0] = 1; }\n"
                                        "int link(const char*, const char*);\n")  # does not build here
    write(p / "solutions" / "ok.cpp", SUM)
    out = tmp_path / "out"
    assert main(["import-polygon", str(p), "--out", str(out)]) == 0
    assert (out / "gmain" / "tests" / "001.out").read_text() == "6\n"
    report = json.loads((out / "import_polygon.json").read_text())
    assert any("answers written by solutions/ok.cpp (accepted)" in w[1] for w in report["warnings"])
