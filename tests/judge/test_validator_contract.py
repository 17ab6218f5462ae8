"""The ICPC / Kattis validator contract, judged for real (real g++, the real sandbox): a batch
output validator of several C++ files and one of several Python files (`validator input answer
feedback_dir [flags] < output`, 42 / 43, judgemessage.txt, score.txt), an interactor under the
same contract that learns the secret from the answer file only, the default output validator
with every flag, open-numbered cases past the SPEC's 200, and the interactor's own CPU budget."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ibench.judge import Judge, JudgeSettings
from ibench.judge.default_validator import Flags, compare, parse_flags
from ibench.judge.verdict import Verdict
from ibench.tasks.load import load_task


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def card(root: Path, **extra) -> None:
    meta = {"problem_id": root.name, "cpu_time_limit_ms": 1000, "memory_limit_mb": 256, "difficulty": "Easy",
            "categorization": ["Math"], "contract": "icpc", **extra}
    write(root / "meta.json", json.dumps(meta))
    write(root / "desc.md", "# t\n")


# -- the default output validator, flag by flag (in the judge's process) --------------------------


@pytest.mark.parametrize("flags, got, want, ok", [
    ([], "Hello  World\n", "hello world", True),  # case-insensitive, whitespace-insensitive by default
    (["case_sensitive"], "Hello World", "hello world", False),
    (["space_change_sensitive"], "1  2\n", "1 2\n", False),
    (["space_change_sensitive"], "1 2\n", "1 2\n", True),
    ([], "0.3333", "0.333333", False),  # no tolerance: numbers are text
    (["float_tolerance", "1e-3"], "0.3334", "0.333333", True),
    (["float_absolute_tolerance", "1e-6"], "1000000.5", "1000000.0", False),
    (["float_relative_tolerance", "1e-6"], "1000000.5", "1000000.0", True),
    (["float_absolute_tolerance", "1e-6"], "3.14000000e-2", "0.0314", True),  # any float formatting
    (["float_tolerance", "1e-3"], "2.0e2", "200", False),  # "200" is not a float token
    (["float_tolerance", "1e-3"], "abc", "1.5", False),
    ([], "1 2", "1 2 3", False),
    ([], "1 2 3", "1 2", False),
])
def test_default_validator_flags(tmp_path, flags, got, want, ok):
    out, ans = write(tmp_path / "out", got), write(tmp_path / "ans", want)
    d = compare(out, ans, parse_flags(flags))
    assert (d.verdict is Verdict.OK) == ok, d.reason


def test_default_validator_refuses_unknown_flags_and_caps_output(tmp_path):
    with pytest.raises(ValueError, match="unknown default-validator flag"):
        parse_flags(["float_tolerance", "1e-6", "ignore_case"])
    with pytest.raises(ValueError, match="needs a value"):
        parse_flags(["float_tolerance"])
    out, ans = write(tmp_path / "out", "1 " * 1000), write(tmp_path / "ans", "1")
    assert compare(out, ans, Flags(), output_limit=100).verdict is Verdict.RE


# -- real judging -------------------------------------------------------------------------------

CPP_VALIDATOR = {
    "validate.cpp": r"""
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <string>
#include "util.h"
int main(int argc, char** argv) {
    double want = read_number(argv[2]);             // the answer file
    double tol = argc > 5 ? atof(argv[5]) : 0;      // flags: tol X
    std::string fb = argv[3];                        // ends with '/', as the ICPC tools pass it
    double got;
    if (scanf("%lf", &got) != 1) { note(fb, "no number"); return 43; }
    if (got == 999) return 0;                        // not 42 or 43: the judge's failure
    if (std::fabs(got - want) > tol) { note(fb, "expected " + std::to_string(want)); return 43; }
    FILE* s = fopen((fb + "score.txt").c_str(), "w"); fprintf(s, "7\n"); fclose(s);
    note(fb, "fine");
    return 42;
}
""",
    "util.cpp": r"""
