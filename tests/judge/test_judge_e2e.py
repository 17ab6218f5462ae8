"""Real programs through the real judge: every label, every interplay of SPEC §4, and hostile
solutions. Each program states the verdict it must get."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest

from ibench.judge import Judge, JudgeSettings, Verdict

from judge_fixtures import solver


CHEAT_OR_WRONG = r"""
    if (!found.empty()) { cout << "! " << found << endl; return 0; }
    cout << "! 2" << endl;   // only a leak can make this pass
"""


def reader(paths_expr: str) -> str:
    return r"""
#include <bits/stdc++.h>
#include <dirent.h>
using namespace std;
int main() {
    string found;
    vector<string> paths = PATHS;
    DIR* d = opendir("/proc");
    if (d) { while (auto* e = readdir(d)) { if (!isdigit(e->d_name[0])) continue;
        string p = string("/proc/") + e->d_name;
        paths.push_back(p + "/fd/3"); paths.push_back(p + "/cwd/tout");
        ifstream c(p + "/cmdline"); string arg; while (getline(c, arg, '\0'))
            if (arg.find(".in") != string::npos) paths.push_back(arg); } closedir(d); }
    for (auto& p : paths) { ifstream f(p); int x; if (f >> x && x >= 1 && x <= 1000) { found = to_string(x); break; } }
    CHEAT
}
""".replace("PATHS", paths_expr).replace("CHEAT", CHEAT_OR_WRONG)


def programs(task_root: Path, port: int = 9) -> dict[str, tuple[str, Verdict]]:
    case1 = task_root / "cases" / "001.in"
    return {
        "ok": (solver(), Verdict.OK),
        "ok_deep_recursion": (solver().replace("int main() {", "int depth(int n){volatile char pad[100]; pad[0]=n;"
                                               " return n ? depth(n-1) + (pad[0] & 0) : 0;}\nint main() { if (depth(1000000)) return 1;"),
                              Verdict.OK),
        "wa_off_by_one": (solver().replace('cout << "! " << lo', 'cout << "! " << (lo % 1000) + 1'), Verdict.WA),
        "pe_malformed_number": ('#include <bits/stdc++.h>\nint main(){std::cout << "? five" << std::endl;}', Verdict.PE),
        "pe_stops_early": ('#include <bits/stdc++.h>\nint main(){std::cout << "? 5" << std::endl;}', Verdict.PE),
        "qle_budget_plus_one": (solver().replace("int lo = 1, hi = 1000;",
                                                 'int lo = 1, hi = 1000; for (int i = 0; i < 11; i++) '
                                                 '{ cout << "? 1" << endl; string r; cin >> r; }'), Verdict.QLE),
        "re_segfault_midway": ('#include <bits/stdc++.h>\nint main(){std::cout << "? 5" << std::endl; std::string r;'
                               ' std::cin >> r; volatile int* p = nullptr; *p = 1;}', Verdict.RE),
        "re_exit3_after_correct": (solver("return 3;"), Verdict.RE),
        "re_throw_after_correct": (solver("throw std::runtime_error(\"late\");"), Verdict.RE),
        "wa_then_spin": ('#include <bits/stdc++.h>\nint main(){std::cout << "! 2" << std::endl; volatile long x = 0;'
                         ' for(;;) x++;}', Verdict.WA),
        "wa_then_keeps_printing": ('#include <bits/stdc++.h>\nint main(){std::cout << "! 2" << std::endl;'
                                   ' for(;;) std::cout << "? 1" << std::endl;}', Verdict.WA),
        "tle_spin": ('int main(){volatile long x = 0; for(;;) x++;}', Verdict.TLE),
        "idle_no_flush": ('#include <cstdio>\nint main(){printf("? 500\\n"); int c = getchar(); return c;}', Verdict.IDLE),
        "idle_sleep_forever": ('#include <unistd.h>\nint main(){for(;;) sleep(100);}', Verdict.IDLE),
        "mle_touch_1gb": ('#include <bits/stdc++.h>\nint main(){std::vector<char*> v; for(int i=0;i<1024;i++)'
                          '{char* p=(char*)malloc(1<<20); memset(p,1,1<<20); v.push_back(p);} std::cout<<"! 1"<<std::endl;}',
                          Verdict.MLE),
        "ce_syntax": ("int main() { return }", Verdict.CE),
        "tle_fork_bomb": ('#include <unistd.h>\nint main(){for(;;) fork();}', Verdict.TLE),
        "wa_read_case_relative": (reader('{"cases/001.in", "../cases/001.in", "../../cases/001.in", "001.in"}'),
                                  Verdict.WA),
        "wa_read_case_absolute_and_proc": (reader('{"' + str(case1) + '"}'), Verdict.WA),
        "ce_include_hidden_case": ('#include <bits/stdc++.h>\nint x =\n#include "' + str(case1) + '"\n;\n'
                                   'int main(){std::cout << "! " << x << std::endl;}', Verdict.CE),
        # The assembler embeds any file's bytes at compile time: the task folders are hidden there too.
        "ce_incbin_hidden_case": ('#include <bits/stdc++.h>\n__asm__(".section .rodata\\n.global leaked\\nleaked:\\n'
                                  '.incbin \\"' + str(case1) + '\\"\\n.byte 0\\n.text\\n");\n'
                                  'extern "C" const char leaked[];\n'
                                  'int main(){std::cout << "! " << atoi(leaked) << std::endl;}', Verdict.CE),
        "ok_network_blocked": ("#include <sys/socket.h>\n#include <netinet/in.h>\n#include <arpa/inet.h>\n"
                               + solver().replace("int main() {", "int main() { { int s = socket(AF_INET, SOCK_STREAM, 0);"
                                                  " sockaddr_in a{}; a.sin_family = AF_INET; a.sin_port = htons(%d);"
                                                  " a.sin_addr.s_addr = htonl(0x7f000001);"
                                                  " if (s >= 0 && connect(s, (sockaddr*)&a, sizeof a) == 0)"
                                                  " { cout << \"! 2\" << endl; return 0; } }" % port),
                               Verdict.OK),
        "pe_flood_1gb": ('#include <bits/stdc++.h>\nint main(){static char b[1<<16]; memset(b, \'x\', sizeof b);'
                         ' fputs("? ", stdout); for (int i = 0; i < 16384; i++) fwrite(b, 1, sizeof b, stdout);}',
                         Verdict.PE),
        "ok_writes_tmp": (solver().replace("int main() {", 'int main() { { FILE* f = fopen("/tmp/ibench-hostile-marker", "w");'
                                           ' if (f) { fputs("x", f); fclose(f); } }'), Verdict.OK),
    }


@pytest.fixture(scope="module")
def listener():
    """A TCP listener the network probe would reach if the sandbox let it."""
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    accepted: list = []

    def loop():
        try:
            while True:
                c, _ = srv.accept()
                accepted.append(c)
        except OSError:
            pass

    threading.Thread(target=loop, daemon=True).start()
    yield srv.getsockname()[1], accepted
    srv.close()


def sandbox_uid_processes(uid: int) -> list[str]:
    """Processes still running as this judge's sandbox uid (other judges use other uids)."""
    out = subprocess.run(["ps", "-eo", "uid=,pid=,comm="], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if line.split() and int(line.split()[0]) == uid]


