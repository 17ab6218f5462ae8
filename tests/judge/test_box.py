"""The sandbox as an allowlist box, tried as a hostile solution would, in both modes: root (the
judge in this process) and user-namespace (the same judge run as an unprivileged user, as on a
Slurm node). Each probe program tries one class of attack and prints `held NAME` or
`LEAK NAME` per attempt to its stderr; each test asserts that nothing leaked, and judges an honest
solution right after every attack that could leave state behind.

The task sits inside a git repository of its own, beside other folders, as a checkout would."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from judge_fixtures import build_guess_task, make_public, public_dir, solver

from box_driver import judge_all
from ibench.judge import Judge, JudgeSettings
from ibench.judge.judge import IsolationError
from ibench.judge.sandbox.unprivileged import NOBODY, unprivileged_command
from ibench.tasks.load import load_task

ABSTRACT_NAME = f"ibench-box-test-{os.getpid()}"

PROBE_HEAD = r"""
#include <bits/stdc++.h>
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/ipc.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
static void report(const char* name, bool leaked, const std::string& detail = "") {
    fprintf(stderr, "%s %s %s\n", leaked ? "LEAK" : "held", name, detail.c_str());
}
static bool can_open(const char* p) {
    int fd = open(p, O_RDONLY);
    if (fd >= 0) { close(fd); return true; }
    return false;
}
"""

# Hidden data and everything else outside the allowlist; host services; kernel interfaces that
# reach past the box.
PROBE_REACH = PROBE_HEAD + r"""
int main() {
    report("case-file", can_open("@CASE@"));
    report("repo-git-head", can_open("@REPO@/.git/HEAD"));
    report("repo-git-objects", can_open("@REPO@/.git/objects"));
    report("repo-dir", can_open("@REPO@"));
    report("judge-cache", can_open("@CACHE@"));
    report("judge-runtime", can_open("@RUNTIME@"));
    report("judge-case-files", can_open("@CASEFILES@") || can_open("@CASEFILES@/slot0/tout"));
    report("etc-passwd", can_open("/etc/passwd"));
    report("home", can_open("/home") || can_open("/root"));
    report("run", can_open("/run") || can_open("/run/lock"));
    report("shell-and-git", can_open("/bin/sh") || can_open("/usr/bin/git"));
    DIR* d = opendir("/proc");
    int pids = 0;
    if (d) { while (dirent* e = readdir(d)) if (isdigit(e->d_name[0])) pids++; closedir(d); }
    report("proc-other-processes", pids > 2, std::to_string(pids) + " pids");
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    const char* nm = "@ABSTRACT@";
    memcpy(a.sun_path + 1, nm, strlen(nm));
    bool conn = connect(s, (sockaddr*)&a, offsetof(sockaddr_un, sun_path) + 1 + strlen(nm)) == 0;
    close(s);
    report("host-abstract-socket", conn);
    std::ifstream u("/proc/net/unix");
    std::string all((std::istreambuf_iterator<char>(u)), std::istreambuf_iterator<char>());
    report("proc-net-unix", all.find(nm) != std::string::npos);
    report("inet-socket", socket(AF_INET, SOCK_STREAM, 0) >= 0);
    uint32_t params[30] = {0};
    report("io_uring", syscall(__NR_io_uring_setup, 4, params) >= 0);
    report("keyring", syscall(__NR_add_key, "user", "ibench", "x", 1, -4 /* session keyring */) >= 0);
    report("unshare-user", unshare(CLONE_NEWUSER) == 0);
    report("unshare-net", unshare(CLONE_NEWNET) == 0);
    long c = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
    if (c == 0) _exit(0);
    if (c > 0) waitpid((pid_t)c, 0, 0);
    report("clone-newuser", c >= 0);
    report("mount", mount("none", "/tmp", "tmpfs", 0, 0) == 0);
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int i = 0; i < 64; i++) CPU_SET(i, &set);
    report("setaffinity", sched_setaffinity(0, sizeof set, &set) == 0);
    report("ptrace-init", ptrace(PTRACE_ATTACH, 1, 0, 0) == 0);
    report("write-root", open("/ibench-x", O_CREAT | O_WRONLY, 0644) >= 0);
    report("write-usr", open("/usr/lib/ibench-x", O_CREAT | O_WRONLY, 0644) >= 0);
    report("proc-init-mem", can_open("/proc/1/mem"));
    return 0;
}
"""

# Leave the slot in a state that would trip the judge or the next sample: an open mode, links to
# host files where the judge writes, a daemon, a tree deeper than Python's recursion limit.
PROBE_POISON = PROBE_HEAD + r"""
int main() {
    report("chmod-cwd", chmod(".", 0777) == 0 && false);
    symlink("/etc/passwd", "solution.bin");
    symlink("/etc", "inc0");
    symlink("/etc/passwd", "compile.out");
    if (fork() == 0) {  // a daemon that keeps planting links
        setsid();
        for (int i = 0; i < 300; i++) { symlink("/etc/shadow", ("x" + std::to_string(i)).c_str()); usleep(10000); }
        _exit(0);
    }
    for (int i = 0; i < 5000; i++) {
        if (mkdir("d", 0777) != 0 || chdir("d") != 0) { report("deep-tree", false, "stopped at " + std::to_string(i)); break; }
    }
    report("poisoned", false);
    kill(-1, SIGKILL);  // every process this solver may signal (the daemon above, nothing of the judge)
    return 0;
}
"""

# State that would outlive the case: SysV shared memory (charged to the slot's memory cgroup),
# files in every writable place, a keyring key. Run twice: the second run looks for the first's.
PROBE_STATE = PROBE_HEAD + r"""
int main() {
    report("shm-leftover", shmget(0x1be7c400, 0, 0) >= 0);
    report("tmp-leftover", can_open("/tmp/ibench-big"));
    report("devshm-leftover", can_open("/dev/shm/ibench-big"));
    report("cwd-leftover", can_open("ibench-big"));
    for (int k = 0; k < 5; k++) {
        int id = shmget(0x1be7c400 + k, 40 << 20, IPC_CREAT | 0666);
        if (id < 0) { report("shm-create", false, strerror(errno)); break; }
        char* p = (char*)shmat(id, nullptr, 0);
        if (p == (char*)-1) break;
        memset(p, 1, 40 << 20);
        shmdt(p);
    }
    std::string block(1 << 20, 'x');
    for (const char* f : {"/tmp/ibench-big", "/dev/shm/ibench-big", "ibench-big"}) {
        FILE* out = fopen(f, "w");
        for (int i = 0; out && i < 8; i++) fwrite(block.data(), 1, block.size(), out);
        if (out) fclose(out);
    }
    report("run-lock-write", open("/run/lock/ibench-x", O_CREAT | O_WRONLY, 0644) >= 0);
    report("keyring", syscall(__NR_add_key, "user", "ibench-left", "x", 1, -4) >= 0);
    return 0;
}
"""

# Run before an honest game in every case: finds whatever an earlier case of the same sample
# left, then leaves the same.
STATE_EACH_CASE = PROBE_HEAD + r"""
static void leave_state() {
    report("shm-leftover", shmget(0x1be7c500, 0, 0) >= 0);
    report("tmp-leftover", can_open("/tmp/ibench-case"));
    report("cwd-leftover", can_open("ibench-case"));
    int id = shmget(0x1be7c500, 8 << 20, IPC_CREAT | 0666);
    if (id >= 0) { char* p = (char*)shmat(id, nullptr, 0); if (p != (char*)-1) { memset(p, 1, 8 << 20); shmdt(p); } }
    for (const char* f : {"/tmp/ibench-case", "ibench-case"}) { FILE* o = fopen(f, "w"); if (o) { fputs("x", o); fclose(o); } }
    if (fork() == 0) { setsid(); for (;;) pause(); }  // a daemon that would outlive the case
}
"""

# Compile time: the assembler embeds the bytes of any file it can read.
INCBIN = (r'#include <bits/stdc++.h>' '\n'
          r'__asm__(".section .rodata\n.global leaked\nleaked:\n.incbin \"@PATH@\"\n.byte 0\n.text\n");' '\n'
          r'extern "C" const char leaked[];' '\n'
          r'int main(){ fprintf(stderr, "LEAK incbin %s\n", leaked); }')

PY_OK = """
lo, hi = 1, 1000
while lo < hi:
    m = (lo + hi) // 2
    print("?", m, flush=True)
    r = input().strip()
    if r == "=":
        lo = hi = m
        break
    if r == "<":
        lo = m + 1
    else:
        hi = m - 1