#include <cstdio>
#include "util.h"
double read_number(const char* path) { double x = 0; FILE* f = fopen(path, "r"); fscanf(f, "%lf", &x); fclose(f); return x; }
void note(const std::string& fb, const std::string& m) { FILE* f = fopen((fb + "judgemessage.txt").c_str(), "w"); fputs(m.c_str(), f); fclose(f); }
""",
    "util.h": "#pragma once\n#include <string>\ndouble read_number(const char*);\nvoid note(const std::string&, const std::string&);\n",
}

PY_VALIDATOR = {
    "main.py": "import sys\nfrom words import norm\n"
               "want = norm(open(sys.argv[2]).read())\ngot = norm(sys.stdin.read())\n"
               "open(sys.argv[3] + 'judgemessage.txt', 'w').write('got ' + got)\n"
               "sys.exit(42 if got == want else 43)\n",
    "words.py": "def norm(s):\n    return ' '.join(s.split()).lower()\n",
}


def sum_solution(extra: str) -> str:
    return f"#include <cstdio>\nint main(){{ long a,b; scanf(\"%ld %ld\",&a,&b); printf(\"%ld\\n\", a+b{extra}); }}\n"


@pytest.fixture(scope="module")
def judge():
    return Judge(JudgeSettings())


def test_batch_cpp_validator_of_several_files(tmp_path, judge):
    root = tmp_path / "sum"
    card(root, kind="batch", validator_flags=["tol", "0.5"])
    for name, text in CPP_VALIDATOR.items():
        write(root / "checker" / name, text)
    write(root / "tests" / "1.in", "3 4\n")
    write(root / "tests" / "1.out", "7\n")
    task = load_task(root)
    assert task.contract == "icpc" and task.checker == root / "checker"
    ok = judge.judge(task, sum_solution(""))
    assert ok.verdict is Verdict.OK, ok.message
    assert "fine" in ok.cases[0].message and "score 7" in ok.cases[0].message
    wa = judge.judge(task, sum_solution("+1"))
    assert wa.verdict is Verdict.WA and "expected 7" in wa.cases[0].message
    se = judge.judge(task, "#include <cstdio>\nint main(){ puts(\"999\"); }\n")
    assert se.verdict is Verdict.SE and "expected 42 (accept) or 43" in se.cases[0].message


def test_batch_python_validator_of_several_files(tmp_path, judge):
    root = tmp_path / "yes"
    card(root, kind="batch")
    for name, text in PY_VALIDATOR.items():
        write(root / "checker" / name, text)
    write(root / "tests" / "1.in", "x\n")
    write(root / "tests" / "1.out", "Yes  Indeed\n")
    task = load_task(root)
    ok = judge.judge(task, "print('yes indeed')", language="python")
    assert ok.verdict is Verdict.OK, ok.message
    wa = judge.judge(task, "print('no')", language="python")
    assert wa.verdict is Verdict.WA and wa.cases[0].message == "got no"


def test_batch_default_validator_with_flags(tmp_path, judge):
    root = tmp_path / "third"
    card(root, kind="batch", validator_flags=["float_tolerance", "1e-4"])
    write(root / "tests" / "1.in", "1 3\n")
    write(root / "tests" / "1.out", "0.333333333\n")
    task = load_task(root)
    assert judge.judge(task, 'print(f"{1/3:.5f}")', language="python").verdict is Verdict.OK
    wa = judge.judge(task, 'print("0.34")', language="python")
    assert wa.verdict is Verdict.WA and "token 1 differs" in wa.message
    bad = tmp_path / "bad"
    card(bad, kind="batch", validator_flags=["float_tolerance"])
    write(bad / "tests" / "1.in", "1\n")
    write(bad / "tests" / "1.out", "1\n")
    from ibench.tasks.load import inspect_task

    assert any("needs a value" in p.message for p in inspect_task(bad).problems)


GUESS_VALIDATOR = {
    # The input (fd 3) holds only the range; the secret is in the answer file.
    "interact.cpp": r"""
