"""Nothing crosses from one sample to a later one (docs/JUDGE.md, "Nothing crosses").

Each attack publishes a value in some host or kernel state the box can touch, and a later
program of the same judge tries to read it back without a single query; an honest program
judged right after must be untouched. In root mode (in process) and in user-namespace mode (as
nobody), several samples through one judge, as an evaluation runs them:

- the page cache of files every box shares: a publisher evicts or loads chosen pages of a host
  library, a consumer asks which are cached (preadv2 RWF_NOWAIT) and decodes the value;
- the IPC namespace's id allocator and object names: SysV ids advance with every object
  created, POSIX message-queue names persist;
- memory no limit counts without a memory cgroup: SysV segments, extended attributes, inodes.
"""

from __future__ import annotations

import shutil

import pytest
from judge_fixtures import build_guess_task, make_public, public_dir, solver
from test_forgery import attack, run_mode
from test_python_executor import SEARCH

# A file of the host that every dynamically linked box bound (under /usr/lib) and no process maps.
SHARED = "/usr/lib/x86_64-linux-gnu/libc.a"
BITS = 16

PAGES = r"""
#include <sys/uio.h>
static const char* SHARED = "@SHARED@";
static const int BITS = @BITS@;
static long page_of(int bit) { return (long)(64 + 7 * bit) * 4096; }  // far apart: no readahead between
"""

# Writes `value` into the cache state of BITS pages: a 1 is a page read in, a 0 a page evicted.
PUBLISH = PAGES + r"""
static void publish(unsigned value) {
    int fd = open(SHARED, O_RDONLY);
    if (fd < 0) { report("page-cache-publish", false, "cannot open the shared library"); return; }
    char b[4096];
    int evicted = 0;
    for (int bit = 0; bit < BITS; bit++) {
        if (value >> bit & 1) { if (pread(fd, b, sizeof b, page_of(bit)) < 0) {} }
        else evicted += posix_fadvise(fd, page_of(bit), 4096, POSIX_FADV_DONTNEED) == 0;
    }
    report("page-cache-publish", evicted > 0, std::to_string(evicted) + " pages evicted");
    close(fd);
}"""

# Reads the value back: which pages are cached, asked without reading them.
CONSUME = PAGES + r"""
static void consume() {
    int fd = open(SHARED, O_RDONLY);
    if (fd < 0) { fprintf(stderr, "decoded -1 (no shared file: %s)\n", strerror(errno)); return; }
    long value = 0;
    char b[4096];
    for (int bit = 0; bit < BITS; bit++) {
        iovec v{b, sizeof b};
        ssize_t n = preadv2(fd, &v, 1, page_of(bit), RWF_NOWAIT);
        if (n < 0 && errno != EAGAIN) { fprintf(stderr, "decoded -1 (probe refused: %s)\n", strerror(errno)); return; }
        if (n > 0) value |= 1L << bit;
    }
    fprintf(stderr, "decoded %ld\n", value);
    close(fd);
}"""

# Advances the IPC namespace's id counter `k` times (a SysV segment made and removed each time),
# leaves a named POSIX queue behind; the reader makes one object and reads its id.
IPC_PUBLISH = r"""
#include <sys/ipc.h>
#include <sys/shm.h>
#include <mqueue.h>
static void publish_ipc(int k) {
    int made = 0;
    for (int i = 0; i < k; i++) {
        int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
        if (id >= 0) { made++; shmctl(id, IPC_RMID, nullptr); }
    }
    mqd_t q = mq_open("/ibench-channel", O_CREAT | O_RDWR, 0600, nullptr);
    report("ipc-publish", made > 0 || q != (mqd_t)-1, std::to_string(made) + " segments");
}"""
IPC_CONSUME = r"""
#include <sys/ipc.h>
#include <sys/shm.h>
#include <mqueue.h>
static void consume_ipc() {
    int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
    mqd_t q = mq_open("/ibench-channel", O_RDWR);
    fprintf(stderr, "ipc-id %d queue %d\n", id, q != (mqd_t)-1);
    if (id >= 0) shmctl(id, IPC_RMID, nullptr);
}"""

# Memory outside every process: SysV segments kept attached-then-detached, xattrs on /tmp files,
# many empty files (inodes), and data queued in a socket pair.
UNCOUNTED = r"""
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/xattr.h>
static void hoard() {
    long shm = 0;
    for (int i = 0; i < 8; i++) {
        int id = shmget(IPC_PRIVATE, 64L << 20, IPC_CREAT | 0600);
        if (id < 0) break;
        char* p = (char*)shmat(id, nullptr, 0);
        if (p != (char*)-1) { memset(p, 1, 64L << 20); shmdt(p); shm += 64; }
    }
    report("sysv-shm", shm > 0, std::to_string(shm) + " MB");
    FILE* f = fopen("/tmp/x", "w");
    if (f) fclose(f);
    std::string v(60000, 'v');
    int xattrs = 0;
    for (int i = 0; i < 16; i++) xattrs += setxattr("/tmp/x", ("user.a" + std::to_string(i)).c_str(), v.data(), v.size(), 0) == 0;
    report("xattr", xattrs > 0, std::to_string(xattrs) + " set");
    int files = 0;
    for (int i = 0; i < 20000; i++) {
        int fd = open(("/tmp/f" + std::to_string(i)).c_str(), O_CREAT | O_WRONLY, 0600);
        if (fd < 0) break;
        close(fd);
        files++;
    }
    report("inodes", files >= 20000, std::to_string(files) + " files");
    int sv[2];
    long queued = 0;
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0) {
        fcntl(sv[1], F_SETFL, O_NONBLOCK);
        std::string b(65536, 'b');
        for (ssize_t n; (n = write(sv[1], b.data(), b.size())) > 0;) queued += n;
    }
    report("socket-buffers", queued > 0, std::to_string(queued >> 10) + " KB queued");
}"""