print("!", lo, flush=True)
"""


@pytest.fixture(scope="module")
def repo_task():
    """The guess task inside a git repository (history holds every case) beside other folders,
    readable by everyone: only the box may keep a solver out."""
    base = public_dir("ibench-box-")  # outside /tmp, which any sandbox replaces
    repo = base / "checkout"
    root = build_guess_task(repo / "bench" / "tasks")
    (repo / "notes").mkdir()
    (repo / "notes" / "answers.txt").write_text("777\n")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    for cmd in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-qm", "tasks"]):
        subprocess.run(cmd, cwd=repo, check=True, env=env, capture_output=True)
    make_public(base)
    yield load_task(root), repo
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="module")
def abstract_listener():
    """A host service on an abstract unix socket, reachable from any process of the host's
    network namespace."""
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind("\0" + ABSTRACT_NAME)
    srv.listen(8)
    yield
    srv.close()


def write_solutions(task, repo: Path, cache: str, runtime: str, out: Path,
                    case_files: str = f"/dev/shm/ibench-{os.geteuid()}") -> dict[str, Path]:
    """The probe programs and the honest solutions, in the order the tests judge them.
    ``case_files``: the judge's per-case files of the interactor (host.case_files_base)."""
    case = str(task.cases[0].input_path)
    subst = {"@CASE@": case, "@REPO@": str(repo), "@CACHE@": cache, "@RUNTIME@": runtime, "@CASEFILES@": case_files,
             "@ABSTRACT@": ABSTRACT_NAME}

    def fill(src: str) -> str:
        for k, v in subst.items():
            src = src.replace(k, v)
        return src

    sources = {
        "reach.cpp": fill(PROBE_REACH),
        "incbin_case.cpp": INCBIN.replace("@PATH@", case),
        "incbin_git.cpp": INCBIN.replace("@PATH@", str(repo / ".git" / "HEAD")),
        "poison.cpp": PROBE_POISON,
        "honest_after_poison.cpp": solver(),
        "fork_bomb.cpp": "#include <unistd.h>\n#include <thread>\nint main(){ for(;;) { fork(); "
                         "try { std::thread([]{ for(;;); }).detach(); } catch (...) {} } }",
        "honest_after_fork_bomb.cpp": solver("/* after the bomb */"),
        "state1.cpp": PROBE_STATE,
        "honest_after_state.cpp": solver("/* after state */"),
        "state2.cpp": PROBE_STATE.replace("int main() {", "int main() { /* second run */"),
        "honest.py": PY_OK,
        # every case of one sample: the box serves them all, and must be as new for each
        "state_every_case.cpp": solver("/* state */").replace(
            "int main() {", STATE_EACH_CASE + "int main() { leave_state();"),
    }
    out.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, src in sources.items():
        (out / name).write_text(src)
        paths[name] = out / name
    make_public(out)
    return paths