#include <cstdio>
#include <string>
#include "io.h"
int main(int argc, char** argv) {
    int hi = read_int(argv[1]), secret = read_int(argv[2]);
    std::string fb = argv[3];
    for (int q = 1; q <= 12; q++) {
        int g;
        if (scanf("%d", &g) != 1) { say(fb, "no guess"); return 43; }
        if (g < 1 || g > hi) { say(fb, "out of range"); return 43; }
        if (g == secret) { printf("correct\n"); fflush(stdout); say(fb, "guessed"); return 42; }
        printf(g < secret ? "higher\n" : "lower\n"); fflush(stdout);
    }
    say(fb, "too many guesses");
    return 43;
}
""",
    "io.cpp": r"""
#include <cstdio>
#include "io.h"
int read_int(const char* p) { int x = 0; FILE* f = fopen(p, "r"); if (!f || fscanf(f, "%d", &x) != 1) x = -1; if (f) fclose(f); return x; }
void say(const std::string& fb, const char* m) { FILE* f = fopen((fb + "judgemessage.txt").c_str(), "w"); fputs(m, f); fclose(f); }
""",
    "io.h": "#pragma once\n#include <string>\nint read_int(const char*);\nvoid say(const std::string&, const char*);\n",
}

GUESSER = r"""
#include <cstdio>
#include <cstring>
int main() {
    int lo = 1, hi = 1000; char r[16];
    while (true) {
        int m = STRATEGY;
        printf("%d\n", m); fflush(stdout);
        if (scanf("%15s", r) != 1) return 0;
        if (!strcmp(r, "correct")) break;
        if (!strcmp(r, "higher")) lo = m + 1; else hi = m - 1;
    }
    EPILOGUE
    return 0;
}
"""


def guesser(strategy: str = "(lo + hi) / 2", epilogue: str = "") -> str:
    return GUESSER.replace("STRATEGY", strategy).replace("EPILOGUE", epilogue)


def build_guess(root: Path, secrets, **extra) -> Path:
    card(root, interactor_mode="non_adaptive", case_pools="open", **extra)
    for name, text in GUESS_VALIDATOR.items():
        write(root / "interactor" / name, text)
    for i, s in enumerate(secrets, 1):
        write(root / "cases" / f"{i:03d}.in", "1000\n")
        write(root / "cases" / f"{i:03d}.ans", f"{s}\n")
    return root


def test_interactor_under_the_contract_reads_the_answer_file(tmp_path, judge):
    task = load_task(build_guess(tmp_path / "guess", [777, 1, 1000]))
    assert task.open_cases and task.interactors["non_adaptive"] == task.root / "interactor"
    ok = judge.judge(task, guesser())
    assert ok.verdict is Verdict.OK, ok.message
    assert all(c.message.startswith("guessed") for c in ok.cases)
    wa = judge.judge(task, guesser("lo"))  # linear search: more than 12 guesses on 777
    assert wa.verdict is Verdict.WA and "too many guesses" in wa.message
    re_ = judge.judge(task, guesser(epilogue="return 3;"))  # correct, then a non-zero exit
    assert re_.verdict is Verdict.RE
    # Accepted, then the solver closes its output and spins: 42 is an accept, so the solver gets
    # the grace after it (and no more), as after a testlib accept: TLE, not OK
    spin = judge.judge(task, guesser(epilogue="fclose(stdout); for (volatile long i = 0;; i++) {}"))
    assert spin.verdict is Verdict.TLE, spin.message


def test_python_interactor_under_the_contract(tmp_path, judge):
    root = tmp_path / "pyguess"
    card(root, interactor_mode="non_adaptive", case_pools="open")
    write(root / "interactor" / "main.py", "import sys\nfrom secret import load\n"
          "s = load(sys.argv[2])\n"
          "for line in sys.stdin:\n"
          "    g = int(line)\n"
          "    if g == s:\n"
          "        print('correct', flush=True); sys.exit(42)\n"
          "    print('higher' if g < s else 'lower', flush=True)\n"
          "open(sys.argv[3] + 'judgemessage.txt', 'w').write('eof')\nsys.exit(43)\n")
    write(root / "interactor" / "secret.py", "def load(p):\n    return int(open(p).read())\n")
    write(root / "cases" / "001.in", "1000\n")
    write(root / "cases" / "001.ans", "321\n")
    task = load_task(root)
    assert judge.judge(task, guesser()).verdict is Verdict.OK


def test_open_cases_past_the_pools_and_the_interactor_budget(tmp_path, judge):
    """250 cases (the SPEC pools stop at 200) all run; the interactor's CPU budget comes from the
    task card when it is above the judge's own, and is what the sandbox is asked for."""
    secrets = [(7 * i) % 1000 + 1 for i in range(250)]
    task = load_task(build_guess(tmp_path / "many", secrets, interactor_cpu_ms=90_000))
    assert len(task.cases) == 250 and task.cases[-1].name == "250" and task.interactor_cpu_ms == 90_000
    binary = judge.compile_tool(task, task.interactors["non_adaptive"])
    prog = judge.compile_solution(task, guesser())
    files = judge.interactive._files()
    request, _, _ = judge.interactive._request(task, prog, binary, files)
    assert request.interactor_cpu_ms == 90_000
    # the wrapper, then the validator with `input answer feedback_dir/`
    assert request.interactor_args[1] == str(binary) and request.interactor_args[2] == "/dev/fd/3"
    assert request.interactor_args[4].endswith("/")
    result = judge.judge(task, guesser())
    assert result.verdict is Verdict.OK and len(result.cases) == 250
    # judge.non_adaptive_cases counts an open task's cases as the one pool they are
    assert [c.name for c in Judge(JudgeSettings(non_adaptive_cases=120)).select_cases(task)][-1] == "120"


