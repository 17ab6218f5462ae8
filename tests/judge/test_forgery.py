"""Verdicts a program cannot forge (issue 21), in both box modes — root (the judge in this
process) and user-namespace (the same judge as an unprivileged user, as on a Slurm node) — and
the floor of rlimit mode. Each attack is a real program that tries one way to a kinder number
than it earned: a judge error (SE, which metrics used to drop) made out of a flood, CPU time
hidden in children it never waits for, memory held where no rlimit looks (memfds, socket and pipe
buffers, the box's tmpfs), state carried from case to case by the PID counter, and, in rlimit
mode, root's powers and the compile cache that later runs trust. Each is followed by an honest
solution judged by the same judge."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from judge_fixtures import build_guess_task, make_public, public_dir, solver

from ibench.judge import Judge, JudgeSettings
from ibench.judge.sandbox.unprivileged import NOBODY, unprivileged_command

HEAD = r"""
#include <bits/stdc++.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
static void report(const char* name, bool leaked, const std::string& detail = "") {
    fprintf(stderr, "%s %s %s\n", leaked ? "LEAK" : "held", name, detail.c_str());
}
"""


def attack(prologue: str, body: str) -> str:
    """The honest binary search, with ``body`` run first (``prologue`` holds its helpers)."""
    return HEAD + prologue + solver().replace("#include <bits/stdc++.h>", "").replace(
        "int main() {", "int main() {\n" + body + "\n")


# Children the program never waits for spin (700 ms of CPU each, whatever the load, then on)
# while it waits, then it answers correctly.
ORPHANS = attack(r"""
static void spin_in_children() {
    int p[2];
    if (pipe(p) != 0) return;
    for (int k = 0; k < 2; k++)
        if (fork() == 0) {
            while (clock() < CLOCKS_PER_SEC * 7 / 10) {}
            if (write(p[1], "x", 1) < 0) _exit(0);
            for (;;) {}
        }
    char c;
    for (int k = 0; k < 2; k++) if (read(p[0], &c, 1) != 1) break;
}""", "spin_in_children();")

# Memory no rlimit counts: anonymous memory files (16 x 32 MB), then an honest answer.
MEMFD = attack(r"""
static void hoard() {
    long held = 0;
    for (int i = 0; i < 16; i++) {
        int fd = (int)syscall(SYS_memfd_create, "x", 0);
        if (fd < 0) break;
        std::vector<char> b(1 << 20, 'x');
        for (int k = 0; k < 32; k++) if (write(fd, b.data(), b.size()) > 0) held += b.size();
    }
    report("memfd", held > (256L << 20), std::to_string(held >> 20) + " MB");
}""", "hoard();")

# Descriptors held in flight in a socket (buffers no limit counts, state that could outlive a
# case) and grown pipes: kernel memory outside every process's limit.
BUFFERS = attack(r"""
static void hoard() {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0) {
        char data = 'x';
        iovec iov{&data, 1};
        union { cmsghdr h; char buf[CMSG_SPACE(sizeof(int))]; } u{};
        msghdr m{};
        m.msg_iov = &iov; m.msg_iovlen = 1; m.msg_control = u.buf; m.msg_controllen = sizeof u.buf;
        cmsghdr* c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = SOL_SOCKET; c->cmsg_type = SCM_RIGHTS; c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &sv[0], sizeof(int));
        report("fd-in-flight", sendmsg(sv[1], &m, 0) == 1);
    } else {
        report("fd-in-flight", false, "no socket pair");  // refused in a box without --sockets
    }
    int p[2];
    if (pipe(p) == 0) report("pipe-resize", fcntl(p[1], F_SETPIPE_SZ, 1 << 20) >= (1 << 20));
}""", "hoard();")

# 120 MB of files in the box's tmpfs and 180 MB of heap under a 256 MB limit.
TMPFS = attack(r"""
static char* heap;
static void hoard() {
    std::vector<char> b(1 << 20, 'x');
    for (const char* f : {"/tmp/a", "b"}) {
        FILE* o = fopen(f, "w");
        for (int k = 0; o && k < 60; k++) fwrite(b.data(), 1, b.size(), o);
        if (o) fclose(o);
    }
    heap = (char*)malloc(180L << 20);
    if (heap) memset(heap, 1, 180L << 20);
}""", "hoard();")

# The PID of each case's solver: a counter that would carry a number from case to case.
PID_PROBE = attack("", 'fprintf(stderr, "pid %d\\n", (int)getpid());')

# A flood at a judge that reads slowly (a correct but unhurried interactor), then sleep: at the
# wall-clock cap the interactor is still busy and the solver waits.
FLOOD = HEAD + r"""
int main() {
    static char b[1 << 20];
    memset(b, ' ', sizeof b);
    if (write(1, b, sizeof b) < 0) return 0;
    sleep(100);
}
"""

# An interactor that spends about 10 us on every byte the solver sends: correct, but slow.
SLOW_INTERACTOR = r"""
#include "testlib.h"
int main(int argc, char** argv) {
    registerInteraction(argc, argv);
    int x = inf.readInt();
    int q = 0;
    tout << "queries=0\nquery_limit=10" << std::endl;
    volatile unsigned long spin = 0;
    for (;;) {
        char c = ouf.readChar();
        for (int i = 0; i < 20000; i++) spin += i;
        if (c == '?') {
            int v = ouf.readInt(1, 1000, "v");
            tout << "queries=" << ++q << std::endl;
            std::cout << (v < x ? "<" : v > x ? ">" : "=") << std::endl;
        } else if (c == '!') {
            int v = ouf.readInt(1, 1000, "v");
            if (v == x) quitf(_ok, "guessed %d", x);
            quitf(_wa, "expected %d, found %d", x, v);
        }
    }
}
"""

# rlimit mode: root's powers and writes outside the working dir (the compile cache above all).
RLIMIT_REACH = HEAD + r"""
int main() {
    report("euid-root", geteuid() == 0);
    report("read-shadow", open("/etc/shadow", O_RDONLY) >= 0);
    report("signal-init", kill(1, 0) == 0);
    int w = open("@CACHE@/ibench-forged", O_CREAT | O_WRONLY, 0644);
    report("write-cache", w >= 0);
    report("write-tmp", open("/tmp/ibench-forged-@TAG@", O_CREAT | O_WRONLY, 0644) >= 0);
    // the interactor's own files of this case (its query log, its transcript): forging them is the
    // kindest number of all; they live in the judge's case-files dir (host.case_files_base)
    bool case_files = open("@CASEFILES@/forged-@TAG@", O_CREAT | O_WRONLY, 0644) >= 0;
    for (int k = 0; k < 4; k++) {
        std::string d = "@CASEFILES@/slot" + std::to_string(k);
        case_files = case_files || open((d + "/tout").c_str(), O_WRONLY | O_APPEND) >= 0 ||
                     open((d + "/forged").c_str(), O_CREAT | O_WRONLY, 0644) >= 0;
    }
    report("write-case-files", case_files);
    report("signal-judge", kill(getppid(), 0) == 0);
    return 0;
}
"""

QUICK = {"wall_factor": 1.0, "wall_extra_s": 0.5, "wall_hard_factor": 1.2}


def leaks(row: dict) -> list[str]:
    return [line for line in "\n".join(row["stderr"]).splitlines() if line.startswith("LEAK")]


@pytest.fixture(scope="module")
def tasks():
    """The guess task and its slow-interactor twin, where an unprivileged judge can read them."""
    base = public_dir("ibench-forgery-")
    guess = build_guess_task(base / "plain")
    slow = build_guess_task(base / "slow")
    (slow / "interactor" / "non_adaptive.cpp").write_text(SLOW_INTERACTOR)
    make_public(base)
    yield {"guess": guess, "slow": slow, "base": base}
    shutil.rmtree(base, ignore_errors=True)


def run_mode(mode: str, task: Path, solutions: dict[str, str], settings: dict, tmp: Path) -> dict[str, dict]:
    """Judge ``solutions`` in order with one judge: in this process (root) or as nobody."""
    if os.geteuid() != 0:
        pytest.skip("the forgery tests start as root: root mode in process, the others as nobody")
    out = Path(tempfile.mkdtemp(prefix="ibench-forgery-sols-", dir=tmp))
    paths = []
    for name, src in solutions.items():
        (out / name).write_text(src)
        paths.append(str(out / name))
    if mode == "root":
        sys.path.insert(0, str(Path(__file__).parent))
        from forgery_driver import judge_all

        rows = judge_all(str(task), paths, settings)
    else:
        home = Path(tempfile.mkdtemp(prefix="ibench-nobody-"))
        os.chmod(home, 0o755)
        os.chown(home, NOBODY, NOBODY)
        for p in map(Path, paths):  # the unprivileged judge's cache is $HOME/cache
            (home / p.name).write_text(p.read_text().replace("@HOME@", str(home)))
        spec = {"task": str(task), "settings": settings, "solutions": [str(home / Path(p).name) for p in paths]}
        for p in home.iterdir():
            os.chmod(p, 0o644)
        cmd = unprivileged_command([sys.executable, str(Path(__file__).with_name("forgery_driver.py")),
                                    json.dumps(spec)], home, needs=[Path(__file__).resolve().parents[2], task])
        if isinstance(cmd, str):
            shutil.rmtree(home, ignore_errors=True)
            pytest.skip(cmd)
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        shutil.rmtree(home, ignore_errors=True)
        rows = [json.loads(line.split(" ", 1)[1]) for line in r.stdout.splitlines()
                if line.startswith("FORGERY-RESULT ")]
        assert len(rows) == len(solutions), f"the unprivileged judge failed (exit {r.returncode}):\n{r.stderr[-3000:]}"
    return {row["solution"]: row for row in rows}


@pytest.fixture(scope="module", params=["root", "userns"])
def box_rows(request, tasks, tmp_path_factory):
    mode = request.param
    sols = {"orphans.cpp": ORPHANS, "honest1.cpp": solver("/* 1 */"),
            "memfd.cpp": MEMFD, "buffers.cpp": BUFFERS, "tmpfs.cpp": TMPFS, "honest2.cpp": solver("/* 2 */"),
            "pid_probe.cpp": PID_PROBE}
    rows = run_mode(mode, tasks["guess"], sols, {}, tmp_path_factory.mktemp(mode))
    flood = run_mode(mode, tasks["slow"], {"flood.cpp": FLOOD, "honest3.cpp": solver("/* 3 */")}, QUICK,
                     tmp_path_factory.mktemp(mode + "-slow"))
    for row in rows.values():
        assert row["sandbox"].startswith(mode + "+") and "+box+" in row["sandbox"], row["sandbox"]
    return mode, {**rows, **flood}


def test_a_flood_at_a_slow_judge_is_the_solvers_failure_not_a_judge_error(box_rows):
    """The interactor still reading the solver's flood at the wall-clock cap, the solver blocked
    writing more: IDLE (the solver's), never SE. An honest solution of the same slow task is OK."""
    _, rows = box_rows
    assert rows["flood.cpp"]["verdict"] == "IDLE", rows["flood.cpp"]
    assert "flood" in rows["flood.cpp"]["message"], rows["flood.cpp"]
    assert rows["honest3.cpp"]["verdict"] == "OK", rows["honest3.cpp"]


def test_cpu_of_children_never_waited_for_is_counted(box_rows):
    _, rows = box_rows
    assert rows["orphans.cpp"]["verdict"] == "TLE", rows["orphans.cpp"]
    assert rows["honest1.cpp"]["verdict"] == "OK", rows["honest1.cpp"]


def test_memory_outside_the_processes_is_bounded(box_rows):
    """memfds, descriptors in flight and grown pipes are refused; files left in the box's tmpfs count
    toward the memory limit as in the cgroup (MLE), and the next honest sample is OK."""
    _, rows = box_rows
    for name in ("memfd.cpp", "buffers.cpp"):
        assert not leaks(rows[name]), (name, leaks(rows[name]))
    assert {"fd-in-flight", "pipe-resize"} <= {
        line.split()[1] for line in "\n".join(rows["buffers.cpp"]["stderr"]).splitlines() if line.startswith("held")}
    assert rows["tmpfs.cpp"]["verdict"] == "MLE", rows["tmpfs.cpp"]
    assert rows["honest2.cpp"]["verdict"] == "OK", rows["honest2.cpp"]


def test_the_pid_counter_carries_nothing_from_case_to_case(box_rows):
    _, rows = box_rows
    row = rows["pid_probe.cpp"]
    assert row["verdict"] == "OK" and len(row["stderr"]) == 6, row
    pids = {line for tail in row["stderr"] for line in tail.splitlines() if line.startswith("pid ")}
    assert len(pids) == 1, pids


def test_rlimit_mode_as_root_drops_root_and_cannot_touch_the_cache(tasks, tmp_path):
    """rlimit mode as root: the slot's unprivileged uid with no capabilities, writes confined to
    the working dir; then a boxed judge sharing the cache still judges a wrong program WA."""
    if os.geteuid() != 0:
        pytest.skip("root only")
    cache = tmp_path / "cache"
    settings = {"isolation": "rlimit", "cache_dir": str(cache)}
    j = Judge(JudgeSettings(**settings))
    src = (RLIMIT_REACH.replace("@CACHE@", str(j.cache_dir / "bin")).replace("@TAG@", str(os.getpid()))
           .replace("@CASEFILES@", f"/dev/shm/ibench-{os.geteuid()}"))
    rows = run_mode("root", tasks["guess"], {"reach.cpp": src, "honest.cpp": solver("/* r */")}, settings, tmp_path)
    assert not leaks(rows["reach.cpp"]), leaks(rows["reach.cpp"])
    assert rows["honest.cpp"]["verdict"] == "OK", rows["honest.cpp"]
    assert "unprivileged uid" in " ".join(j.sandbox.warnings)
    boxed = run_mode("root", tasks["guess"], {"wrong.cpp": '#include <cstdio>\nint main(){ puts("! 1"); }',
                                              "honest.cpp": solver("/* r */")}, {"cache_dir": str(cache)}, tmp_path)
    assert boxed["wrong.cpp"]["verdict"] == "WA" and boxed["honest.cpp"]["verdict"] == "OK", boxed


def test_rlimit_mode_without_root_confines_writes_with_landlock(tasks, tmp_path):
    from ibench.judge.sandbox.host import landlock_abi

    if not landlock_abi():
        pytest.skip("no Landlock on this kernel: rlimit mode without root is refused here (see the next test)")
    src = (RLIMIT_REACH.replace("@CACHE@", "@HOME@/cache").replace("@TAG@", str(os.getpid()))
           .replace("@CASEFILES@", f"/dev/shm/ibench-{NOBODY}"))
    rows = run_mode("rlimit", tasks["guess"], {"reach.cpp": src, "honest.cpp": solver("/* n */")},
                    {"isolation": "rlimit"}, tmp_path)
    row = rows["reach.cpp"]
    assert row["sandbox"].startswith("rlimit"), row
    bad = [line for line in leaks(row) if "read-shadow" not in line]
    assert not bad, bad
    assert rows["honest.cpp"]["verdict"] == "OK", rows["honest.cpp"]


def test_resident_memory_is_stopped_at_the_limit_without_a_cgroup(tmp_path):
    """User-namespace mode has no memory cgroup: the JVM's stack overflow (stack = the limit)
    grew to 1.6 GB resident and spent 1.2-2 s of CPU on page faults, so its declared MLE turned
    TLE under load. The supervisor now stops resident memory past the limit as a cgroup would:
    MLE on every case, long before the CPU limit. Three cases in one sample's box, so a later
    case's CPU reading must not include the earlier cases' solvers either."""
    task = Path(__file__).resolve().parents[2] / "tasks" / "guess-the-number"
    src = (task / "solutions" / "mle_stack_overflow.java").read_text()
    rows = run_mode("userns", task, {"so.java": src}, {"non_adaptive_cases": 3, "all_cases": True}, tmp_path)
    cases = rows["so.java"]["cases"]
    assert [c["verdict"] for c in cases] == ["MLE"] * 3, cases
    assert all(c["cpu_ms"] < 1000 for c in cases), cases