def leaks(row: dict) -> list[str]:
    lines = "\n".join(row["stderr"]).splitlines()
    return [line for line in lines if line.startswith("LEAK")]


def helds(row: dict) -> set[str]:
    lines = "\n".join(row["stderr"]).splitlines()
    return {line.split()[1] for line in lines if line.startswith("held")}


@pytest.fixture(scope="module", params=["root", "userns"])
def box_run(request, repo_task, abstract_listener, tmp_path_factory):
    """Every probe and honest solution, judged in order by one judge of the given mode."""
    task, repo = repo_task
    if os.geteuid() != 0:
        pytest.skip("the box tests start as root: root mode in process, user-namespace mode as nobody")
    if request.param == "root":
        judge = Judge(JudgeSettings())
        if not judge.sandbox.boxed:
            pytest.skip(f"no box on this host: {judge.sandbox.warnings}")
        from ibench.judge.sandbox.host import runtime_dir
        sols = write_solutions(task, repo, str(judge.cache_dir), str(runtime_dir()),
                               tmp_path_factory.mktemp("sols-root"))
        rows = judge_all(task.root, list(sols.values()))
    else:
        home = Path(tempfile.mkdtemp(prefix="ibench-nobody-"))
        os.chmod(home, 0o755)
        os.chown(home, NOBODY, NOBODY)
        sols = write_solutions(task, repo, f"{home}/cache", f"/tmp/ibench-rt-{NOBODY}", home / "sols",
                               case_files=f"/dev/shm/ibench-{NOBODY}")
        cmd = unprivileged_command([sys.executable, str(Path(__file__).with_name("box_driver.py")),
                                    str(task.root), *map(str, sols.values())], home,
                                   needs=[Path(__file__).resolve().parents[2], task.root])
        if isinstance(cmd, str):
            shutil.rmtree(home, ignore_errors=True)
            pytest.skip(cmd)
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        shutil.rmtree(home, ignore_errors=True)
        rows = [json.loads(line[len("BOX-RESULT "):]) for line in r.stdout.splitlines()
                if line.startswith("BOX-RESULT ")]
        assert len(rows) == len(sols), f"the unprivileged judge failed (exit {r.returncode}):\n{r.stderr[-3000:]}"
    return request.param, {row["solution"]: row for row in rows}