@pytest.mark.parametrize("body, shown", [("sys.exit(0)", "validator exited with code 0"),
                                         ("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)", "crashed")])
def test_interactor_that_breaks_the_contract_is_a_judge_error(tmp_path, judge, body, shown):
    """An interactor exiting with neither 42 nor 43 (0 is testlib's accept, not this contract's),
    or killed by a signal, is the judge's failure: SE, never a verdict on the program."""
    root = tmp_path / "broken"
    card(root, interactor_mode="non_adaptive", case_pools="open")
    write(root / "interactor" / "main.py", f"import sys\nsys.stdin.readline()\n{body}\n")
    write(root / "cases" / "001.in", "1\n")
    write(root / "cases" / "001.ans", "1\n")
    result = judge.judge(load_task(root), guesser())
    assert result.verdict is Verdict.SE and shown in result.message, result.message


def test_default_validator_vectorised_path_agrees_with_the_rule():
    """Over a thousand tokens numpy compares the numbers; its first difference must be the one
    the token-by-token rule finds, on a mix of integers, floats, words and near misses."""
    import random

    from ibench.judge import default_validator as dv

    rng = random.Random(7)
    decided = 0
    for trial in range(40):
        want, got = [], []
        for _ in range(1500):
            kind = rng.random()
            if kind < 0.4:
                y = rng.uniform(-1e3, 1e3)
                want.append(f"{y:.9f}".encode())
                got.append(f"{y + rng.choice([0, 1e-8, 1e-5, -3e-7]):.{rng.choice([7, 9, 12])}g}".encode())
            elif kind < 0.6:
                n = rng.randint(-50, 50)
                want.append(str(n).encode())
                got.append(rng.choice([str(n), f"{n}.0", str(n)]).encode())
            else:
                word = rng.choice(["yes", "No", "IMPOSSIBLE"] + (["a.b", "1_0.5", "e"] if trial % 2 else []))
                want.append(word.encode())
                got.append(rng.choice([word, word.lower(), word.upper()]).encode())
        flags = dv.parse_flags(rng.choice([["float_tolerance", "1e-6"], ["float_absolute_tolerance", "1e-4"],
                                            ["float_relative_tolerance", "1e-9", "case_sensitive"]]))
        reference = next((i for i in range(len(want)) if got[i] != want[i] and not dv._same(got[i], want[i], flags)), None)
        assert dv._first_difference(got, want, flags) == reference, trial
        decided += dv._first_difference_numpy(got, want, flags) is not False
    assert decided >= 10  # numpy decided (no fallback) in many trials: the path is exercised


