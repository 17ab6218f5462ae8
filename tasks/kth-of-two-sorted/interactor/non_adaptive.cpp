// Interactor for kth-of-two-sorted (non-adaptive, T games per run, -1 on budget).
// Case: T, then T lines "n m k layout seed". The two sorted arrays are built here from the seed
// (deterministically, SplitMix64): a nondecreasing sequence of n + m values with heavy-tailed
// gaps (or many ties) is split into A (n values) and B (m values) by `layout`:
//   mix     each element goes to A or B at random (exactly n to A)
//   runs    alternating random-length runs of A and B
//   low     A gets the n smallest values        high   A gets the n largest values
//   inner   B's values all lie strictly inside A's range (as far as sizes allow)
// and the value law by the layout suffix: "-eq" (all values equal), "-few" (values 0..3).
// Budget per game: q = 2*ceil(log2 w) + 2, w = min(k, n) - max(0, k - m) + 1.
#include "testlib.h"
#include <fcntl.h>
#include <unistd.h>
#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

static long long queries = 0, query_limit = 0;

static void log_counts() {
    tout << "queries=" << queries << "\n" << "query_limit=" << query_limit << std::endl;
}

[[noreturn]] static void finish(TResult r, const std::string& msg) {
    log_counts();
    quitf(r, "%s", msg.c_str());
}

[[noreturn]] static void reject(TResult r, const std::string& msg) {
    std::cout << -1 << std::endl;
    finish(r, msg);
}

static std::string next_token() {
    if (ouf.seekEof()) reject(_pe, "unexpected end of the solver's output");
    return ouf.readToken();
}

static long long read_number(const char* what) {
    std::string s = next_token();
    bool ok = !s.empty() && s.size() <= 19;
    size_t start = (ok && s[0] == '-') ? 1 : 0;
    if (start == s.size()) ok = false;
    for (size_t i = start; ok && i < s.size(); i++) ok = s[i] >= '0' && s[i] <= '9';
    if (ok && s.size() - start > 1 && s[start] == '0') ok = false;
    if (ok && s == "-0") ok = false;
    if (ok && s.size() - start == 19 && s.substr(start) > "9223372036854775807") ok = false;
    if (!ok) reject(_pe, format("expected an integer %s, found \"%s\"", what, s.substr(0, 40).c_str()));
    return std::stoll(s);
}

struct SplitMix {
    uint64_t s;
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    uint64_t below(uint64_t n) { return next() % n; }
    double unit() { return ((next() >> 11) + 1) * (1.0 / 9007199254740993.0); }  // (0, 1]
};

struct Game {
    long long n, m, k;
    std::string layout;
    long long seed;
};

static int ceil_log2(long long w) {
    int c = 0;
    while ((1LL << c) < w) c++;
    return c;
}

static long long budget_for(const Game& g) {
    long long lo = std::max(0LL, g.k - g.m), hi = std::min(g.k, g.n);
    return 2LL * ceil_log2(hi - lo + 1) + 2;
}

static void build(const Game& g, std::vector<long long>& A, std::vector<long long>& B) {
    SplitMix r{(uint64_t)g.seed};
    const long long N = g.n + g.m;
    std::string base = g.layout, law = "wide";
    size_t dash = base.find('-');
    if (dash != std::string::npos) law = base.substr(dash + 1), base = base.substr(0, dash);
    std::vector<long long> U(N);
    long long v = law == "few" ? 0 : (long long)r.below(100000000000000000ULL);
    const double cap = 4e11;
    for (long long t = 0; t < N; t++) {
        if (t > 0) {
            if (law == "eq") {
            } else if (law == "few") {
                if (v < 3 && r.below(N) < 3) v++;
            } else {
                if (r.below(5) != 0) {  // a fifth of the gaps are 0 (ties)
                    double u = r.unit();
                    double gap = std::min(cap, 1.0 / (u * u));  // heavy tail: no usable slope
                    v += (long long)gap;
                }
            }
        }
        U[t] = v;
    }
    std::vector<char> toA(N, 0);
    if (base == "mix") {
        long long needA = g.n;
        for (long long t = 0; t < N; t++) {
            if ((long long)r.below(N - t) < needA) toA[t] = 1, needA--;
        }
    } else if (base == "runs") {
        long long a = g.n, b = g.m, t = 0;
        bool turnA = r.below(2);
        while (t < N) {
            long long len = 1 + (long long)r.below(1 + (uint64_t)std::max(1LL, N / 8));
            long long take = std::min(len, turnA ? a : b);
            if (turnA && a == 0) take = 0;
            if (!turnA && b == 0) take = 0;
            for (long long s = 0; s < take; s++) toA[t++] = turnA;
            if (turnA) a -= take; else b -= take;
            turnA = !turnA;
        }
    } else if (base == "low") {
        for (long long t = 0; t < g.n; t++) toA[t] = 1;
    } else if (base == "high") {
        for (long long t = g.m; t < N; t++) toA[t] = 1;
    } else if (base == "inner") {  // A takes a prefix and a suffix, B the middle
        long long pre = (g.n + 1) / 2;
        for (long long t = 0; t < pre; t++) toA[t] = 1;
        for (long long t = N - (g.n - pre); t < N; t++) toA[t] = 1;
    } else {
        ensuref(false, "unknown layout %s", g.layout.c_str());
    }
    A.clear();
    B.clear();
    A.reserve(g.n);
    B.reserve(g.m);
    for (long long t = 0; t < N; t++) (toA[t] ? A : B).push_back(U[t]);
    ensuref((long long)A.size() == g.n && (long long)B.size() == g.m, "layout produced wrong sizes");
}