def test_each_mode_builds_its_box(box_run):
    mode, rows = box_run
    for row in rows.values():
        assert row["sandbox"].startswith(mode + "+") and "+box+" in row["sandbox"], row["sandbox"]


def test_nothing_outside_the_allowlist_is_reachable(box_run):
    """Hidden cases by absolute path, the repository and its history, the judge's cache and
    runtime dirs, the host's files, processes and services, and the kernel interfaces that
    reach past a box."""
    _, rows = box_run
    row = rows["reach.cpp"]
    assert not leaks(row), leaks(row)
    expected = {"case-file", "repo-git-head", "repo-git-objects", "repo-dir", "judge-cache", "judge-runtime",
                "judge-case-files", "etc-passwd", "home", "run", "shell-and-git", "proc-other-processes", "host-abstract-socket",
                "proc-net-unix", "inet-socket", "io_uring", "keyring", "unshare-user", "unshare-net",
                "clone-newuser", "mount", "setaffinity", "ptrace-init", "write-root", "write-usr", "proc-init-mem"}
    assert expected <= helds(row), f"probes that did not report: {expected - helds(row)}"


def test_compile_time_reads_outside_the_inputs_fail(box_run):
    _, rows = box_run
    for name in ("incbin_case.cpp", "incbin_git.cpp"):
        assert rows[name]["verdict"] == "CE", rows[name]
        assert "LEAK" not in json.dumps(rows[name]["stderr"])


def test_a_solver_cannot_poison_its_slot(box_run):
    """Open modes, planted links, a daemon and a 5,000-deep tree stay inside the box: the slot's
    host dirs are the judge's own and empty, no host file changed owner, and the next honest
    sample in the same slot is judged OK."""
    _, rows = box_run
    row = rows["poison.cpp"]
    assert "poisoned" in helds(row), row
    for r in (row, rows["honest_after_poison.cpp"]):
        scratch = r["slot"]["scratch"]
        assert scratch["mode"] == "0o700" and scratch["uid"] == scratch["judge_uid"] and scratch["entries"] == [], r
        assert r["slot"]["work"]["mode"] == "0o700"
    assert os.stat("/etc/passwd").st_uid == 0 and os.stat("/etc/shadow").st_uid == 0
    assert rows["honest_after_poison.cpp"]["verdict"] == "OK", rows["honest_after_poison.cpp"]


def test_fork_and_thread_bombs_are_contained(box_run):
    """Processes and threads are capped in both modes (a cgroup and the slot uid as root; the box's
    own user namespace without root); the bomb ends as TLE and the next sample is judged OK."""
    mode, rows = box_run
    assert rows["fork_bomb.cpp"]["verdict"] == "TLE", rows["fork_bomb.cpp"]
    assert rows["honest_after_fork_bomb.cpp"]["verdict"] == "OK", rows["honest_after_fork_bomb.cpp"]
    if mode == "root":  # the slot's own uid: nothing of the solver outlives its case
        uid = rows["fork_bomb.cpp"]["slot"]["solver_uid"]
        uids = [int(u) for u in subprocess.run(["ps", "-eo", "uid="], capture_output=True, text=True).stdout.split()]
        assert uid not in uids, f"a process of uid {uid} outlived its case"


