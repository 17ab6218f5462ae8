"""`import-icpc` on ICPC / Kattis packages built here (batch with the default validator's float
tolerance, batch with a multi-file custom validator, interactive, scoring with groups, one that
is refused and one that is unsupported), then `validate` judging every submission for real and
measuring agreement with the folders they were filed under."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from ibench.tasks.cli import main
from ibench.tasks.load import load_tasks


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


SUM_OK = "#include <cstdio>\nint main(){ double a,b; scanf(\"%lf %lf\",&a,&b); printf(\"%.9f\\n\", a/b); }\n"
SUM_ROUGH = "#include <cstdio>\nint main(){ double a,b; scanf(\"%lf %lf\",&a,&b); printf(\"%.7f\\n\", a/b); }\n"
SUM_WA = "#include <cstdio>\nint main(){ double a,b; scanf(\"%lf %lf\",&a,&b); printf(\"%.2f\\n\", a/b); }\n"
SPIN = "int main(){ volatile unsigned long x = 0; for (;;) x++; }\n"
SLEEP = "import time\ntime.sleep(30)\n"
CRASH = "#include <cstdlib>\nint main(){ abort(); }\n"
HOG = ("#include <vector>\n#include <cstdio>\nint main(){ std::vector<char> v(900u << 20, 1); "
       "long s = 0; for (size_t i = 0; i < v.size(); i += 4096) s += v[i]; printf(\"%ld\\n\", s); }\n")


def divide_package(base: Path) -> Path:
    """Batch, default validator with float_tolerance; every submission folder."""
    p = base / "divide"
    write(p / "problem.yaml", "name: Divide\nsource: test\nvalidator_flags: float_tolerance 1e-6\nlimits:\n  memory: 256\n")
    write(p / ".timelimit", "0.5\n")
    write(p / "problem_statement" / "problem.en.tex", "Print a/b.\n")
    write(p / "data" / "sample" / "1.in", "1 3\n")
    write(p / "data" / "sample" / "1.ans", "0.333333333333\n")
    write(p / "data" / "secret" / "a.in", "2 3\n")
    write(p / "data" / "secret" / "a.ans", "0.666666666667\n")
    write(p / "data" / "secret" / "b.in", "10 4\n")
    write(p / "data" / "secret" / "b.ans", "2.5\n")
    s = p / "submissions"
    write(s / "accepted" / "exact.cpp", SUM_OK)
    write(s / "accepted" / "rough.cpp", SUM_ROUGH)  # 1e-7 off: inside the tolerance
    write(s / "accepted" / "div.py", "a, b = map(float, input().split())\nprint(a / b)\n")
    write(s / "wrong_answer" / "two_digits.cpp", SUM_WA)
    write(s / "wrong_answer" / "actually_right.cpp", SUM_OK)  # filed wrongly: a disagreement
    write(s / "wrong_answer" / "spins.cpp", "// @EXPECTED_RESULTS@: TIMELIMIT\n" + SPIN)
    write(s / "time_limit_exceeded" / "spin.cpp", SPIN)
    write(s / "time_limit_exceeded" / "sleep.py", SLEEP)  # a wall-clock timeout: IDLE here
    write(s / "run_time_error" / "abort.cpp", CRASH)
    write(s / "run_time_error" / "hog.cpp", HOG)  # a memory kill: MLE here, filed as RTE
    write(s / "rejected" / "wa.cpp", SUM_WA)
    write(s / "accepted" / "solution.rb", "puts 1\n")  # a language ibench does not judge
    return p


CUSTOM_VALIDATOR = {
    "validate.cpp": '#include "parity.h"\n#include <cstdio>\n#include <string>\n'
                    "int main(int argc, char** argv) { long x; if (scanf(\"%ld\", &x) != 1) return 43;\n"
                    "  std::string fb = argv[3]; FILE* f = fopen((fb + \"judgemessage.txt\").c_str(), \"w\");\n"
                    "  fprintf(f, \"parity %d\", parity(x)); fclose(f); return parity(x) == 0 ? 42 : 43; }\n",
    "parity.cpp": '#include "parity.h"\nint parity(long x) { return (int)(((x % 2) + 2) % 2); }\n',
    "parity.h": "#pragma once\nint parity(long x);\n",
}


def even_package(base: Path) -> Path:
    """Batch, legacy custom validation with a validator of several files."""
    p = base / "even"
    write(p / "problem.yaml", "name: Even\nvalidation: custom\n")
    write(p / ".timelimit", "1\n")
    for name, text in CUSTOM_VALIDATOR.items():
        write(p / "output_validators" / "parity_check" / name, text)
    write(p / "data" / "secret" / "1.in", "5\n")
    write(p / "data" / "secret" / "1.ans", "\n")
    write(p / "submissions" / "accepted" / "two.py", "print(2)\n")
    write(p / "submissions" / "wrong_answer" / "odd.py", "print(3)\n")
    # the 2025-09 format: submissions.yaml sets a folder's (or a file's) permitted verdicts
    write(p / "submissions" / "ac_or_wa" / "maybe.py", "print(4)\n")
    write(p / "submissions" / "submissions.yaml", "ac_or_wa:\n  permitted: [AC, WA]\n"
                                                  "wrong_answer/odd.py:\n  permitted: [WA, RTE]\n")
    return p


GUESS_VALIDATOR = r"""
#include <cstdio>
#include <string>
int main(int argc, char** argv) {
    int secret = 0; FILE* a = fopen(argv[2], "r"); fscanf(a, "%d", &secret); fclose(a);
    std::string fb = argv[3];
    for (int q = 0; q < 12; q++) {
        int g; if (scanf("%d", &g) != 1) break;
        if (g == secret) { puts("correct"); fflush(stdout); return 42; }
        puts(g < secret ? "higher" : "lower"); fflush(stdout);
    }
    FILE* f = fopen((fb + "judgemessage.txt").c_str(), "w"); fputs("no luck", f); fclose(f);
    return 43;
}
"""

GUESSER = r"""
#include <cstdio>
#include <cstring>
int main() { int lo = 1, hi = 1000; char r[16];
  while (true) { int m = (lo + hi) / 2; printf("%d\n", m); FLUSH
    if (scanf("%15s", r) != 1) return 0; if (!strcmp(r, "correct")) break;
    if (!strcmp(r, "higher")) lo = m + 1; else hi = m - 1; }
  AFTER return 0; }