@pytest.mark.skipif(os.geteuid() != 0, reason="hiding task files from the solver needs the root sandbox")
def test_every_label_and_hostile_program(judge, guess_task, listener):
    port, accepted = listener
    progs = programs(guess_task.root, port)
    got = {name: judge.judge(guess_task, src) for name, (src, _) in progs.items()}
    wrong = {n: (progs[n][1].value, r.verdict.value, r.message) for n, r in got.items() if r.verdict is not progs[n][1]}
    assert not wrong, json.dumps(wrong, indent=1)
    assert not accepted, "the network probe reached the host"
    assert not Path("/tmp/ibench-hostile-marker").exists(), "a solver's /tmp file outlived its case"
    assert not sandbox_uid_processes(judge.sandbox.slot().uid), "processes of the sandbox survived their case"
    # Figures recorded per case.
    ok = got["ok"]
    assert all(c.queries is not None and c.queries <= 10 and c.query_limit == 10 for c in ok.cases)
    assert all(0 < c.peak_kb < 10_000 for c in ok.cases), [c.peak_kb for c in ok.cases]
    assert ok.cases[0].solver_to_judge_tail.startswith("? 500")
    assert ok.cases[0].judge_to_solver_tail.strip().startswith("<") or ok.cases[0].judge_to_solver_tail.strip()[0] in "<>="
    assert got["tle_spin"].cases[0].cpu_ms > 0.2 * got["tle_spin"].cases[0].wall_ms  # it was spinning
    assert got["mle_touch_1gb"].cases[0].peak_kb > 200 * 1024
    assert "no code block" not in got["ce_syntax"].compile.message


