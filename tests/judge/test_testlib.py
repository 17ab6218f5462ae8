"""ibench's own testlib.h (ibench/judge/testlib/testlib.h), checked against testlib 0.9.45 behaviour
(shared/TESTLIB_FACTS.md): bit-exact rnd, verdicts, exit codes, messages, opts, and the ibench
transcript extension of interactors over real pipes.

One multi-mode C++ program is compiled once per session (argv[1] picks checker / interactor /
validator / generator, env TL_CASE picks the behaviour), plus a -DENABLE_UNEXPECTED_EOF build and
a syntax-only compile of forbidden calls, all three in parallel.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

HEADER_DIR = Path(__file__).resolve().parents[2] / "ibench" / "judge" / "testlib"
GXX = shutil.which("g++")

pytestmark = pytest.mark.skipif(GXX is None, reason="g++ is not installed")

MULTI_SRC = r'''
// One test program, many behaviours: argv[1] picks the kind, env TL_CASE the behaviour.
#include "testlib.h"
using namespace std;

static string tlcase() { const char* c = getenv("TL_CASE"); return c ? c : ""; }

template <class T> static void pv(const vector<T>& v) {
    for (size_t i = 0; i < v.size(); i++) cout << (i ? " " : "") << v[i];
    cout << "\n";
}

static int gen_main(int argc, char* argv[]) {
    string c = tlcase();
    if (c == "v0") registerGen(argc, argv, 0); else registerGen(argc, argv, 1);
    if (c == "seq" || c == "v0") {
        for (int i = 0; i < 5; i++) cout << rnd.next(1, 100) << (i < 4 ? " " : "\n");
    } else if (c == "battery") {
        cout << "int"; for (int n : {1, 2, 7, 64, 100, 1000000007 - 7}) cout << " " << rnd.next(n); cout << "\n";
        cout << "ll"; for (long long n : {3LL, 1000000000000LL}) cout << " " << rnd.next(n); cout << "\n";
        cout << "range " << rnd.next(-5, 5) << " " << rnd.next(1LL, 1000000000000000000LL) << "\n";
        { double d1 = rnd.next(); double d2 = rnd.next(10.0); double d3 = rnd.next(2.0, 3.0); printf("double %.17g %.17g %.17g\n", d1, d2, d3); fflush(stdout); }
        cout << "wnext " << rnd.wnext(100, 3) << " " << rnd.wnext(100, -3) << " " << rnd.wnext(100, 30)
             << " " << rnd.wnext(100, -30) << " " << rnd.wnext(1, 100, 2) << "\n";
        vector<int> v = {10, 20, 30, 40, 50};
        cout << "any " << rnd.any(v) << " " << rnd.wany(v, 2) << "\n";
        shuffle(v.begin(), v.end()); cout << "shuffle "; pv(v);
        cout << "perm "; pv(rnd.perm(8));
        cout << "perm1 "; pv(rnd.perm(5, 1));
        cout << "distinct_small "; pv(rnd.distinct(5, 1, 1000000));
        cout << "distinct_dense "; pv(rnd.distinct(6, 1, 8));
        cout << "partition "; pv(rnd.partition(5, 20));
        cout << "partition_m "; pv(rnd.partition(4, 30, 3));
        cout << "pattern " << rnd.next("[a-c]{3}") << " " << rnd.next("a|b|c") << " " << rnd.next("x[0-9]{%d}", 2) << "\n";
    } else if (c == "opts" ) {
        int n = opt<int>("n");
        string name = opt<string>("name", string("anon"));
        bool flag = opt<bool>("flag");
        cout << n << " " << name << " " << flag << "\n";
    } else if (c == "newer") {
        // names from newer testlib samples: pattern_t, check_unused_opt(), startTest()
        pattern_t p("[a-c]{2}");
        cout << p.matches("ab") << p.matches("abc") << "\n";
        int n = opt<int>("n", 1);
        check_unused_opt();
        for (int t = 1; t <= 2; t++) { startTest(t); println(t * n); }
    } else if (c == "multi_sync") {
        ios::sync_with_stdio(false);  // cout buffers on its own: each test's lines must reach its file
        for (int t = 1; t <= 3; t++) { startTest(t); cout << "test " << t << "\n"; }
    } else if (c == "opts_plain") {
        cout << opt<long long>("n") << " " << opt<int>(1) << "\n";
    } else if (c == "opts_types") {
        cout << opt<long long>("big") << " " << opt<double>("d") << " " << opt<unsigned>("u") << "\n";
    } else if (c == "helpers") {
        cout << join(vector<int>{1, 2, 3}) << "|" << join(vector<string>{"a", "b"}, ",") << "\n";
        pv(split("a,,b", ',')); cout << tokenize("  a  b ", ' ').size() << "\n";
        cout << englishEnding(1) << englishEnding(2) << englishEnding(3) << englishEnding(11) << englishEnding(22) << englishEnding(113) << "\n";
        cout << format("%05d-%s", 42, "x") << "\n";
        cout << compress(string(100, 'z')).size() << "\n";
        cout << doubleCompare(1.0, 1.0 + 1e-7, 1e-6) << doubleCompare(1.0, 1.1, 1e-6) << doubleCompare(1e9, 1e9 + 100, 1e-6) << "\n";
        cout << format("%.1f %.1f %.3f", doubleDelta(-5.0, -5.0), doubleDelta(5.0, 5.0), doubleDelta(2.0, 2.5)) << "\n";
        println(1, "two", vector<int>{3, 4}, 'c');
        vector<int> w = {7, 8, 9}; println(w.begin(), w.end());
        cout << toHumanReadableString(1000000000) << " " << toHumanReadableString(-20000000LL) << " " << toHumanReadableString(123) << "\n";
        printf("%s " I64 "\n", trim("  x y \t").c_str(), 5LL);
    }
    return 0;
}

static int chk_main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    string c = tlcase();
    if (c == "sum") {
        int n = inf.readInt(1, 1000, "n");
        int want = ans.readInt();
        int got = ouf.readInt(1, 100, "x");
        if (got != want) quitf(_wa, "expected %d, found %d (n=%d)", want, got, n);
        quitf(_ok, "answer is %d", got);
    } else if (c == "verdict") {
        string v = ouf.readToken();
        if (v == "ok") quitf(_ok, "fine");
        if (v == "wa") quitf(_wa, "bad %d", 1);
        if (v == "pe") quitf(_pe, "format");
        if (v == "fail") quitf(_fail, "judge bug");
        if (v == "dirt") quit(_dirt, "dirty");
        if (v == "uneof") quit(_unexpected_eof, "early end");
        if (v == "points") quitp(0.5, "half");
        if (v == "points2") quitp(2.0);
        if (v == "pointsi") quitp(7);
        if (v == "pointsbad") quitp(-1.0);
        if (v == "pointsinfo") quitpi("a=1,b=2", "info");
        if (v == "pc3") quitf(_pc(3), "partial");
        if (v == "pc0") quitf(_pc(0), "partial zero");
        if (v == "quitif") { quitif(false, _wa, "no"); quitif(true, _wa, "yes %s", "indeed"); }
        if (v == "ensure") ensure(1 + 1 == 3);
        if (v == "ensuref") ensuref(false, "broken %d", 7);
        if (v == "oufensure") ouf.ensuref(false, "solver said %s", "no");
        if (v == "infensure") inf.ensuref(false, "input bad");
        if (v == "infquit") inf.quitf(_wa, "bad input");
        if (v == "ansquit") ans.quitf(_pe, "bad answer");
        if (v == "ebf") expectedButFound(_wa, 5, 6, "line %d", 3);
        if (v == "ebfs") expectedButFound(_wa, string("abc"), string("abd"));
        if (v == "testcase") { setTestCase(2); inf.readInt(); inf.readInt(); }
        if (v == "testcase_ok") { setTestCase(4); quitf(_wa, "nope"); }
        if (v == "noquit") return 0;
        quitf(_fail, "unknown verdict %s", v.c_str());
    } else if (c == "reads") {
        // ouf holds "<what> <data...>"
        string what = ouf.readToken();
        if (what == "ints") { auto a = ouf.readInts(3, 1, 10, "a"); quitf(_ok, "%d", a[0] + a[1] + a[2]); }
        if (what == "intsnn") { ouf.readInts(3, 1, 10); quitf(_ok, "x"); }
        if (what == "big") { ouf.readInt(1, 1000000000, "n"); quitf(_ok, "x"); }
        if (what == "unnamed") { ouf.readInt(1, 10); quitf(_ok, "x"); }
        if (what == "int") { int x = ouf.readInt(); quitf(_ok, "%d", x); }
        if (what == "long") { long long x = ouf.readLong(); quitf(_ok, "%lld", x); }
        if (what == "longr") { ouf.readLong(-5, 5, "v"); quitf(_ok, "x"); }
        if (what == "ull") { unsigned long long x = ouf.readUnsignedLong(); quitf(_ok, "%llu", x); }
        if (what == "double") { double x = ouf.readDouble(); quitf(_ok, "%.6f", x); }
        if (what == "doubler") { ouf.readDouble(0.0, 1.0, "p"); quitf(_ok, "x"); }
        if (what == "strict") { double x = ouf.readStrictDouble(-10, 10, 1, 3, "s"); quitf(_ok, "%.4f", x); }
        if (what == "token") { string s = ouf.readToken("[a-z]{1,5}", "s"); quitf(_ok, "%s", s.c_str()); }
        if (what == "tokenalt") { string s = ouf.readWord("yes|no"); quitf(_ok, "%s", s.c_str()); }
        if (what == "tokens") { auto v = ouf.readTokens(2, "[0-9]+", "t"); quitf(_ok, "%s", v[1].c_str()); }
        if (what == "lines") { ouf.readEoln(); string a = ouf.readLine(); string b = ouf.readLine(); string d = ouf.readLine();
                               quitf(_ok, "[%s][%s][%s] eof=%d", a.c_str(), b.c_str(), d.c_str(), (int)ouf.eof()); }
        if (what == "chars") { char a = ouf.readChar(); char b = ouf.curChar(); ouf.readChar(); ouf.readSpace(); char d = ouf.readChar();
                               ouf.unreadChar(d); string t = ouf.readToken(); quitf(_ok, "%d %c %s", a, b, t.c_str()); }
        if (what == "space") { ouf.readSpace(); quitf(_ok, "x"); }
        if (what == "eoln") { ouf.readInt(); ouf.readEoln(); quitf(_ok, "x"); }
        if (what == "eof") { ouf.readInt(); ouf.readEof(); quitf(_ok, "x"); }
        if (what == "seek") { ouf.readInt(); bool a = ouf.seekEoln(); int b = ouf.readInt(); bool e = ouf.seekEof(); quitf(_ok, "%d %d %d", a, b, e); }
        if (what == "based") { string t = ouf.readToken(); InStream sub(ouf, t); int x = sub.readInt(1, 99, "x");
                               sub.readEof(); quitf(_ok, "%d %d", x, (int)ouf.seekEof()); }
        if (what == "blanks") { ouf.maxBlankCount = 3; int x = ouf.readInt(); quitf(_ok, "%d", x); }
        if (what == "blanksok") { int x = ouf.readInt(); ouf.maxBlankCount = 1; quitf(_ok, "%d", x); }
        if (what == "basedempty") { InStream sub(ouf, ""); quitf(_ok, "%d", (int)sub.seekEof()); }
        quitf(_fail, "unknown read %s", what.c_str());
    }
    quitf(_fail, "unknown case");
}

static int val_main(int argc, char* argv[]) {
    registerValidation(argc, argv);
    string c = tlcase();
    int n = inf.readInt(1, 10, "n");
    inf.readEoln();
    inf.readInts(n, 1, 100, "a");
    inf.readEoln();
    if (c == "noeof") return 0;
    inf.readEof();
    if (c == "testset") cerr << "testset=" << validator.testset() << " group=" << validator.group() << "\n";
    return 0;
}

static int int_main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    // guess: ouf + printf/cout; cin: cin and scanf; sync: sync_with_stdio(false) + cin/cout;
    // ret: returns from main after the first answer.
    string c = tlcase();
    if (c == "sync") { ios::sync_with_stdio(false); cin.tie(nullptr); }
    int n = inf.readInt(1, 1000000, "n");
    int x = inf.readInt(1, n, "x");
    int q = 0;
    tout << "query_limit=40\n"; tout.flush();
    if (c == "guess") printf("%d\n", n), fflush(stdout); else cout << n << endl;
    while (true) {
        string cmd; long long y = 0;
        if (c == "guess" || c == "ret") {
            cmd = ouf.readToken("[?!]", "cmd");
            y = ouf.readLong(1, n, "y");
        } else if (c == "cin") {
            if (!(cin >> cmd) || scanf("%lld", &y) != 1) quitf(_pe, "solver output ended");
        } else {
            if (!(cin >> cmd >> y)) quitf(_pe, "solver output ended");
        }
        if (cmd == "!") {
            tout << "queries=" << q << "\n";
            if (y != x) quitf(_wa, "answer %lld, hidden %d", y, x);
            quitf(_ok, "found %d in %d queries", x, q);
        }
        q++;
        tout << "queries=" << q << "\n";
        int r = x >= y ? 1 : 0;
        if (c == "sync") cout << r << "\n" << flush;
        else if (q % 3 == 0) cout << r << endl;
        else if (q % 3 == 1) { printf("%d", r); putchar('\n'); fflush(stdout); }
        else { puts(r ? "1" : "0"); fflush(stdout); }
        if (c == "ret") return 0;
    }
}

int main(int argc, char* argv[]) {
    if (argc < 2) { fprintf(stderr, "usage\n"); disableFinalizeGuard(); return 99; }
    string kind = argv[1];
    if (kind == "gen") return gen_main(argc - 1, argv + 1);
    if (kind == "chk") return chk_main(argc - 1, argv + 1);
    if (kind == "val") return val_main(argc - 1, argv + 1);
    if (kind == "int") return int_main(argc - 1, argv + 1);
    if (kind == "none") return 0;
    disableFinalizeGuard();
    return 98;
}
'''

FORBID_SRC = r'''
#include "testlib.h"
#include <bits/stdc++.h>
using namespace std;
int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    vector<int> v(3);
    int x = rand();
    srand(42);
    std::random_shuffle(v.begin(), v.end());
    return x;
}
'''


class Bins:
    def __init__(self, root: Path, logs: dict[str, tuple[int, str]]):
        self.root = root
        self.multi = root / "multi"
        self.multi_eof = root / "multi_eof"
        self.logs = logs


@pytest.fixture(scope="session")
def bins(tmp_path_factory) -> Bins:
    root = tmp_path_factory.mktemp("testlib_h")
    (root / "multi.cpp").write_text(MULTI_SRC)
    (root / "forbid.cpp").write_text(FORBID_SRC)
    base = [GXX, "-std=c++17", "-O2", "-Wall", "-I", str(HEADER_DIR)]
    jobs = {
        "multi": base + ["multi.cpp", "-o", "multi"],
        # functional only: -O0 compiles twice as fast
        "multi_eof": [GXX, "-std=c++17", "-O0", "-I", str(HEADER_DIR), "-DENABLE_UNEXPECTED_EOF", "multi.cpp",
                      "-o", "multi_eof"],
        "forbid": [GXX, "-std=c++17", "-fsyntax-only", "-I", str(HEADER_DIR), "forbid.cpp"],
    }
    procs = {name: subprocess.Popen(cmd, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for name, cmd in jobs.items()}
    logs = {}
    for name, p in procs.items():
        out, _ = p.communicate(timeout=300)
        logs[name] = (p.returncode, out)
    for name in ("multi", "multi_eof"):
        assert logs[name][0] == 0, f"{name} failed to compile:\n{logs[name][1]}"
    return Bins(root, logs)


def run(binary: Path, args: list[str], case: str = "", stdin: str | bytes = b"", cwd: Path | None = None,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    e = dict(os.environ)
    e.pop("IBENCH_TRANSCRIPT", None)
    e["TL_CASE"] = case
    e.update(env or {})
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run([str(binary)] + args, input=data, capture_output=True, env=e, cwd=cwd, timeout=30)


def test_compiles_warning_free(bins):
    assert "warning" not in bins.logs["multi"][1], bins.logs["multi"][1]


# --------------------------------------------------------------------------------------------
# rnd: bit-exact with testlib


class RefRandom:
    """testlib's random_t written from the facts table, independently of the C++ header."""

    M, A, MASK = 0x5DEECE66D, 0xB, (1 << 48) - 1

    def __init__(self, args: list[str], version: int = 1):
        s = 3905348978240129619
        for a in args:
            for b in a.encode():
                s = (s * self.M + (b if b < 0x80 else b + (1 << 32) - 256) + self.A) % (1 << 64)
            s = (s + self.M // self.A) % (1 << 64)
        self.s, self.version = s & self.MASK, version

    def bits(self, k: int) -> int:
        if k <= 48:
            self.s = (self.s * self.M + self.A) & self.MASK
            return self.s >> (48 - k)
        hi = self.bits(31) << 32
        return hi ^ self.bits(31 if self.version == 0 else 32)

    def next_int(self, n: int) -> int:  # next(int n): 31-bit draws
        if n & -n == n:
            return (n * self.bits(31)) >> 31
        lim = (2**31 - 1) // n * n
        while True:
            b = self.bits(31)
            if b < lim:
                return b % n

    def next_ll(self, n: int) -> int:  # next(long long n): 63-bit draws
        lim = (2**63 - 1) // n * n
        while True:
            b = self.bits(63)
            if b < lim:
                return b % n

    def range(self, lo: int, hi: int) -> int:
        return lo + self.next_ll(hi - lo + 1)

    def real(self) -> float:
        hi = self.bits(26) << 27
        return (hi + self.bits(27)) / float(1 << 53)

    def wnext(self, n: int, t: int) -> int:
        if abs(t) < 25:
            r = self.next_int(n)
            for _ in range(abs(t)):
                x = self.next_int(n)
                r = max(r, x) if t > 0 else min(r, x)
            return r
        u = self.real()
        p = u ** (1.0 / (t + 1)) if t > 0 else 1 - u ** (1.0 / (1 - t))
        return min(max(int(n * p), 0), n - 1)

    def shuffle(self, a: list) -> list:
        for i in range(1, len(a)):
            j = self.next_int(i + 1)
            a[i], a[j] = a[j], a[i]
        return a

    def perm(self, n: int, first: int = 0) -> list[int]:
        return self.shuffle(list(range(first, first + n)))

    def distinct(self, k: int, lo: int, hi: int) -> list[int]:
        n = hi - lo + 1
        if sum(n / (n - i + 1) for i in range(1, k + 1)) < n:
            out: list[int] = []
            while len(out) < k:
                x = self.range(lo, hi)
                if x not in out:
                    out.append(x)
            return out
        return self.perm(n, lo)[:k]

    def partition(self, k: int, total: int, m: int = 1) -> list[int]:
        s = total - k * m + k - 1
        cuts = sorted([0] + self.distinct(k - 1, 1, s))
        return [p + m for p in [cuts[i + 1] - cuts[i] - 1 for i in range(k - 1)] + [s - cuts[-1]]]

    def atom(self, chars: str, lo: int, hi: int, has_rest: bool) -> str:
        """One pattern atom: count, then each char; a following part costs a next(1) pick."""
        count = self.next_int(hi - lo + 1) + lo
        s = "".join(chars[self.next_int(len(chars))] for _ in range(count))
        if has_rest:
            self.next_int(1)
        return s


def ref_battery(args: list[str]) -> list:
    r = RefRandom(args)
    out: list = []
    out.append("int " + " ".join(str(r.next_int(n)) for n in (1, 2, 7, 64, 100, 1000000007 - 7)))
    out.append("ll " + " ".join(str(r.next_ll(n)) for n in (3, 10**12)))
    out.append(f"range {r.range(-5, 5)} {r.range(1, 10**18)}")
    d1 = r.real()
    d2 = 10.0 * r.real()
    d3 = 1.0 * r.real() + 2.0
    out.append(("double", [d1, d2, d3]))
    out.append(f"wnext {r.wnext(100, 3)} {r.wnext(100, -3)} {r.wnext(100, 30)} {r.wnext(100, -30)} {1 + r.wnext(100, 2)}")
    v = [10, 20, 30, 40, 50]
    a = v[r.next_int(5)]
    w = v[r.wnext(5, 2)]
    out.append(f"any {a} {w}")
    out.append("shuffle " + " ".join(map(str, r.shuffle(v))))
    out.append("perm " + " ".join(map(str, r.perm(8))))
    out.append("perm1 " + " ".join(map(str, r.perm(5, 1))))
    out.append("distinct_small " + " ".join(map(str, r.distinct(5, 1, 10**6))))
    out.append("distinct_dense " + " ".join(map(str, r.distinct(6, 1, 8))))
    out.append("partition " + " ".join(map(str, r.partition(5, 20))))
    out.append("partition_m " + " ".join(map(str, r.partition(4, 30, 3))))
    p1 = r.atom("abc", 3, 3, False)
    alt = r.next_int(3)
    p2 = r.atom("abc"[alt], 1, 1, False)
    p3 = r.atom("x", 1, 1, True) + r.atom("0123456789", 2, 2, False)
    out.append(f"pattern {p1} {p2} {p3}")
    return out


@pytest.mark.parametrize("args,expected", [
    (["1"], "39 52 88 78 46"),
    ([], "22 75 26 45 72"),
    (["abc", "42"], "95 100 74 52 7"),
])
def test_rnd_check_sequences(bins, args, expected):
    p = run(bins.multi, ["gen"] + args, case="seq")
    assert p.returncode == 0, p.stderr
    assert p.stdout.decode().split() == expected.split()
    r = RefRandom(args)
    assert [r.range(1, 100) for _ in range(5)] == [int(x) for x in expected.split()]


@pytest.mark.parametrize("args", [["1"], ["--mode", "adp", "7"], ["\u00e9t\u00e9", "-n=5"]])
def test_rnd_seeding_matches_reference(bins, args):
    """Every argument byte counts, opts included; bytes >= 0x80 are widened as signed chars."""
    p = run(bins.multi, ["gen"] + args, case="seq")
    r = RefRandom(args)
    assert p.stdout.decode().split() == [str(r.range(1, 100)) for _ in range(5)]


def test_rnd_version0(bins):
    p = run(bins.multi, ["gen", "1"], case="v0")
    r = RefRandom(["1"], version=0)
    assert p.stdout.decode().split() == [str(r.range(1, 100)) for _ in range(5)]


@pytest.mark.parametrize("args", [["1"], ["2024", "--mode", "non"]])
def test_rnd_battery_matches_reference(bins, args):
    first = run(bins.multi, ["gen"] + args, case="battery")
    again = run(bins.multi, ["gen"] + args, case="battery")
    assert first.returncode == 0, first.stderr
    assert first.stdout == again.stdout  # deterministic
    got = first.stdout.decode().splitlines()
    expected = ref_battery(args)
    assert len(got) == len(expected)
    for line, exp in zip(got, expected):
        if isinstance(exp, tuple):
            assert [float(x) for x in line.split()[1:]] == exp[1]
        else:
            assert line == exp


# --------------------------------------------------------------------------------------------
# Checkers: verdicts, exit codes, stderr


@pytest.fixture()
def chk(bins, tmp_path):
    (tmp_path / "in.txt").write_text("10\n")
    (tmp_path / "ans.txt").write_text("5\n")

    def check(case: str, out: str | bytes, args: list[str] | None = None, binary: Path | None = None):
        data = out.encode() if isinstance(out, str) else out
        (tmp_path / "out.txt").write_bytes(data)
        return run(binary or bins.multi, ["chk"] + (args or ["in.txt", "out.txt", "ans.txt"]), case=case, cwd=tmp_path)

    check.dir = tmp_path
    return check


@pytest.mark.parametrize("out,rc,message", [
    ("5\n", 0, "ok answer is 5"),
    (" 5 \n\n\n", 0, "ok answer is 5"),
    ("6", 1, "wrong answer expected 5, found 6 (n=10)"),
    ("abc", 2, 'wrong output format Expected integer, but "abc" found'),
    ("", 2, "wrong output format Unexpected end of file - int32 expected"),
    ("   \n", 2, "wrong output format Unexpected end of file - int32 expected"),
    ("500", 1, "wrong answer Integer parameter [name=x] equals to 500, violates the range [1, 100]"),
    ("5 6", 2, "wrong output format Extra information in the output file"),
    ("007", 2, 'wrong output format Expected integer, but "007" found'),
    ("-0", 2, 'wrong output format Expected integer, but "-0" found'),
    ("+5", 2, 'wrong output format Expected integer, but "+5" found'),
    ("99999999999", 2, 'wrong output format Expected int32, but "99999999999" found'),
    ("123456789012345678901", 2, 'wrong output format Expected integer, but "123456789012345678901" found'),
    (b"\xef\xbb\xbf5\n", 0, "ok answer is 5"),
])
def test_checker_reads_output(chk, out, rc, message):
    p = chk("sum", out)
    assert (p.returncode, p.stderr.decode()) == (rc, message + "\n")


@pytest.mark.parametrize("verdict,rc,message", [
    ("ok", 0, "ok fine"),
    ("wa", 1, "wrong answer bad 1"),
    ("pe", 2, "wrong output format format"),
    ("fail", 3, "FAIL judge bug"),
    ("dirt", 2, "wrong output format dirty"),
    ("uneof", 2, "wrong output format early end"),
    ("points", 7, "points 0.5 half"),
    ("points2", 7, "points 2.0"),
    ("pointsi", 7, "points 7"),
    ("pointsinfo", 7, "points points_info=a=1,b=2 info"),
    ("pc3", 3, "partially correct (3) partial"),
    ("pc0", 0, "partially correct (0) partial zero"),
    ("quitif", 1, "wrong answer yes indeed"),
    ("ensure", 3, 'FAIL Condition failed: "1 + 1 == 3"'),
    ("ensuref", 3, "FAIL broken 7"),
    ("oufensure", 1, "wrong answer solver said no"),
    ("infensure", 3, "FAIL input bad (in.txt)"),
    ("infquit", 3, "FAIL bad input (in.txt)"),
    ("ansquit", 3, "FAIL bad answer (ans.txt)"),
    ("ebf", 1, "wrong answer line 3: expected 5, but found 6"),
    ("ebfs", 1, "wrong answer expected 'abc', but found 'abd'"),
    ("testcase", 3, "FAIL Unexpected end of file - int32 expected (test case 2, in.txt)"),
    ("testcase_ok", 1, "wrong answer nope (test case 4)"),
    ("noquit", 3, "FAIL Checker must end with quit or quitf call."),
])
def test_checker_verdicts(chk, verdict, rc, message):
    p = chk("verdict", verdict + "\n")
    assert (p.returncode, p.stderr.decode()) == (rc, message + "\n")


def test_checker_points_out_of_range_fail(chk):
    p = chk("verdict", "pointsbad\n")
    assert p.returncode == 3 and p.stderr.decode().startswith("FAIL ")


@pytest.mark.parametrize("verdict", ["ok", "points", "pc3"])
def test_checker_extra_output_is_pe(chk, verdict):
    p = chk("verdict", verdict + "\n trailing\n")
    assert (p.returncode, p.stderr.decode()) == (2, "wrong output format Extra information in the output file\n")


def test_checker_files_and_arguments(chk):
    d = chk.dir
    (d / "bad.txt").write_text("x\n")
    (d / "out.txt").write_text("5\n")
    cases = [
        (["bad.txt", "out.txt", "ans.txt"], 3, 'FAIL Expected integer, but "x" found (bad.txt)'),
        (["in.txt", "out.txt", "bad.txt"], 3, 'FAIL Expected integer, but "x" found (bad.txt)'),
        (["in.txt", "missing.txt", "ans.txt"], 2, 'wrong output format Output file not found: "missing.txt"'),
        (["in.txt", "out.txt", "missing.txt"], 3, 'FAIL Answer file not found: "missing.txt"'),
        (["in.txt", "out.txt"], 3, "FAIL Program must be run with the following arguments: "
                                   "<input-file> <output-file> <answer-file> [<report-file> [<-appes>]]"),
        (["--testset", "t", "in.txt", "out.txt", "--group", "g", "ans.txt"], 0, "ok answer is 5"),
    ]
    for args, rc, message in cases:
        p = chk("sum", "5\n", args)
        assert (p.returncode, p.stderr.decode()) == (rc, message + "\n"), args


def test_checker_result_file(chk):
    d = chk.dir
    p = chk("sum", "5\n", ["in.txt", "out.txt", "ans.txt", "res.txt", "-appes"])
    assert p.returncode == 0
    assert "See file to check exit message" in p.stderr.decode()
    assert (d / "res.txt").read_text() == (
        '<?xml version="1.0" encoding="windows-1251"?><result outcome = "accepted">answer is 5</result>\n')
    p = chk("sum", "6\n", ["in.txt", "out.txt", "ans.txt", "res.txt"])
    assert p.returncode == 1
    assert (d / "res.txt").read_text() == "expected 5, found 6 (n=10)"


@pytest.mark.parametrize("out,rc,message", [
    ("ints 1 2 3", 0, "ok 6"),
    ("ints 1 0 3", 1, "wrong answer Integer element a[2] equals to 0, violates the range [1, 10]"),
    ("ints 1 2", 2, "wrong output format Unexpected end of file - int32 expected"),
    ("intsnn 1 0 3", 1, "wrong answer Integer element [index=2] equals to 0, violates the range [1, 10]"),
    ("big 0", 1, "wrong answer Integer parameter [name=n] equals to 0, violates the range [1, 10^9]"),
    ("unnamed 11", 1, "wrong answer Integer 11 violates the range [1, 10]"),
    ("int -2147483648", 0, "ok -2147483648"),
    ("int 2147483648", 2, 'wrong output format Expected int32, but "2147483648" found'),
    ("long -9223372036854775808", 0, "ok -9223372036854775808"),
    ("long 9223372036854775808", 2, 'wrong output format Expected integer, but "9223372036854775808" found'),
    ("longr 6", 1, "wrong answer Integer parameter [name=v] equals to 6, violates the range [-5, 5]"),
    ("ull 18446744073709551615", 0, "ok 18446744073709551615"),
    ("double +1.5", 0, "ok 1.500000"),
    ("double .5", 0, "ok 0.500000"),
    ("double 1.", 0, "ok 1.000000"),
    ("double 1e3", 0, "ok 1000.000000"),
    ("double 1e999", 0, "ok inf"),
    ("double nan", 2, 'wrong output format Expected double, but "nan" found'),
    ("double inf", 2, 'wrong output format Expected double, but "inf" found'),
    ("double 0x10", 2, 'wrong output format Expected double, but "0x10" found'),
    ("doubler 1.5", 1, "wrong answer Double parameter [name=p] equals to 1.5, violates the range [0, 1]"),
    ("strict 1.50", 0, "ok 1.5000"),
    ("strict -0.00", 2, 'wrong output format Redundant minus in "-0.00" found'),
    ("strict 01.5", 2, 'wrong output format Expected strict double, but "01.5" found'),
    ("strict 1", 2, "wrong output format Expected strict double with number of digits after point in range [1,3], "
                    'but "1" found'),
    ("strict 20.5", 1, "wrong answer Double parameter [name=s] equals to 20.5, violates the range [-10, 10]"),
    ("token abcde", 0, "ok abcde"),
    ("token abcdef", 1, 'wrong answer Token parameter [name=s] equals to "abcdef", doesn\'t correspond to pattern '
                        '"[a-z]{1,5}"'),
    ("tokenalt no", 0, "ok no"),
    ("tokenalt maybe", 1, 'wrong answer Token "maybe" doesn\'t correspond to pattern "yes|no"'),
    ("tokens 12 3a", 1, 'wrong answer Token element t[2] equals to "3a", doesn\'t correspond to pattern "[0-9]+"'),
    ("lines\nab\r\ncd\n\n", 0, "ok [ab][cd][] eof=1"),
    ("lines\nx\ny", 0, "ok [x][y][] eof=1"),
    ("chars\nA xyz", 0, "ok 10 A xyz"),
    ("space\nq", 2, "wrong output format Unexpected character #10, but ' ' expected"),
    ("eoln 5\r\n", 0, "ok x"),
    ("eoln 5 \n", 2, "wrong output format Expected EOLN"),
    ("eof 5 6", 2, "wrong output format Expected EOF"),
    ("seek 1  \n 2\n\n", 0, "ok 1 2 1"),
    # A stream over a string read under ouf's rules: its errors are the participant's (PE/WA).
    ("based 42", 0, "ok 42 1"),
    ("based 4x", 2, 'wrong output format Expected integer, but "4x" found'),
    ("based 100", 1, "wrong answer Integer parameter [name=x] equals to 100, violates the range [1, 99]"),
    ("based ab", 2, 'wrong output format Expected integer, but "ab" found'),
    ("basedempty", 0, "ok 1"),
    # maxBlankCount bounds the blanks before a token (an interactor's guard against a flood).
    ("blanks   5", 0, "ok 5"),
    ("blanks \n \n5", 2, "wrong output format Too many white-space characters: more than 3 in a row"),
    # ... but trailing blanks after an accepted answer are never an error (nor a FAIL).
    ("blanksok 5    \n\n\n", 0, "ok 5"),
])
def test_instream_reads(chk, out, rc, message):
    p = chk("reads", out)
    assert (p.returncode, p.stderr.decode()) == (rc, message + "\n")


def test_enable_unexpected_eof(bins, chk):
    p = chk("sum", "", binary=bins.multi_eof)
    assert (p.returncode, p.stderr.decode()) == (8, "unexpected eof Unexpected end of file - int32 expected\n")
    p = chk("verdict", "uneof\n", binary=bins.multi_eof)
    assert (p.returncode, p.stderr.decode()) == (8, "unexpected eof early end\n")
    (chk.dir / "empty.txt").write_text("")
    p = chk("sum", "5\n", ["empty.txt", "out.txt", "ans.txt"], binary=bins.multi_eof)  # inf: still FAIL
    assert (p.returncode, p.stderr.decode()) == (3, "FAIL Unexpected end of file - int32 expected (empty.txt)\n")


def test_no_register_call(bins):
    p = run(bins.multi, ["none"])
    assert p.returncode == 3
    assert p.stderr.decode() == ("FAIL Call register-function in the first line of the main "
                                 "(registerTestlibCmd or other similar)\n")


# --------------------------------------------------------------------------------------------
# Validators (strict stdin)


@pytest.mark.parametrize("data,rc,message", [
    ("3\n1 2 3\n", 0, ""),
    ("3\n1  2 3\n", 3, "FAIL Unexpected white-space - token expected (stdin, line 2)"),
    ("3\r\n1 2 3\r\n", 3, "FAIL Expected EOLN (stdin, line 1)"),
    ("11\n", 3, "FAIL Integer parameter [name=n] equals to 11, violates the range [1, 10] (stdin, line 1)"),
    ("3\n1 2 300\n", 3, "FAIL Integer element a[3] equals to 300, violates the range [1, 100] (stdin, line 2)"),
    ("3\n1 2 3\n\n", 3, "FAIL Expected EOF (stdin, line 3)"),
    ("3\n1 2 3", 3, "FAIL Expected EOLN (stdin, line 2)"),
    (" 3\n1 2 3\n", 3, "FAIL Unexpected white-space - token expected (stdin, line 1)"),
    ("3\n1 2\n", 3, "FAIL Unexpected character #10, but ' ' expected (stdin, line 2)"),
    ("", 3, "FAIL Unexpected end of file - token expected (stdin, line 1)"),
])
def test_validator(bins, data, rc, message):
    p = run(bins.multi, ["val"], case="basic", stdin=data)
    assert (p.returncode, p.stderr.decode()) == (rc, message + "\n" if message else "")


def test_validator_guard_and_args(bins):
    p = run(bins.multi, ["val"], case="noeof", stdin="1\n5\n")
    assert (p.returncode, p.stderr.decode()) == (3, "FAIL Validator must end with readEof call.\n")
    p = run(bins.multi, ["val", "--testset", "pre", "--group", "g1"], case="testset", stdin="1\n5\n")
    assert (p.returncode, p.stderr.decode()) == (0, "testset=pre group=g1\n")


# --------------------------------------------------------------------------------------------
# Generators: opts and helpers


@pytest.mark.parametrize("case,args,rc,stdout,stderr", [
    ("opts", ["-n", "5", "-name", "bob", "-flag"], 0, "5 bob 1\n", ""),
    ("opts", ["-n=1e5"], 0, "100000 anon 0\n", ""),
    ("opts", ["--n", "1.5e2", "---x", "-5"], 0, "150 anon 0\n", ""),
    ("opts", ["-n10"], 0, "10 anon 0\n", ""),
    ("opts", ["-n", "3", "-n", "4"], 0, "4 anon 0\n", ""),
    ("opts", ["-n", "2.5"], 3, "", "FAIL Opts: key 'n': expected integer, but '2.5' found\n"),
    ("opts", ["-n", "+5"], 3, "", "FAIL Opts: key 'n': expected integer, but '+5' found\n"),
    ("opts", ["-n", "99999999999"], 3, "", "FAIL Opts: key 'n': expected integer, but '99999999999' found\n"),
    ("opts", ["-n", "5", "-flag", "maybe"], 3, "", None),
    ("opts", ["-x", "3"], 3, "", "FAIL Opts: unknown key 'n'\n"),
    # opt(key, default) / opt<bool> arm the exit check: unread keys FAIL after the output.
    ("opts", ["-n", "5", "-x", "3"], 3, "5 anon 0\n", "FAIL Opts: unused key 'x'\n"),
    # plain opt<T>(key) does not arm it.
    ("opts_plain", ["77", "-n", "1.5e2", "-x", "3"], 0, "150 77\n", ""),
    ("opts_types", ["-big", "-9223372036854775808", "-d", "2.5", "-u", "4e9"], 0,
     "-9223372036854775808 2.5 4000000000\n", ""),
])
def test_opts(bins, case, args, rc, stdout, stderr):
    p = run(bins.multi, ["gen"] + args, case=case)
    assert p.returncode == rc, p.stderr
    assert p.stdout.decode() == stdout
    if stderr is not None:
        assert p.stderr.decode() == stderr
    else:
        assert p.stderr.decode().startswith("FAIL Opts:")


def test_newer_testlib_names(bins, tmp_path):
    p = run(bins.multi, ["gen", "-n", "21"], case="newer", cwd=tmp_path)
    assert (p.returncode, p.stdout.decode(), p.stderr.decode()) == (0, "10\n", "")
    assert [(tmp_path / n).read_text() for n in ("1", "2")] == ["21\n", "42\n"]
    (tmp_path / "sub").mkdir()
    p = run(bins.multi, ["gen", "-n", "2", "-x", "3"], case="newer", cwd=tmp_path / "sub")
    assert (p.returncode, p.stderr.decode()) == (3, "FAIL Opts: unused key 'x'\n")


def test_start_test_with_a_detached_cout(bins, tmp_path):
    p = run(bins.multi, ["gen"], case="multi_sync", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert [(tmp_path / n).read_text() for n in ("1", "2", "3")] == ["test 1\n", "test 2\n", "test 3\n"]


def test_helpers(bins):
    p = run(bins.multi, ["gen"], case="helpers")
    assert p.returncode == 0, p.stderr
    assert p.stdout.decode() == (
        "1 2 3|a,b\n"
        "a  b\n"
        "2\n"
        "stndrdthndth\n"
        "00042-x\n"
        "64\n"
        "101\n"
        "-0.0 0.0 0.250\n"
        "1 two 3 4 c\n"
        "7 8 9\n"
        "10^9 -2*10^7 123\n"
        "x y 5\n")


def test_forbidden_functions_do_not_compile(bins):
    """Blocked with a reason; <bits/stdc++.h> after testlib.h still compiles (no other errors)."""
    rc, log = bins.logs["forbid"]
    assert rc != 0
    assert log.count("error:") == 3, log
    assert "rand() is forbidden" in log
    assert "srand() is forbidden" in log
    assert "random_shuffle() is forbidden" in log


# --------------------------------------------------------------------------------------------
# Interactors over real pipes, with the transcript extension

SOLVER = r"""
import sys
n = int(sys.stdin.readline()); lo, hi = 1, n
while lo < hi:
    mid = (lo + hi + 1) // 2
    print("?", mid, flush=True)
    if sys.stdin.readline().strip() == "1": lo = mid
    else: hi = mid - 1
print("!", lo, flush=True)
"""


def dialogue(n: int, x: int) -> tuple[str, str]:
    """What SOLVER sends and what the interactor answers, for hidden x in [1, n]."""
    to_judge, to_solver = [], [f"{n}\n"]
    lo, hi = 1, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        to_judge.append(f"? {mid}\n")
        to_solver.append("1\n" if x >= mid else "0\n")
        lo, hi = (mid, hi) if x >= mid else (lo, mid - 1)
    to_judge.append(f"! {lo}\n")
    return "".join(to_judge), "".join(to_solver)


def interact(bins, work: Path, case: str, solver_src: str, case_in: str = "100 37\n",
             env: dict[str, str] | None = None, args: list[str] | None = None):
    (work / "case.in").write_text(case_in)
    to_solver_r, to_solver_w = os.pipe()
    to_judge_r, to_judge_w = os.pipe()
    e = dict(os.environ, TL_CASE=case)
    e.pop("IBENCH_TRANSCRIPT", None)
    e.update(env or {})
    inter = subprocess.Popen([str(bins.multi), "int"] + (args or ["case.in", "tout.txt"]), cwd=work,
                             stdin=to_judge_r, stdout=to_solver_w, stderr=subprocess.PIPE, env=e)
    solver = subprocess.Popen([sys.executable, "-c", solver_src], stdin=to_solver_r, stdout=to_judge_w,
                              stderr=subprocess.DEVNULL)
    for fd in (to_solver_r, to_solver_w, to_judge_r, to_judge_w):
        os.close(fd)
    try:
        _, err = inter.communicate(timeout=30)
        solver.wait(timeout=30)
    finally:
        for p in (inter, solver):
            if p.poll() is None:
                p.kill()
    return inter.returncode, err.decode()


def transcript(to_judge: str, to_solver: str) -> tuple[str, str]:
    return to_judge, to_solver


def read_tr(path: Path) -> tuple[str, str]:
    """The header's transcript file (length-prefixed records) as (solver->judge, judge->solver):
    each direction's bytes from its turns, which must agree with its tail record."""
    from ibench.judge.interactive import read_transcript

    tr = read_transcript(path)
    assert tr.complete and all(t["who"] in ("solver", "judge") for t in tr.turns)
    assert all(a["who"] != b["who"] for a, b in zip(tr.turns, tr.turns[1:]))  # a turn is a side's run of bytes
    got = tuple("".join(t["text"] for t in tr.turns if t["who"] == w) for w in ("solver", "judge"))
    assert got == (tr.solver_to_judge_tail, tr.judge_to_solver_tail)
    return got


@pytest.mark.parametrize("case", ["guess", "cin", "sync"])
def test_interactor_transcript_both_directions(bins, tmp_path, case):
    """ouf / cin+scanf / sync_with_stdio(false) reading; printf, puts, putchar and cout writing."""
    rc, err = interact(bins, tmp_path, case, SOLVER, env={"IBENCH_TRANSCRIPT": str(tmp_path / "tr.txt")})
    assert (rc, err) == (0, "ok found 37 in 7 queries\n")
    assert read_tr(tmp_path / "tr.txt") == transcript(*dialogue(100, 37))
    tout = (tmp_path / "tout.txt").read_text().split()
    # ibench's header ends the log with whether the solver's output had ended (for the judge)
    assert tout[0] == "query_limit=40" and tout[-2:] == ["queries=7", "ibench_solver_eof=0"]


def test_interactor_without_env_writes_no_transcript(bins, tmp_path):
    rc, err = interact(bins, tmp_path, "guess", SOLVER)
    assert (rc, err) == (0, "ok found 37 in 7 queries\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["case.in", "tout.txt"]


def test_interactor_transcript_keeps_the_tail(bins, tmp_path):
    from ibench.judge.interactive import read_transcript

    env = {"IBENCH_TRANSCRIPT": str(tmp_path / "tr.txt"), "IBENCH_TRANSCRIPT_BYTES": "10",
           "IBENCH_TRANSCRIPT_TAIL_BYTES": "10"}
    rc, _ = interact(bins, tmp_path, "guess", SOLVER, env=env)
    assert rc == 0
    to_judge, to_solver = dialogue(100, 37)
    tr = read_transcript(tmp_path / "tr.txt")
    assert (tr.solver_to_judge_tail, tr.judge_to_solver_tail) == (to_judge[-10:], to_solver[-10:])
    # the turns' bound is at least 64 bytes: its halves hold a turn each (16 + bytes), the cut between
    assert [t["who"] for t in tr.turns] == ["judge", "cut", "solver"] and tr.turns[-1]["text"] == "! 37\n"


def test_interactor_wa_flushes_tout_and_transcript(bins, tmp_path):
    solver = "import sys\nsys.stdin.readline(); print('? 50', flush=True); sys.stdin.readline(); print('! 99', flush=True)\n"
    rc, err = interact(bins, tmp_path, "guess", solver, env={"IBENCH_TRANSCRIPT": str(tmp_path / "tr.txt")})
    assert (rc, err) == (1, "wrong answer answer 99, hidden 37\n")
    assert read_tr(tmp_path / "tr.txt") == transcript("? 50\n! 99\n", "100\n0\n")
    assert (tmp_path / "tout.txt").read_text() == "query_limit=40\nqueries=1\nqueries=1\n\nibench_solver_eof=0\n"


@pytest.mark.parametrize("solver,rc,message,to_judge", [
    # The solver stops mid-query and exits: PE (and never a SIGPIPE death of the interactor).
    ("import sys\nsys.stdin.readline(); sys.stdout.write('? 5'); sys.stdout.flush()\n", 2,
     "wrong output format Unexpected end of file - token expected", "? 5"),
    ("import sys\nsys.stdin.readline(); print('# 5', flush=True)\n", 1,
     'wrong answer Token parameter [name=cmd] equals to "#", doesn\'t correspond to pattern "[?!]"', "# 5\n"),
    ("import sys\nsys.stdin.readline(); print('? 500', flush=True)\n", 1,
     "wrong answer Integer parameter [name=y] equals to 500, violates the range [1, 100]", "? 500\n"),
    ("pass\n", 2, "wrong output format Unexpected end of file - token expected", ""),
])
def test_interactor_solver_errors(bins, tmp_path, solver, rc, message, to_judge):
    got_rc, err = interact(bins, tmp_path, "guess", solver, env={"IBENCH_TRANSCRIPT": str(tmp_path / "tr.txt")})
    assert (got_rc, err) == (rc, message + "\n")
    # the solver's last newline may come in a write of its own (PYTHONUNBUFFERED) after the
    # interactor's verdict: then the interactor never read it
    assert read_tr(tmp_path / "tr.txt")[0] in (to_judge, to_judge.removesuffix("\n"))


@pytest.mark.parametrize("case", ["guess", "cin", "sync"])
@pytest.mark.parametrize("solver,eof", [
    ("import sys\nsys.stdin.readline(); print('? 5', flush=True)\n", 1),  # output ends mid-dialogue
    ("import sys\nsys.stdin.readline(); print('! 99', flush=True); sys.stdin.readline()\n", 0),  # wrong, still talking
])
def test_interactor_reports_solver_eof_however_it_reads(bins, tmp_path, case, solver, eof):
    """ouf, scanf and a detached std::cin (sync_with_stdio(false)) all tell the judge whether the
    solver's output had ended when the interactor gave its verdict (a crash then is RE)."""
    rc, _ = interact(bins, tmp_path, case, solver)
    assert rc in (1, 2)
    assert (tmp_path / "tout.txt").read_text().splitlines()[-1] == f"ibench_solver_eof={eof}"


def test_interactor_inf_error_is_fail(bins, tmp_path):
    rc, err = interact(bins, tmp_path, "guess", "pass\n", case_in="0 1\n",
                       env={"IBENCH_TRANSCRIPT": str(tmp_path / "tr.txt")})
    assert (rc, err) == (3, "FAIL Integer parameter [name=n] equals to 0, violates the range [1, 1000000] (case.in)\n")
    assert read_tr(tmp_path / "tr.txt") == transcript("", "")


def test_interactor_unwritable_tout_is_fail(bins, tmp_path):
    rc, err = interact(bins, tmp_path, "guess", "pass\n", args=["case.in", "no/such/dir/tout.txt"])
    assert (rc, err) == (3, "FAIL Can not write to the test-output-file 'no/such/dir/tout.txt'\n")


def test_interactor_plain_return_writes_transcript(bins, tmp_path):
    rc, err = interact(bins, tmp_path, "ret", SOLVER, env={"IBENCH_TRANSCRIPT": str(tmp_path / "tr.txt")})
    assert (rc, err) == (0, "")
    assert read_tr(tmp_path / "tr.txt") == transcript("? 51\n", "100\n0\n")


def test_interactor_killed_by_sigterm_still_writes_transcript(bins, tmp_path):
    (tmp_path / "case.in").write_text("100 37\n")
    env = dict(os.environ, TL_CASE="guess", IBENCH_TRANSCRIPT=str(tmp_path / "tr.txt"))
    p = subprocess.Popen([str(bins.multi), "int", "case.in", "tout.txt"], cwd=tmp_path, env=env,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert p.stdout.readline() == b"100\n"
        p.stdin.write(b"? 50\n")
        p.stdin.flush()
        assert p.stdout.readline() == b"0\n"
        p.send_signal(signal.SIGTERM)
        assert p.wait(timeout=10) == -signal.SIGTERM
    finally:
        if p.poll() is None:
            p.kill()
    assert read_tr(tmp_path / "tr.txt") == transcript("? 50\n", "100\n0\n")
