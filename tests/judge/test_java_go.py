"""Java and Go through the real judge: real javac/java and Go toolchain, compiled and run in the
real sandbox. Each label of the bundled known solutions, the executors' rules that a wrong
executor would break (the JVM's heap, stack and threads; System.exit; a public class not named
Main; Go's import map), the toolchain recorded in the result, and hostile programs (a hidden case
by absolute path, the network, thread and fork bombs) as root and, where it works here, as an
unprivileged user (the userns box). Few cases per program: a JVM start is ~0.1 s of CPU."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from judge_fixtures import build_guess_task, make_public, public_dir

from ibench.judge import Verdict
from ibench.judge.executors import language_of
from ibench.judge.sandbox.unprivileged import NOBODY, unprivileged_command
from ibench.tasks.load import load_task

REPO = Path(__file__).resolve().parents[2]
GUESS = REPO / "tasks" / "guess-the-number"
ROTATED = REPO / "tasks" / "rotated-array-minimum"
REFUEL = REPO / "tasks" / "refuelling-stops"


def _known(task_dir: Path) -> list[tuple[str, str]]:
    exp = json.loads((task_dir / "solutions" / "expected.json").read_text())
    return sorted((name, e["expected"]) for name, e in exp.items() if name.endswith((".java", ".go")))


KNOWN = [(GUESS, n, v) for n, v in _known(GUESS)] + [(ROTATED, n, v) for n, v in _known(ROTATED)]


def test_every_label_is_shown_per_language():
    """The known solutions cover every label a program can get in each language."""
    for ext in (".java", ".go"):
        labels = {v for _, n, v in KNOWN if n.endswith(ext)}
        assert {"OK", "WA", "PE", "IDLE", "TLE", "MLE", "RE", "CE"} <= labels, (ext, labels)


@pytest.fixture(scope="module")
def tasks():
    return {d: load_task(d) for d in (GUESS, ROTATED, REFUEL)}


@pytest.mark.parametrize("task_dir,name,expected", KNOWN, ids=[f"{d.name}/{n}" for d, n, _ in KNOWN])
def test_known_solution_labels(judge, tasks, task_dir, name, expected):
    task = tasks[task_dir]
    path = task_dir / "solutions" / name
    cases = task.cases[:4]  # the first cases show every label here (validate runs them all)
    r = judge.judge(task, path.read_text(), language_of(path), cases=cases)
    assert r.verdict.value == expected, (name, r.verdict, r.message, [c.solver_stderr_tail[-600:] for c in r.cases][:1])
    if expected == "OK":
        assert len(r.cases) == len(cases) and all(c.verdict is Verdict.OK for c in r.cases)


def test_batch_task_scores(judge, tasks):
    """A batch task with subtasks (refuelling-stops): full score in both languages, and a wrong
    Go program gets 0 from the token comparison."""
    task = tasks[REFUEL]
    for name, score in (("ok_max_heap.java", 100), ("ok_max_heap.go", 100), ("wa_never_impossible.go", 0)):
        path = REFUEL / "solutions" / name
        r = judge.judge(task, path.read_text(), language_of(path))
        assert r.score == score, (name, r.verdict, r.score, r.message)


def test_toolchain_recorded(judge, guess_task):
    j = judge.judge(guess_task, java(), "java", cases=guess_task.cases[:1])
    g = judge.judge(guess_task, go(), "go", cases=guess_task.cases[:1])
    assert j.verdict is Verdict.OK and g.verdict is Verdict.OK, (j.message, g.message)
    assert j.compile.toolchain.startswith("javac ") and "OpenJDK Runtime Environment" in j.compile.toolchain
    assert g.compile.toolchain.startswith("go version go1.")
    assert j.to_dict()["compile"]["toolchain"] == j.compile.toolchain


# -- programs of the tests' own guess task (one game, x in [1, 1000], at most 10 queries) ----------

JAVA_SEARCH = textwrap.dedent("""\
    import java.io.*;
    import java.util.*;

    public class Main {
        static String search(BufferedReader in, PrintStream out) throws IOException {
            int lo = 1, hi = 1000;
            while (lo < hi) {
                int m = (lo + hi) / 2;
                out.println("? " + m);
                out.flush();
                String r = in.readLine().trim();
                if (r.equals("=")) { lo = hi = m; break; }
                if (r.equals("<")) lo = m + 1; else hi = m - 1;
            }
            return "! " + lo;
        }

        public static void main(String[] args) throws Exception {
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
            PROLOGUE
            System.out.println(search(in, System.out));
            System.out.flush();
            EPILOGUE
        }
    }
    """)

GO_SEARCH = textwrap.dedent("""\
    package main

    import (
    \t"bufio"
    \t"fmt"
    \t"os"
    IMPORTS)

    func main() {
    \tin := bufio.NewReader(os.Stdin)
    \tPROLOGUE
    \tlo, hi := 1, 1000
    \tfor lo < hi {
    \t\tm := (lo + hi) / 2
    \t\tfmt.Printf("? %d\\n", m)
    \t\tvar r string
    \t\tfmt.Fscan(in, &r)
    \t\tif r == "=" {
    \t\t\tlo, hi = m, m
    \t\t\tbreak
    \t\t}
    \t\tif r == "<" {
    \t\t\tlo = m + 1
    \t\t} else {
    \t\t\thi = m - 1
    \t\t}
    \t}
    \tfmt.Printf("! %d\\n", lo)
    \tEPILOGUE
    }
    """)


def java(prologue: str = "", epilogue: str = "", cls: str = "Main") -> str:
    return (JAVA_SEARCH.replace("PROLOGUE", prologue).replace("EPILOGUE", epilogue)
            .replace("public class Main", f"public class {cls}"))


def go(prologue: str = "", epilogue: str = "", imports: str = "") -> str:
    return GO_SEARCH.replace("PROLOGUE", prologue).replace("EPILOGUE", epilogue).replace("IMPORTS", imports)


# Each would get another label from a wrong executor: no -Xss (StackOverflowError: RE), the
# OOM marker unread (RE), no thread allowance (the JVM's own threads trip the cap), a wrong
# heap cap (a 200 MB heap under a 256 MB limit is legitimate), exit(0) treated as a crash.
RULES = {
    "java_exit0_after_answer": ("java", java(epilogue="System.exit(0);"), Verdict.OK),
    "java_class_not_main": ("java", java(cls="Solver"), Verdict.OK),
    "java_heap_200mb_within_limit": ("java", java(prologue="long[][] keep = new long[25][]; for (int i = 0; i < 25; i++) "
                                                           "{ keep[i] = new long[1 << 20]; Arrays.fill(keep[i], i); }"),
                                     Verdict.OK),
    "java_heap_over_limit": ("java", java(prologue="long[][] keep = new long[40][]; for (int i = 0; i < 40; i++) "
                                                   "{ keep[i] = new long[1 << 20]; Arrays.fill(keep[i], i); }"), Verdict.MLE),
    "java_eight_threads": ("java", java(prologue="Thread[] ts = new Thread[8]; for (int i = 0; i < 8; i++) "
                                                 "{ ts[i] = new Thread(() -> {}); ts[i].start(); } for (Thread t : ts) t.join();"),
                           Verdict.OK),
    "java_deep_recursion": ("java", java(prologue="if (Deep.down(2_000_000) != 2_000_000) return;")
                            + "class Deep { static int down(int k) { return k == 0 ? 0 : down(k - 1) + 1; } }\n", Verdict.OK),
    "java_exit_code": ("java", java(epilogue="System.exit(3);"), Verdict.RE),
    "java_no_main": ("java", "public class Main { }\n", Verdict.CE),
    "go_exit0_after_answer": ("go", go(epilogue="os.Exit(0)"), Verdict.OK),
    "go_exit_code": ("go", go(epilogue="os.Exit(3)"), Verdict.RE),
    "go_goroutines": ("go", go(prologue="done := make(chan int)\n\tfor i := 0; i < 100; i++ {\n\t\tgo func(k int) "
                                        "{ done <- k }(i)\n\t}\n\tfor i := 0; i < 100; i++ {\n\t\t<-done\n\t}"), Verdict.OK),
    "go_package_not_offered": ("go", go(imports='\t"net/http"\n', prologue="_ = http.StatusOK"), Verdict.CE),
}


@pytest.mark.parametrize("name", sorted(RULES))
def test_executor_rules(judge, guess_task, name):
    language, source, expected = RULES[name]
    r = judge.judge(guess_task, source, language, cases=guess_task.cases[:2])
    assert r.verdict is expected, (name, r.verdict, r.message, r.compile.message[-500:],
                                   [c.solver_stderr_tail[-500:] for c in r.cases][:1])
    if name == "go_package_not_offered":
        assert "could not import net/http" in r.compile.message and "solutions may import" in r.compile.message


# -- hostile programs ------------------------------------------------------------------------------

def hostile_sources(case_paths: list[str], port: int) -> dict[str, tuple[str, str, set]]:
    """name -> (language, source, acceptable verdicts). A leak of a case file or a working
    connection makes each answer wrongly or rightly so that the verdict shows it."""
    paths = ", ".join(json.dumps(p) for p in case_paths)
    java_read = java(prologue=f"""for (String p : new String[]{{{paths}}}) {{
                try {{ String x = new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of(p))).trim();
                       System.out.println("! " + x); System.out.flush(); return; }} catch (Exception e) {{ }}
            }}
            System.out.println("! 2"); System.out.flush(); if (true) return;""")
    go_read = go(prologue=f"""for _, p := range []string{{{paths}}} {{
\t\tif b, err := os.ReadFile(p); err == nil {{
\t\t\tfmt.Printf("! %s\\n", b)
\t\t\treturn
\t\t}}
\t}}
\tfmt.Println("! 2")
\treturn""")
    java_net = java(prologue=f"""try (java.net.Socket s = new java.net.Socket()) {{
                s.connect(new java.net.InetSocketAddress("127.0.0.1", {port}), 1000);
                System.out.println("! 2"); System.out.flush(); return;
            }} catch (Exception e) {{ }}""")
    go_net = go(imports='\t"syscall"\n', prologue=f"""if fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0); err == nil {{
\t\tif syscall.Connect(fd, &syscall.SockaddrInet4{{Port: {port}, Addr: [4]byte{{127, 0, 0, 1}}}}) == nil {{
\t\t\tfmt.Println("! 2")
\t\t\treturn
\t\t}}
\t}}""")
    java_threads = java(prologue="""while (args.length >= 0) {
                Thread t = new Thread(() -> { try { Thread.sleep(100000); } catch (Exception e) { } });
                t.setDaemon(true); t.start(); }""")
    java_fork = java(prologue="""String exe = ProcessHandle.current().info().command().orElse("java");
            java.util.List<String> cmd = new java.util.ArrayList<>(ProcessHandle.current().info().arguments()
                .map(java.util.Arrays::asList).orElse(java.util.List.of()));
            cmd.add(0, exe);
            while (args.length >= 0) { try { new ProcessBuilder(cmd).start(); } catch (Exception e) { } }""")
    go_fork = go(imports='\t"syscall"\n', prologue="""for {
\t\tsyscall.ForkExec("/proc/self/exe", []string{"x"}, &syscall.ProcAttr{})
\t}""")
    return {
        "java_read_case_abs": ("java", java_read, {Verdict.WA}),
        "go_read_case_abs": ("go", go_read, {Verdict.WA}),
        "java_network": ("java", java_net, {Verdict.OK}),
        "go_network": ("go", go_net, {Verdict.OK}),
        # The JVM's OutOfMemoryError ("unable to create native thread") at the process cap
        # ends it (MLE); the run stays bounded either way.
        "java_thread_bomb": ("java", java_threads, {Verdict.MLE, Verdict.RE, Verdict.TLE}),
        "java_fork_bomb": ("java", java_fork, {Verdict.TLE, Verdict.RE, Verdict.MLE, Verdict.IDLE}),
        "go_fork_bomb": ("go", go_fork, {Verdict.TLE, Verdict.RE, Verdict.IDLE}),
    }


@pytest.fixture(scope="module")
def listener():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(64)
    yield s.getsockname()[1]
    s.close()


def _uid_processes(uid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                if os.stat(f"/proc/{d}").st_uid == uid:
                    out.append(int(d))
            except OSError:
                pass
    return out


@pytest.mark.parametrize("name", ["java_read_case_abs", "go_read_case_abs", "java_network", "go_network",
                                  "java_thread_bomb", "java_fork_bomb", "go_fork_bomb"])
def test_hostile_root(judge, guess_task, listener, name):
    language, source, allowed = hostile_sources([str(c.input_path) for c in guess_task.cases], listener)[name]
    r = judge.judge(guess_task, source, language, cases=guess_task.cases[:1])
    assert r.verdict in allowed, (name, r.verdict, r.message, r.compile.message[-400:],
                                  [c.solver_stderr_tail[-400:] for c in r.cases][:1])
    assert all(c.wall_ms < 20000 for c in r.cases)
    if judge.sandbox.isolation.mode == "root":
        assert _uid_processes(judge.sandbox.slot().uid) == []  # nothing of the bomb outlived the case


DRIVER = textwrap.dedent("""\
    import json, sys
    from pathlib import Path
    from ibench.judge import Judge, JudgeSettings
    from ibench.tasks.load import load_task
    judge = Judge(JudgeSettings(isolation="userns"))
    task = load_task(Path(sys.argv[1]))
    for item in json.loads(Path(sys.argv[2]).read_text()):
        r = judge.judge(task, item["source"], item["language"], cases=task.cases[:1])
        print(json.dumps({"name": item["name"], "verdict": r.verdict.value, "message": r.message[:300],
                          "sandbox": r.sandbox, "compile": r.compile.message[-300:]}), flush=True)
    """)


@pytest.mark.skipif(os.geteuid() != 0, reason="runs the unprivileged judge from root")
def test_unprivileged_box(listener):
    """The same box without root (userns mode): OK programs pass, hidden cases stay hidden, the
    network is shut and the bombs are contained, for both languages."""
    base = public_dir("ibench-javago-")
    try:
        root = build_guess_task(base)
        make_public(base)
        task = load_task(root)
        items = [{"name": "java_ok", "language": "java", "source": java(), "want": ["OK"]},
                 {"name": "go_ok", "language": "go", "source": go(), "want": ["OK"]},
                 {"name": "java_mle", "language": "java", "source": RULES["java_heap_over_limit"][1], "want": ["MLE"]}]
        for name, (language, source, allowed) in hostile_sources([str(c.input_path) for c in task.cases], listener).items():
            items.append({"name": name, "language": language, "source": source, "want": sorted(v.value for v in allowed)})
        spec = base / "items.json"
        spec.write_text(json.dumps(items))
        driver = base / "driver.py"
        driver.write_text(DRIVER)
        make_public(base)
        home = base / "home"
        home.mkdir()
        os.chmod(home, 0o755)
        os.chown(home, NOBODY, NOBODY)
        cmd = unprivileged_command([sys.executable, str(driver), str(root), str(spec)], home, needs=[REPO, base])
        if isinstance(cmd, str):
            pytest.skip(cmd)
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=REPO)
        lines = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
        if not lines and ("userns" in r.stderr and "no user-namespace box" in r.stderr):
            pytest.skip(f"no user-namespace box here: {r.stderr.strip()[-300:]}")
        assert r.returncode == 0, r.stderr[-3000:]
        got = {line["name"]: line for line in lines}
        for item in items:
            line = got[item["name"]]
            assert line["sandbox"].startswith("userns") and "box" in line["sandbox"], line
            assert line["verdict"] in item["want"], (item["name"], line)
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.parametrize("limit_mb", [256, 2048])
def test_java_runs_at_any_memory_limit(judge, guess_task, limit_mb):
    """HotSpot refuses a thread stack above 1 GiB and never starts: the executor used to pass the
    whole limit as -Xss, so every Java program failed (RE) on a task allowing more than 1 GiB
    (2 GiB is the usual ICPC setting). The deep recursion still needs a stack as large as C++
    gets at 256 MB."""
    task = dataclasses.replace(guess_task, memory_limit_mb=limit_mb)
    source = (java(prologue="if (Deep.down(2_000_000) != 2_000_000) return;")
              + "class Deep { static int down(int k) { return k == 0 ? 0 : down(k - 1) + 1; } }\n")
    r = judge.judge(task, source, "java", cases=task.cases[:1])
    assert r.verdict is Verdict.OK, (limit_mb, r.verdict, r.message, [c.solver_stderr_tail[-300:] for c in r.cases])