"""


def guesser(flush: str = "fflush(stdout);", after: str = "") -> str:
    return GUESSER.replace("FLUSH", flush).replace("AFTER", after)


def guess_package(base: Path) -> Path:
    """Interactive (2023-07 format), the validator in output_validator/<name>/."""
    p = base / "guess"
    write(p / "problem.yaml", "problem_format_version: 2023-07-draft\ntype: interactive\nname:\n  en: Guess\n"
                              "limits:\n  time_limit: 0.5\n  validation_time: 30\n")
    write(p / "output_validator" / "guess_validator" / "validate.cpp", GUESS_VALIDATOR)
    write(p / "data" / "sample" / "1.interaction", "<500\n>correct\n")
    for i, s in enumerate((500, 1, 999), 1):
        write(p / "data" / "secret" / f"{i:02d}.in", "1000\n")
        write(p / "data" / "secret" / f"{i:02d}.ans", f"{s}\n")
    s = p / "submissions"
    write(s / "accepted" / "bsearch.cpp", guesser())
    write(s / "wrong_answer" / "linear.py", "import sys\nfor g in range(1, 1001):\n    print(g, flush=True)\n"
                                            "    if input() == 'correct':\n        break\n")
    write(s / "time_limit_exceeded" / "no_flush.cpp", guesser(flush=""))  # both sides wait: IDLE
    write(s / "run_time_error" / "exit3.cpp", guesser(after="return 3;"))
    return p


def echo_package(base: Path) -> Path:
    """Scoring: two groups of min-aggregated tests, 30 and 70 points."""
    p = base / "echo"
    write(p / "problem.yaml", "name: Echo\ntype: scoring\n")
    write(p / ".timelimit", "1\n")
    write(p / "data" / "sample" / "1.in", "1\n")
    write(p / "data" / "sample" / "1.ans", "1\n")
    for group, score, values in (("g1", 30, (1, 2)), ("g2", 70, (100, 200))):
        write(p / "data" / "secret" / group / "testdata.yaml", f"accept_score: {score}\ngrader_flags: min\n")
        for v in values:
            write(p / "data" / "secret" / group / f"{v}.in", f"{v}\n")
            write(p / "data" / "secret" / group / f"{v}.ans", f"{v}\n")
    write(p / "submissions" / "accepted" / "echo.py", "print(input())\n")
    write(p / "submissions" / "partially_accepted" / "small.py", "x = int(input())\nprint(x if x < 10 else 0)\n")
    return p


def guess_groups_package(base: Path) -> Path:
    """Interactive and scoring: group g1 (secrets 1 and 5, 40 points), g2 (500 and 999, 60)."""
    p = base / "guessgroups"
    write(p / "problem.yaml", "type: interactive scoring\nname: Guess groups\nlimits:\n  time_limit: 0.5\n")
    write(p / "output_validator" / "validate.cpp", GUESS_VALIDATOR)
    for group, score, secrets in (("g1", 40, (1, 5)), ("g2", 60, (500, 999))):
        write(p / "data" / "secret" / group / "testdata.yaml", f"accept_score: {score}\ngrader_flags: min\n")
        for s in secrets:
            write(p / "data" / "secret" / group / f"{s}.in", "1000\n")
            write(p / "data" / "secret" / group / f"{s}.ans", f"{s}\n")
    write(p / "submissions" / "accepted" / "bsearch.cpp", guesser())
    write(p / "submissions" / "partially_accepted" / "linear.py",  # 12 guesses reach 1 and 5, not 500
          "for g in range(1, 1001):\n    print(g, flush=True)\n    if input() == 'correct':\n        break\n")
    return p


POINTS_VALIDATOR = r"""
#include <cstdio>
#include <string>
int main(int argc, char** argv) {
    double x; if (scanf("%lf", &x) != 1 || x < 0) return 43;
    std::string fb = argv[3]; FILE* f = fopen((fb + "score.txt").c_str(), "w"); fprintf(f, "%g\n", x); fclose(f);
    return 42;
}
"""


def points_package(base: Path) -> Path:
    """Scoring by the validator's score.txt: g1 (range 0 30) and g2 (range 0 70), min over tests."""
    p = base / "points"
    write(p / "problem.yaml", "name: Points\nvalidation: custom score\n")
    write(p / ".timelimit", "1\n")
    write(p / "output_validators" / "v" / "validate.cpp", POINTS_VALIDATOR)
    for group, top, tests in (("g1", 30, ("a", "b")), ("g2", 70, ("c",))):
        write(p / "data" / "secret" / group / "testdata.yaml", f"range: 0 {top}\naccept_score: {top}\ngrader_flags: min\n")
        for t in tests:
            write(p / "data" / "secret" / group / f"{t}.in", f"{top}\n")
            write(p / "data" / "secret" / group / f"{t}.ans", "\n")
    write(p / "submissions" / "accepted" / "full.py", "print(input())\n")
    write(p / "submissions" / "partially_accepted" / "half.py", "print(int(input()) // 2)\n")
    return p


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    base = tmp_path_factory.mktemp("packages")
    packages = [divide_package(base), even_package(base), guess_package(base), echo_package(base),
                guess_groups_package(base), points_package(base)]
    write(base / "nothing" / "README", "not a package\n")
    write(base / "answers" / "problem.yaml", "name: Answers\ntype: submit-answer\n")
    out = tmp_path_factory.mktemp("out")
    rc = main(["import-icpc", *map(str, packages), str(base / "nothing"), str(base / "answers"), "--out", str(out)])
    assert rc == 0
    return out