def test_interactor_that_closes_its_output_sends_the_solver_eof(tmp_path, judge):
    """A validator may write everything, close its output so the solver reads to EOF, then read
    the answer (BAPCtools' pseudointeraction): the judge must hold no copy of that pipe."""
    root = tmp_path / "eof"
    card(root, interactor_mode="non_adaptive", case_pools="open")
    write(root / "interactor" / "main.py",
          "import os, sys\nnums = [int(x) for x in open(sys.argv[1]).read().split()]\n"
          "sys.stdout.write('\\n'.join(map(str, nums)) + '\\n'); sys.stdout.flush(); os.close(1)\n"
          "ans = sys.stdin.readline().strip()\n"
          "sys.exit(42 if ans == str(sum(nums)) else 43)\n")
    write(root / "cases" / "001.in", "3 4 5\n")
    write(root / "cases" / "001.ans", "12\n")
    reads_to_eof = "import sys\nprint(sum(int(x) for x in sys.stdin.read().split()), flush=True)\n"
    result = judge.judge(load_task(root), reads_to_eof, language="python")
    assert result.verdict is Verdict.OK, result.message


# After one guess the solver closes its output, then ends in its own way: the ICPC tools let the
# validator see that end of output only once the solver has exited, so the solver's own failure
# comes first (BAPCtools' guess/run_time_error-* and time_limit_exceeded-guess_close_stdout). Each
# was WA before: the validator saw end of input at once and rejected ("no guess").
CLOSES_THEN = GUESSER.replace("        printf(\"%d\\n\", m); fflush(stdout);\n",
                              "        printf(\"%d\\n\", m); fflush(stdout); fclose(stdout); THEN\n")


@pytest.mark.parametrize("then, verdict", [
    ("abort();", "RE"),
    ("return 3;", "RE"),
    ("return 0;", "WA"),  # a clean exit: the validator's rejection of the missing guesses stands
    ("for (volatile long i = 0;; i++) {}", "TLE"),
    ("sleep(100);", "IDLE"),  # a wall-clock stall here, the ICPC tools' TLE
])
def test_a_solver_that_closes_its_output_ends_first_under_the_contract(tmp_path, judge, then, verdict):
    task = load_task(build_guess(tmp_path / "closes", [777]))
    source = "#include <cstdlib>\n#include <unistd.h>\n" + CLOSES_THEN.replace("STRATEGY", "(lo + hi) / 2") \
        .replace("EPILOGUE", "").replace("THEN", then)
    r = judge.judge(task, source)
    assert r.verdict.value == verdict, (r.verdict, r.message)


def test_a_rejection_before_the_solver_ends_stands_under_the_contract(tmp_path, judge):
    """Out of range: the validator rejects while the solver waits for a reply, then the solver
    crashes on the input the validator closed. The validator's WA, never RE (5 runs: the exit
    order of the two used to decide it)."""
    task = load_task(build_guess(tmp_path / "range", [777]))
    source = "#include <cstdlib>\n" + guesser("5000", epilogue="").replace(
        'if (scanf("%15s", r) != 1) return 0;', 'if (scanf("%15s", r) != 1) abort();')
    for _ in range(5):
        r = judge.judge(task, source)
        assert r.verdict is Verdict.WA and "out of range" in r.message, (r.verdict, r.message)