def test_severity_not_case_order(guess_task):
    # WA on case 001 (x=777), crash on case 002 (x=3): the sample label is RE, not the first failure.
    src = solver().replace('cout << "! " << lo << endl;',
                           'if (lo == 777) { cout << "! 1" << endl; return 0; } '
                           'if (lo == 3) { volatile int* p = nullptr; *p = 1; } cout << "! " << lo << endl;')
    all_cases = Judge(JudgeSettings(all_cases=True)).judge(guess_task, src)
    assert [c.verdict for c in all_cases.cases][:2] == [Verdict.WA, Verdict.RE]
    assert all_cases.verdict is Verdict.RE
    early = Judge(JudgeSettings()).judge(guess_task, src)
    assert len(early.cases) == 1 and early.verdict is Verdict.WA  # early exit stops at the first failure


def test_no_code_is_ce(judge, guess_task):
    r = judge.judge(guess_task, "   ")
    assert r.verdict is Verdict.CE and r.compile.message == "no code block"


def test_compile_cache_hit(judge, guess_task):
    src = solver() + f"\n// cache probe {uuid.uuid4().hex}\n"
    first = judge.judge(guess_task, src)
    second = judge.judge(guess_task, src)
    assert not first.compile.cached and second.compile.cached and second.verdict is Verdict.OK


def test_verdicts_stable_under_full_cpu_load(guess_task):
    """The same programs judged three times while busy processes load every core."""
    names = ["ok", "wa_then_spin", "re_segfault_midway", "tle_spin", "idle_no_flush", "qle_budget_plus_one",
             "re_exit3_after_correct", "pe_stops_early"]
    progs = programs(guess_task.root)
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 2)]
    try:
        judge = Judge(JudgeSettings())
        rounds = [{n: judge.judge(guess_task, progs[n][0]).verdict for n in names} for _ in range(3)]
    finally:
        for h in hogs:
            h.kill()
    for r in rounds:
        assert r == {n: progs[n][1] for n in names}


def test_degraded_mode_is_recorded(guess_task):
    judge = Judge(JudgeSettings(isolation="rlimit"))
    r = judge.judge(guess_task, solver())
    assert r.verdict is Verdict.OK
    assert r.sandbox.startswith("rlimit") and any("degraded" in w for w in r.warnings)
    progs = programs(guess_task.root)
    assert judge.judge(guess_task, progs["re_segfault_midway"][0]).verdict is Verdict.RE
    # no memory cgroup: the address-space limit makes allocation fail; still MLE, not RE
    assert judge.judge(guess_task, progs["mle_touch_1gb"][0]).verdict is Verdict.MLE


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ibench.judge", *args], capture_output=True, text=True)