// End of the run: close the solver's input (it sees EOF if it still reads) without fclose() on
// the C stream: ibench's testlib may have replaced stdout by a recording stream that must stay
// valid until exit, so only file descriptor 1 is swapped for /dev/null.
static void close_solver_input() {
    std::cout.flush();
    std::fflush(stdout);
    int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (devnull >= 0) {
        dup2(devnull, 1);
        close(devnull);
    } else {
        close(1);
    }
}

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);
    int T = inf.readInt(1, 100, "T");
    std::vector<Game> games(T);
    long long total = 0;
    for (auto& g : games) {
        g.n = inf.readLong(1, 1000000, "n");
        g.m = inf.readLong(1, 1000000, "m");
        g.k = inf.readLong(1, g.n + g.m, "k");
        g.layout = inf.readToken();
        g.seed = inf.readLong(0, 1000000000000000000LL, "seed");
        query_limit += budget_for(g);
        total += g.n + g.m;
    }
    ensuref(total <= 4000000, "total size too large");
    log_counts();

    std::cout << T << std::endl;
    long long used_before = 0;
    std::vector<long long> A, B;
    for (int gi = 0; gi < T; gi++) {
        const Game& g = games[gi];
        build(g, A, B);
        std::vector<long long> U;
        U.reserve(g.n + g.m);
        std::merge(A.begin(), A.end(), B.begin(), B.end(), std::back_inserter(U));
        const long long want = U[g.k - 1];
        const long long budget = budget_for(g);
        std::cout << g.n << " " << g.m << " " << g.k << " " << budget << std::endl;
        while (true) {
            std::string cmd = next_token();
            if (cmd == "?") {
                std::string which = next_token();
                if (which != "A" && which != "B")
                    reject(_pe, format("game %d: expected 'A' or 'B' after '?', found \"%s\"", gi + 1, which.substr(0, 40).c_str()));
                long long len = which == "A" ? g.n : g.m;
                long long i = read_number("index");
                if (i < 1 || i > len)
                    reject(_pe, format("game %d: index %lld of %s is outside [1, %lld]", gi + 1, i, which.c_str(), len));
                queries++;
                if (queries - used_before > budget) {
                    query_limit = used_before + budget;
                    reject(_wa, format("game %d: more than %lld queries", gi + 1, budget));
                }
                log_counts();
                std::cout << (which == "A" ? A[i - 1] : B[i - 1]) << std::endl;
            } else if (cmd == "!") {
                long long y = read_number("after '!'");
                if (y != want)
                    reject(_wa, format("game %d: answered %lld, the %lld-th smallest is %lld", gi + 1, y, g.k, want));
                break;
            } else {
                reject(_pe, format("game %d: expected '?' or '!', found \"%s\"", gi + 1, cmd.substr(0, 40).c_str()));
            }
        }
        used_before = queries;
    }
    close_solver_input();
    if (!ouf.seekEof()) finish(_pe, "output after the final answer");
    finish(_ok, format("%d games solved with %lld queries (budget %lld in all)", T, queries, query_limit));
}