def test_no_state_outlives_a_case(box_run):
    """SysV shared memory, files in /tmp, /dev/shm and the working dir, keys: gone with the case,
    so the next honest sample is OK (not MLE) and a second run finds nothing of the first."""
    _, rows = box_run
    for name in ("state1.cpp", "state2.cpp"):
        assert not leaks(rows[name]), (name, leaks(rows[name]))
        assert {"shm-leftover", "tmp-leftover", "devshm-leftover", "cwd-leftover", "run-lock-write",
                "keyring"} <= helds(rows[name]), rows[name]
    assert rows["honest_after_state.cpp"]["verdict"] == "OK", rows["honest_after_state.cpp"]
    assert not Path("/run/lock/ibench-x").exists()
    every = rows["state_every_case.cpp"]
    assert every["verdict"] == "OK" and len(every["stderr"]) == 6, every  # all six cases ran
    assert not leaks(every), leaks(every)


def test_python_runs_in_the_box(box_run):
    _, rows = box_run
    assert rows["honest.py"]["verdict"] == "OK", rows["honest.py"]


def test_a_tampered_cache_entry_is_rebuilt_not_run(tmp_path):
    """A cache entry is checked against the digest recorded when it was built: one whose file
    was replaced is rebuilt, never run."""
    base = Path(tempfile.mkdtemp(prefix="ibench-cache-"))
    settings = JudgeSettings(cache_dir=str(tmp_path / "cache"))

    def binaries() -> set[Path]:
        return {p for p in (tmp_path / "cache" / "bin").rglob("*")
                if p.is_file() and p.suffix != ".json" and not p.name.startswith(".")}

    try:
        task = load_task(build_guess_task(base))
        first = Judge(settings).judge(task, solver("/* tamper */"))
        assert first.verdict.value == "OK" and not first.compile.cached
        honest = binaries()
        wrong = Judge(settings).judge(task, '#include <cstdio>\nint main(){ puts("! 1"); /* tampered */ }')
        assert wrong.verdict.value == "WA"
        (wrong_bin,) = binaries() - honest
        for p in honest:  # every entry of the first run now holds the wrong program
            shutil.copy(wrong_bin, p)
        again = Judge(settings).judge(task, solver("/* tamper */"))
        assert again.verdict.value == "OK" and not again.compile.cached, again
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_a_cache_entry_changed_after_its_check_is_checked_again(tmp_path):
    """A judge remembers which entries it has hashed (by the file's identity), so a program
    judged again is not hashed again; a write to the file in place, even one that keeps its
    size and sets its modification time back, is seen and the entry rebuilt."""
    base = Path(tempfile.mkdtemp(prefix="ibench-cache-"))
    try:
        task = load_task(build_guess_task(base))
        judge = Judge(JudgeSettings(cache_dir=str(tmp_path / "cache")))
        first = judge.judge(task, solver("/* in place */"))
        assert first.verdict.value == "OK" and not first.compile.cached
        assert judge.judge(task, solver("/* in place */")).compile.cached  # checked, remembered
        (binary,) = judge.cache._verified
        st = binary.stat()
        data = bytearray(binary.read_bytes())
        data[-1] ^= 0xFF  # same size, other bytes
        binary.write_bytes(bytes(data))
        os.utime(binary, ns=(st.st_atime_ns, st.st_mtime_ns))
        again = judge.judge(task, solver("/* in place */"))
        assert again.verdict.value == "OK" and not again.compile.cached, again
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_required_isolation_refuses_a_host_without_a_box():
    with pytest.raises(IsolationError, match="require_isolation"):
        Judge(JudgeSettings(isolation="rlimit", require_isolation=True))
    j = Judge(JudgeSettings(isolation="rlimit"))
    assert j.sandbox.label == "rlimit+seccomp" and "could read files" in " ".join(j.sandbox.warnings)