def test_cli_json_and_exit_codes(guess_task, tmp_path):
    sol = tmp_path / "wa.cpp"
    sol.write_text(programs(guess_task.root)["wa_off_by_one"][0])
    r = _cli(str(guess_task.root), str(sol), "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["verdict"] == "WA" and d["score"] is None and d["sandbox"]
    assert set(d["compile"]) == {"ok", "ms", "cached", "toolchain"}
    assert set(d["cases"][0]) == {"case", "verdict", "cpu_ms", "wall_ms", "peak_kb", "queries", "query_limit",
                                  "solver_exit", "interactor_exit", "message"}
    r = _cli(str(guess_task.root), str(sol), "--all-cases", "--json")
    assert len(json.loads(r.stdout)["cases"]) == len(guess_task.cases)
    table = _cli(str(guess_task.root), str(sol))
    assert table.returncode == 0 and "verdict: WA" in table.stdout
    missing = _cli(str(guess_task.root), str(tmp_path / "nope.cpp"))
    assert missing.returncode == 2 and "not found" in missing.stderr
    bad = tmp_path / "bad-task"
    bad.mkdir()
    (bad / "meta.json").write_text("{}")
    invalid = _cli(str(bad), str(sol))
    assert invalid.returncode == 2 and "meta.json" in invalid.stderr


def test_interactor_closing_stdout_after_answer(tmp_path):
    """Interactors often fclose(stdout) after the final answer, then check for extra output.
    With transcripts on, stdout is a recording stream: closing it must not hang or crash."""
    from judge_fixtures import ACCEPT, guess_task_with

    task = guess_task_with(tmp_path, ACCEPT, 'if (v == x) { std::cout.flush(); fclose(stdout); '
                           'if (!ouf.seekEof()) quitf(_pe, "output after the answer"); '
                           'quitf(_ok, "guessed %d in %d queries", x, q); }')
    judge = Judge(JudgeSettings(all_cases=True))
    for _ in range(3):
        r = judge.judge(task, solver())
        assert r.verdict is Verdict.OK, r.message
        assert r.cases[0].judge_to_solver_tail  # the transcript survived the close
    extra = judge.judge(task, solver('cout << "? 1" << endl;'))
    assert extra.verdict is Verdict.PE, extra.message


def test_forked_workers_get_their_own_slots(judge, guess_task):
    """A process pool forked from a process that already judges must not share its slot."""
    import concurrent.futures
    import multiprocessing

    global _INHERITED
    judge.judge(guess_task, solver())  # the parent holds a slot and a running supervisor
    parent_slot = judge.sandbox.slot().index
    _INHERITED = judge  # the children use the Judge object they inherit through fork
    ctx = multiprocessing.get_context("fork")
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=ctx) as pool:
        got = list(pool.map(_judge_in_child, [guess_task] * 4))
    assert all(v == "OK" for v, _ in got), got
    assert parent_slot not in {slot for _, slot in got}


_INHERITED = None


def _judge_in_child(task):
    from judge_fixtures import solver as make_solver

    j = _INHERITED
    return j.judge(task, make_solver()).verdict.value, j.sandbox.slot().index


@pytest.fixture
def public_tasks():
    """A folder of tasks outside /tmp, readable by everyone: a guess task and, beside it, a
    sibling whose case holds the same hidden value."""
    from judge_fixtures import build_guess_task, make_public, public_dir

    base = public_dir()
    build_guess_task(base)
    sibling_case = base / "sibling" / "cases" / "001.in"
    sibling_case.parent.mkdir(parents=True)
    sibling_case.write_text((base / "guess" / "cases" / "001.in").read_text())
    make_public(base)
    yield base
    shutil.rmtree(base, ignore_errors=True)


@pytest.mark.skipif(os.geteuid() != 0, reason="hiding task files from the solver needs the root sandbox")
def test_task_loaded_by_relative_path_is_still_hidden(judge, public_tasks, monkeypatch):
    """The solver's mounts are made after it enters its scratch dir: a task folder given by a
    relative path must still be hidden (it once was not, and a reader passed)."""
    from ibench.tasks.load import load_task

    monkeypatch.chdir(public_tasks)
    task = load_task(Path("guess"))
    assert not task.root.is_absolute()
    r = judge.judge(task, reader('{"' + str(public_tasks / "guess" / "cases" / "001.in") + '"}'), cases=[task.cases[0]])
    assert r.verdict is Verdict.WA, r.message


@pytest.mark.skipif(os.geteuid() != 0, reason="hiding task files from the solver needs the root sandbox")
def test_task_loaded_as_dot_still_hides_the_tasks_beside_it(judge, public_tasks, monkeypatch):
    from ibench.tasks.load import load_task

    monkeypatch.chdir(public_tasks / "guess")
    task = load_task(Path("."))
    r = judge.judge(task, reader('{"' + str(public_tasks / "sibling" / "cases" / "001.in") + '"}'), cases=[task.cases[0]])
    assert r.verdict is Verdict.WA, r.message