def test_import_layout_and_report(imported):
    report = json.loads((imported / "import_icpc.json").read_text())
    assert report["counts"]["imported"] == 6
    assert report["counts"]["rejected"] == 1 and report["counts"]["unsupported (kept for reference)"] == 1
    assert "problem.yaml" in (imported / "_rejected" / "nothing" / "REJECTED.txt").read_text()
    assert "submit-answer" in (imported / "_unsupported" / "answers" / "UNSUPPORTED.txt").read_text()
    assert any("solution.rb" in w[1] for w in report["warnings"])
    warnings: list = []
    tasks = {t.task_id: t for t in load_tasks(imported, warnings=warnings)}
    assert not [w for w in warnings if "unknown field" in str(w)]  # every field the importer writes is a known one
    divide, guess, echo, even = tasks["divide"], tasks["guess"], tasks["echo"], tasks["even"]
    assert divide.contract == "icpc" and divide.validator_flags == ("float_tolerance", "1e-6")
    assert divide.cpu_time_limit_ms == 500 and divide.memory_limit_mb == 256 and divide.checker is None
    assert [c.name for c in divide.cases] == ["001-sample_1", "002-secret_a", "003-secret_b"]
    assert even.checker == even.root / "checker" and (even.root / "checker" / "parity.cpp").is_file()
    assert guess.open_cases and [c.name for c in guess.cases] == ["001", "002", "003"]  # the .interaction sample is skipped
    assert guess.interactor_cpu_ms == 30_000 and guess.cases[0].answer_path is not None
    assert {s.id: s.score for s in echo.subtasks} == {"sample": 0, "secret_g1": 30, "secret_g2": 70}
    by_name = {s.path.name: s for s in divide.solutions}
    assert by_name["time_limit_exceeded-spin.cpp"].accepts == ("TLE", "IDLE")
    assert by_name["run_time_error-hog.cpp"].accepts == ("RE", "MLE")
    assert by_name["wrong_answer-spins.cpp"].accepts == ("TLE", "IDLE")  # @EXPECTED_RESULTS@ wins
    assert by_name["wrong_answer-spins.cpp"].tag == "wrong_answer @EXPECTED_RESULTS@"
    assert set(by_name["rejected-wa.cpp"].accepts) >= {"WA", "RE", "TLE", "MLE", "IDLE", "PE"}
    assert {s.path.name: s.score for s in echo.solutions}["accepted-echo.py"] == 100
    even_sols = {s.path.name: s for s in even.solutions}
    assert even_sols["ac_or_wa-maybe.py"].accepts == ("OK", "WA", "PE")
    # every matching key counts: the folder's default (AC or WA, at least one WA) and the file's [WA, RTE]
    assert even_sols["wrong_answer-odd.py"].accepts == ("WA", "PE")
    assert even_sols["wrong_answer-odd.py"].tag == "wrong_answer (submissions.yaml)"


