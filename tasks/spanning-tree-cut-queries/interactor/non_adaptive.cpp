// Interactor for spanning-tree-cut-queries (non-adaptive, T games per run).
// Case: T, then T lines "n kind seed". The hidden connected graph on 1..n is a fixed function
// of (n, kind, seed), built here with SplitMix64 and a hidden random relabelling:
//   path, cycle, star, tree (random recursive), binary (heap-shaped tree), caterpillar,
//   broom (path then star), sparse (random tree + n/8 extra edges), dense (G(n, 1/2) plus a
//   random spanning tree), complete, barbell (two cliques joined by one edge)
// Query "? k a_1..a_k l b_1..b_l": is there an edge between the two disjoint sets?
// Budget per game: 2 (n - 1) ceil(log2 n). On query budget + 1 the run ends at once (no
// reply); the figures in tout then read as an overrun (Query Limit Exceeded).
#include "testlib.h"
#include <fcntl.h>
#include <unistd.h>
#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <numeric>
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

static std::string next_token() {
    if (ouf.seekEof()) finish(_pe, "unexpected end of the solver's output");
    return ouf.readToken();
}

static long long read_number(const char* what) {
    std::string s = next_token();
    bool ok = !s.empty() && s.size() <= 18;
    size_t start = (ok && s[0] == '-') ? 1 : 0;
    if (start == s.size()) ok = false;
    for (size_t i = start; ok && i < s.size(); i++) ok = s[i] >= '0' && s[i] <= '9';
    if (ok && s.size() - start > 1 && s[start] == '0') ok = false;
    if (ok && s == "-0") ok = false;
    if (!ok) finish(_pe, format("expected an integer %s, found \"%s\"", what, s.substr(0, 40).c_str()));
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
    int below(int n) { return (int)(next() % (uint64_t)n); }
};

struct Graph {
    int n = 0;
    std::vector<std::vector<int>> adj;
    std::vector<std::vector<char>> mat;
    void add(int u, int v) {
        if (u == v || mat[u][v]) return;
        mat[u][v] = mat[v][u] = 1;
        adj[u].push_back(v);
        adj[v].push_back(u);
    }
};

static Graph build(int n, const std::string& kind, uint64_t seed) {
    SplitMix r{seed};
    Graph G;
    G.n = n;
    G.adj.assign(n + 1, {});
    G.mat.assign(n + 1, std::vector<char>(n + 1, 0));
    std::vector<int> p(n);  // p[i]: the hidden label of structural vertex i
    std::iota(p.begin(), p.end(), 1);
    for (int i = n - 1; i > 0; i--) std::swap(p[i], p[r.below(i + 1)]);
    auto E = [&](int a, int b) { G.add(p[a], p[b]); };
    if (kind == "path") {
        for (int i = 0; i + 1 < n; i++) E(i, i + 1);
    } else if (kind == "cycle") {
        for (int i = 0; i + 1 < n; i++) E(i, i + 1);
        if (n >= 3) E(n - 1, 0);
    } else if (kind == "star") {
        for (int i = 1; i < n; i++) E(0, i);
    } else if (kind == "tree") {
        for (int i = 1; i < n; i++) E(r.below(i), i);
    } else if (kind == "binary") {
        for (int i = 1; i < n; i++) E((i - 1) / 2, i);
    } else if (kind == "caterpillar") {
        int spine = std::max(1, n / 2);
        for (int i = 0; i + 1 < spine; i++) E(i, i + 1);
        for (int i = spine; i < n; i++) E(r.below(spine), i);
    } else if (kind == "broom") {
        int handle = std::max(1, n / 2);
        for (int i = 0; i + 1 < handle; i++) E(i, i + 1);
        for (int i = handle; i < n; i++) E(handle - 1, i);
    } else if (kind == "sparse") {
        for (int i = 1; i < n; i++) E(r.below(i), i);
        for (int t = 0; t < n / 8; t++) E(r.below(n), r.below(n));
    } else if (kind == "dense") {
        for (int i = 1; i < n; i++) E(r.below(i), i);
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++)
                if (r.below(2)) E(a, b);
    } else if (kind == "complete") {
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++) E(a, b);
    } else if (kind == "barbell") {
        int h = n / 2;
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++)
                if ((a < h) == (b < h)) E(a, b);
        if (h >= 1 && h < n) E(r.below(h), h + r.below(n - h));
    } else {
        ensuref(false, "unknown graph kind %s", kind.c_str());
    }
    return G;
}