def test_runaway_interactor_memory_is_a_judge_error(tmp_path):
    """The interactor is trusted task code, but one that allocates without bound is stopped by
    judge.interactor_memory_mb and reported as SE, never charged to the model."""
    from judge_fixtures import guess_task_with

    task = guess_task_with(tmp_path, "int x = inf.readInt();",
                           "int x = inf.readInt(); std::vector<char> big(size_t(512) << 20, 1);"
                           " if (big[12345] != 1) return 5;")
    r = Judge(JudgeSettings(interactor_memory_mb=256)).judge(task, solver(), cases=[task.cases[0]])
    assert r.verdict is Verdict.SE, r.message
    assert r.cases[0].verdict is Verdict.SE and "interactor" in r.cases[0].message


def test_crash_is_re_when_the_interactor_reads_a_detached_cin(tmp_path):
    """An interactor reading the solver through std::cin with sync_with_stdio(false) rejects at
    the solver's EOF; the crash that caused the EOF is still RE (SPEC §4), not the rejection.
    (Under the judge the transcript capture already routes cin through stdio; the header's own
    cin.eof() check, for runs without it, is covered in test_testlib.py.)"""
    from judge_fixtures import build_guess_task

    from ibench.tasks.load import load_task

    root = build_guess_task(tmp_path)
    (root / "interactor" / "non_adaptive.cpp").write_text(r"""
#include "testlib.h"
#include <iostream>
int main(int argc, char** argv) {
    registerInteraction(argc, argv);
    std::ios::sync_with_stdio(false);
    int x = inf.readInt(), q = 0;
    tout << "queries=0\nquery_limit=10" << std::endl;
    std::string op; int v;
    while (std::cin >> op >> v) {
        if (op == "!") quitf(v == x ? _ok : _wa, "answer %d", v);
        tout << "queries=" << ++q << std::endl;
        std::cout << (v < x ? "<" : v > x ? ">" : "=") << std::endl;
    }
    quitf(_wa, "the solver stopped before answering");
}
""")
    task = load_task(root)
    judge = Judge(JudgeSettings())
    crash = ('#include <bits/stdc++.h>\nint main(){std::cout << "? 5" << std::endl; std::string r; std::cin >> r;'
             ' volatile int* p = nullptr; *p = 1;}')
    r = judge.judge(task, crash, cases=[task.cases[0]])
    assert r.verdict is Verdict.RE, r.message
    assert judge.judge(task, solver(), cases=[task.cases[0]]).verdict is Verdict.OK
    quits = '#include <bits/stdc++.h>\nint main(){std::cout << "? 5" << std::endl;}'
    assert judge.judge(task, quits, cases=[task.cases[0]]).verdict is Verdict.WA


def test_points_and_partial_credit_are_read_past_long_messages_and_debug_output(tmp_path):
    """testlib's `_pc(0)` exits 0 and `quitp` exits 7: the verdict is in the message, which may
    follow pages of debug output or run past the part of stderr kept for display. Neither may
    turn partial credit into Accepted."""
    from judge_fixtures import ACCEPT, guess_task_with

    task = guess_task_with(tmp_path, ACCEPT,
                           'if (v == x) { for (int i = 0; i < 200; i++) fprintf(stderr, "debug line %d\\n", i);'
                           ' std::string pad(1500, \'z\');'
                           ' if (x == 777) quitp(0.5, "Ratio: 0.5 %s", pad.c_str());'
                           ' if (x == 3) quitf(_pc(0), "half right %s", pad.c_str());'
                           ' quitf(_ok, "guessed %d in %d queries", x, q); }')
    judge = Judge(JudgeSettings(all_cases=True))
    r = judge.judge(task, solver(), cases=list(task.cases[:3]))  # hidden 777, 3, 1000
    got = {c.case: (c.verdict, c.score) for c in r.cases}
    assert got == {"001": (Verdict.WA, 0.5), "002": (Verdict.WA, None), "003": (Verdict.OK, None)}, r.cases
    assert r.cases[0].message.startswith("points 0.5 Ratio") and r.cases[1].message.startswith("partially correct (0)")