def program(prologue: str, body: str) -> str:
    return attack(prologue.replace("@SHARED@", SHARED).replace("@BITS@", str(BITS)), body)


def decoded(row: dict) -> list[str]:
    return [line for tail in row["stderr"] for line in tail.splitlines() if line.startswith(("decoded", "ipc-id"))]


@pytest.fixture(scope="module")
def task():
    base = public_dir("ibench-crossing-")
    root = build_guess_task(base)
    make_public(base)
    yield root
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="module", params=["root", "userns"])
def rows(request, task, tmp_path_factory):
    sols = {"publish_a.cpp": program(PUBLISH, "publish(0xA5C3);"), "consume_a.cpp": program(CONSUME, "consume();"),
            "publish_b.cpp": program(PUBLISH, "publish(0x5A3C);"), "consume_b.cpp": program(CONSUME, "consume();"),
            "ipc_publish_3.cpp": program(IPC_PUBLISH, "publish_ipc(3);"),
            "ipc_consume_a.cpp": program(IPC_CONSUME, "consume_ipc();"),
            "ipc_publish_40.cpp": program(IPC_PUBLISH, "publish_ipc(40);"),
            "ipc_consume_b.cpp": program(IPC_CONSUME, "consume_ipc();"),
            "uncounted.cpp": program(UNCOUNTED, "hoard();"), "honest.cpp": solver("/* after */")}
    return request.param, run_mode(request.param, task, sols, {}, tmp_path_factory.mktemp(request.param))


def test_the_page_cache_carries_nothing_between_samples(rows):
    mode, r = rows
    for name in ("publish_a.cpp", "publish_b.cpp"):
        assert not any("LEAK" in t for t in r[name]["stderr"]), (mode, name, r[name]["stderr"])
    a, b = decoded(r["consume_a.cpp"]), decoded(r["consume_b.cpp"])
    # the consumer's box holds no file another sample's box holds, and cannot ask the cache
    assert a and b and a == b and a[0].startswith("decoded -1"), (mode, a, b)


def test_the_ipc_namespace_carries_nothing_between_samples(rows):
    mode, r = rows
    assert not any("LEAK" in t for t in r["ipc_publish_40.cpp"]["stderr"]), (mode, r["ipc_publish_40.cpp"]["stderr"])
    a, b = decoded(r["ipc_consume_a.cpp"]), decoded(r["ipc_consume_b.cpp"])
    assert set(a) == set(b) == {"ipc-id -1 queue 0"}, (mode, a, b)  # one line per case


def test_memory_no_limit_counts_cannot_be_taken(rows):
    mode, r = rows
    leaked = [line for t in r["uncounted.cpp"]["stderr"] for line in t.splitlines() if line.startswith("LEAK")]
    assert not leaked, (mode, leaked)
    assert r["honest.cpp"]["verdict"] == "OK", (mode, r["honest.cpp"])


# A "Python" sample that tries to run native code: ctypes, a compiler or shell of the host, an
# ELF it wrote itself (run directly and through the loader); then it plays honestly.
PY_NATIVE = r'''
import os, shutil, sys
def report(name, leaked, detail=""):
    sys.stderr.write(("LEAK " if leaked else "held ") + name + " " + detail + "\n")
try:
    import ctypes
    report("ctypes", True)
except Exception as e:
    report("ctypes", False, type(e).__name__)
for tool in ("gcc", "cc", "g++", "as", "ld", "sh", "bash"):
    report("tool-" + tool, any(os.path.exists(d + "/" + tool) for d in ("/usr/bin", "/bin", "/usr/local/bin")))
data = open(sys.executable, "rb").read()
for where in ("/tmp/x", "x"):
    try:
        with open(where, "wb") as f:
            f.write(data)
        os.chmod(where, 0o755)
        report("exec-own-elf " + where, os.spawnv(os.P_WAIT, where, [where, "-c", "pass"]) == 0)
    except OSError as e:
        report("exec-own-elf " + where, False, type(e).__name__)
    for loader in ("/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1"):
        if os.path.exists(loader):
            try:
                report("loader-own-elf " + where, os.spawnv(os.P_WAIT, loader, [loader, where, "-c", "pass"]) == 0)
            except OSError as e:
                report("loader-own-elf " + where, False, type(e).__name__)
''' + SEARCH  # then the honest game


@pytest.mark.parametrize("mode", ["root", "userns"])
def test_a_python_sample_runs_only_python(mode, task, tmp_path):
    r = run_mode(mode, task, {"native.py": PY_NATIVE}, {"non_adaptive_cases": 1}, tmp_path)["native.py"]
    lines = [line for t in r["stderr"] for line in t.splitlines() if line.startswith(("LEAK", "held"))]
    assert len(lines) >= 10 and not [line for line in lines if line.startswith("LEAK")], (mode, lines)
    assert r["verdict"] == "OK", (mode, r)


def test_the_sandbox_line_says_which_kernel_memory_bounds_hold():
    """Without a memory cgroup (user-namespace mode) the launch's sandbox line names what bounds
    the kernel memory no process limit counts; with one, the cgroup does."""
    from ibench.judge.sandbox.host import Isolation

    userns = Isolation("userns", "none", True).bounds
    assert "no SysV or mq objects, no xattrs, no sockets but the JVM's" in userns and "4096 inodes" in userns
    assert "by the slot's cgroup" in Isolation("root", "v1", True).bounds