static long long budget_for(long long n) {
    int c = 0;
    while ((1LL << c) < n) c++;
    return 2 * (n - 1) * c;
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
    std::vector<int> ns(T);
    std::vector<std::string> kinds(T);
    std::vector<long long> seeds(T);
    long long total = 0;
    for (int g = 0; g < T; g++) {
        ns[g] = inf.readInt(1, 200, "n");
        kinds[g] = inf.readToken();
        seeds[g] = inf.readLong(0, 1000000000000000000LL, "seed");
        query_limit += budget_for(ns[g]);
        total += ns[g];
    }
    ensuref(total <= 2000, "total n too large");
    log_counts();

    std::cout << T << std::endl;
    long long used_before = 0;
    std::vector<int> stamp(201, 0);
    int stampNow = 0;
    for (int g = 0; g < T; g++) {
        const int n = ns[g];
        const long long budget = budget_for(n);
        Graph G = build(n, kinds[g], (uint64_t)seeds[g]);
        std::fill(stamp.begin(), stamp.end(), 0);
        stampNow = 0;
        std::cout << n << " " << budget << std::endl;
        while (true) {
            std::string cmd = next_token();
            if (cmd == "?") {
                stampNow += 2;  // stamp == stampNow - 1: in A, == stampNow: in B
                std::vector<int> A, B;
                for (int side = 0; side < 2; side++) {
                    long long k = read_number("set size");
                    if (k < 1 || k > n)
                        finish(_pe, format("game %d: set size %lld is outside [1, %d]", g + 1, k, n));
                    for (long long t = 0; t < k; t++) {
                        long long v = read_number("vertex");
                        if (v < 1 || v > n)
                            finish(_pe, format("game %d: vertex %lld is outside [1, %d]", g + 1, v, n));
                        if (stamp[v] >= stampNow - 1)
                            finish(_pe, format("game %d: vertex %lld appears twice in one query", g + 1, v));
                        stamp[v] = side == 0 ? stampNow - 1 : stampNow;
                        (side == 0 ? A : B).push_back((int)v);
                    }
                }
                queries++;
                if (queries - used_before > budget) {
                    query_limit = used_before + budget;
                    finish(_wa, format("game %d: more than 2(n-1)ceil(log2 n) = %lld queries", g + 1, budget));
                }
                log_counts();
                bool hit = false;
                for (int a : A) {
                    for (int b : G.adj[a])
                        if (stamp[b] == stampNow) { hit = true; break; }
                    if (hit) break;
                }
                std::cout << (hit ? 1 : 0) << std::endl;
            } else if (cmd == "!") {
                std::vector<int> dsu(n + 1);
                std::iota(dsu.begin(), dsu.end(), 0);
                auto find = [&](int x) {
                    while (dsu[x] != x) x = dsu[x] = dsu[dsu[x]];
                    return x;
                };
                for (int e = 0; e < n - 1; e++) {
                    long long u = read_number("edge end");
                    long long v = read_number("edge end");
                    if (u < 1 || u > n || v < 1 || v > n)
                        finish(_pe, format("game %d: edge (%lld, %lld) has an end outside [1, %d]", g + 1, u, v, n));
                    if (!G.mat[u][v])
                        finish(_wa, format("game %d: (%lld, %lld) is not an edge of the graph", g + 1, u, v));
                    int a = find((int)u), b = find((int)v);
                    if (a == b) finish(_wa, format("game %d: edge (%lld, %lld) closes a cycle", g + 1, u, v));
                    dsu[a] = b;
                }
                break;
            } else {
                finish(_pe, format("game %d: expected '?' or '!', found \"%s\"", g + 1, cmd.substr(0, 40).c_str()));
            }
        }
        used_before = queries;
    }
    close_solver_input();
    if (!ouf.seekEof()) finish(_pe, "output after the final answer");
    finish(_ok, format("%d games solved with %lld queries (budget %lld in all)", T, queries, query_limit));
}