def test_validate_measures_agreement(imported, capsys):
    rc = main(["validate", str(imported), "--jobs", "2"])
    out = capsys.readouterr().out
    assert rc == 1  # the one submission filed under the wrong folder
    assert "agreement: 23 of 24 submissions (95.8%)" in out, out[-3000:]
    assert "DISAGREE divide/wrong_answer-actually_right.cpp: tag wrong_answer (expects WA|PE), ibench OK" in out
    rows = list(csv.DictReader(open(imported / "_validate" / "agreement.csv")))
    got = {(r["task"], r["solution"]): (r["ibench"], r["agrees"]) for r in rows}
    assert got[("divide", "time_limit_exceeded-spin.cpp")] == ("TLE", "1")
    assert got[("divide", "time_limit_exceeded-sleep.py")] == ("IDLE", "1")
    assert got[("divide", "run_time_error-hog.cpp")] in {("MLE", "1"), ("RE", "1")}
    assert got[("divide", "accepted-rough.cpp")] == ("OK", "1")
    assert got[("even", "wrong_answer-odd.py")] == ("WA", "1")
    assert got[("guess", "time_limit_exceeded-no_flush.cpp")] == ("IDLE", "1")
    assert got[("guess", "run_time_error-exit3.cpp")] == ("RE", "1")
    assert got[("echo", "partially_accepted-small.py")] == ("WA", "1")
    assert got[("guessgroups", "partially_accepted-linear.py")] == ("WA", "1")
    assert got[("points", "partially_accepted-half.py")] == ("OK", "1")  # accepted everywhere, half the points
    points = out[out.index("points  "):]
    assert "100 / 100" in points.split("accepted-full.py")[1].split("\n")[0]
    assert "│ 50 " in points.split("partially_accepted-half.py")[1].split("\n")[0]  # 15 (g1) + 35 (g2) from score.txt
    matrix = {r["tag"]: r for r in csv.DictReader(open(imported / "_validate" / "confusion.csv"))}
    assert matrix["wrong_answer"]["OK"] == "1" and matrix["accepted"]["OK"] == "8"
    assert "own CPU budget 30000 ms (the task card's interactor_cpu_ms)" in out  # guess: limits.validation_time
    assert "100 / 100" in out  # the scoring task's accepted submission earns every group
    table = out[out.index("guessgroups"):]
    assert "│ 40 " in table.split("partially_accepted-linear.py")[1].split("\n")[0]  # g1 only, interactive
