// Adaptive interactor for tournament-hamiltonian-path (T games per run, -1 on budget overrun).
// Case: T, then per game "n strategy seed param". Edge directions are decided when a pair is
// first asked, by the game's strategy, and remembered (answers stay consistent). When the path
// is checked, every consecutive pair that was never asked is oriented against the solver.
// Strategies (a vertex's "rank" decides u -> v iff rank[u] < rank[v]):
//   rand     a fresh coin flip per pair (seeded)
//   order    ranks from a hidden random permutation
//   noisy    order, but each pair is flipped with probability param/1000
//   idx      rank = vertex number;   revidx: rank = -vertex number
//   first    rank = time of the vertex's first appearance in a query (newcomers lose)
//   last     rank = minus that time (newcomers win)
//   mid      lazy ranks: a newcomer is placed in the middle of the vertices ranked so far
//            (insertion-style solvers always land in the middle of their path)
// Budget Q = sum over games of B(n) + floor(n/8), B(n) = sum_{i=2..n} ceil(log2 i).
#include "testlib.h"
#include <csignal>
#include <cstdio>
#include <string>
#include <unistd.h>
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

static std::string shorten(const std::string& s) { return s.size() <= 40 ? s : s.substr(0, 40) + "..."; }

static std::string next_token() {
    if (ouf.seekEof()) reject(_pe, "unexpected end of the solver's output");
    return ouf.readToken();
}

static long long read_number(const char* what) {
    std::string s = next_token();
    size_t start = (!s.empty() && s[0] == '-') ? 1 : 0;
    bool ok = start < s.size() && s.size() - start <= 18;
    for (size_t i = start; ok && i < s.size(); i++) ok = s[i] >= '0' && s[i] <= '9';
    if (ok && s.size() - start > 1 && s[start] == '0') ok = false;
    if (ok && s == "-0") ok = false;
    if (!ok) reject(_pe, format("expected an integer %s, found \"%s\"", what, shorten(s).c_str()));
    return std::stoll(s);
}

struct Rng {
    unsigned long long x;
    unsigned long long next() {
        x += 0x9E3779B97F4A7C15ULL;
        unsigned long long z = x;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    int below(int n) { return (int)(next() % (unsigned long long)n); }
};

static long long budget(int n) {
    long long b = 0;
    for (int i = 2; i <= n; i++) {
        int k = 0;
        while ((1 << k) < i) k++;
        b += k;
    }
    return b + n / 8;
}

struct GameSpec { int n; std::string strategy; unsigned long long seed; int param; };

struct Adversary {
    int n;
    std::string strategy;
    int param;
    Rng rng;
    std::vector<signed char> dir;  // dir[u*(n+1)+v]: 1 if u -> v, 0 if v -> u, -1 unknown
    std::vector<long long> rank;   // for rank-based strategies
    std::vector<char> ranked;
    std::vector<int> line;         // "mid": vertices in rank order
    long long clock = 0;

    Adversary(const GameSpec& g) : n(g.n), strategy(g.strategy), param(g.param), rng{g.seed} {
        dir.assign((size_t)(n + 1) * (n + 1), -1);
        rank.assign(n + 1, 0);
        ranked.assign(n + 1, 0);
        if (strategy == "order" || strategy == "noisy") {
            std::vector<int> p(n);
            for (int i = 0; i < n; i++) p[i] = i;
            for (int i = n - 1; i > 0; i--) std::swap(p[i], p[rng.below(i + 1)]);
            for (int v = 1; v <= n; v++) rank[v] = p[v - 1];
        } else if (strategy == "idx") {
            for (int v = 1; v <= n; v++) rank[v] = v;
        } else if (strategy == "revidx") {
            for (int v = 1; v <= n; v++) rank[v] = -v;
        }
    }
    void see(int v) {  // lazily rank a newcomer
        if (ranked[v]) return;
        ranked[v] = 1;
        clock++;
        if (strategy == "first") rank[v] = clock;
        else if (strategy == "last") rank[v] = -clock;
        else if (strategy == "mid") {
            int pos = (int)line.size() / 2;
            if (line.size() % 2 == 1 && rng.below(2)) pos++;
            line.insert(line.begin() + pos, v);
            for (int i = 0; i < (int)line.size(); i++) rank[line[i]] = i;
        }
    }
    int decide(int u, int v) {  // 1 if u -> v
        if (strategy == "rand") return rng.below(2);
        see(u);
        see(v);
        int d = rank[u] < rank[v] ? 1 : 0;
        if (strategy == "noisy" && rng.below(1000) < param) d ^= 1;
        return d;
    }
    int ask(int u, int v) {
        signed char& d = dir[(size_t)u * (n + 1) + v];
        if (d < 0) {
            d = (signed char)decide(u, v);
            dir[(size_t)v * (n + 1) + u] = (signed char)(1 - d);
        }
        return d;
    }
    int known(int u, int v) const { return dir[(size_t)u * (n + 1) + v]; }
};

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);  // a solver that already exited must not kill the interactor
    int T = inf.readInt(1, 100, "T");
    std::vector<GameSpec> games(T);
    long long total_n = 0;
    for (auto& g : games) {
        g.n = inf.readInt(1, 1000, "n");
        g.strategy = inf.readToken();
        g.seed = (unsigned long long)inf.readLong(0, 1000000000000000000LL, "seed");
        g.param = inf.readInt(0, 1000, "param");
        const char* known[] = {"rand", "order", "noisy", "idx", "revidx", "first", "last", "mid"};
        bool ok = false;
        for (const char* k : known) ok |= g.strategy == k;
        ensuref(ok, "unknown strategy %s", g.strategy.c_str());
        total_n += g.n;
        query_limit += budget(g.n);
    }
    ensuref(total_n <= 3000, "sum of n exceeds 3000");
    log_counts();  // before the first blocking read

    std::cout << T << " " << query_limit << std::endl;
    for (int gi = 0; gi < T; gi++) {
        Adversary adv(games[gi]);
        int n = games[gi].n;
        std::cout << n << std::endl;
        while (true) {
            std::string cmd = next_token();
            if (cmd == "?") {
                long long u = read_number("(first vertex of a query)");
                long long v = read_number("(second vertex of a query)");
                if (u < 1 || u > n || v < 1 || v > n)
                    reject(_pe, format("game %d: query (%lld, %lld) has a vertex outside [1, %d]", gi + 1, u, v, n));
                if (u == v) reject(_pe, format("game %d: query (%lld, %lld) asks about a vertex and itself", gi + 1, u, v));
                queries++;
                log_counts();
                if (queries > query_limit) reject(_wa, format("query budget of %lld exceeded", query_limit));
                std::cout << adv.ask((int)u, (int)v) << std::endl;
            } else if (cmd == "!") {
                std::vector<int> p(n);
                for (int i = 0; i < n; i++) {
                    long long x = read_number("(vertex of the path)");
                    if (x < 1 || x > n)
                        reject(_pe, format("game %d: path vertex %lld is outside [1, %d]", gi + 1, x, n));
                    p[i] = (int)x;
                }
                std::vector<char> used(n + 1, 0);
                for (int i = 0; i < n; i++) {
                    if (used[p[i]]) reject(_wa, format("game %d: vertex %d appears twice in the path", gi + 1, p[i]));
                    used[p[i]] = 1;
                }
                for (int i = 0; i + 1 < n; i++) {
                    int d = adv.known(p[i], p[i + 1]);
                    if (d < 0)
                        reject(_wa, format("game %d: the pair (%d, %d) at positions %d-%d was never asked; the interactor "
                                           "orients it %d -> %d", gi + 1, p[i], p[i + 1], i + 1, i + 2, p[i + 1], p[i]));
                    if (d == 0)
                        reject(_wa, format("game %d: the edge between positions %d and %d is %d -> %d, not %d -> %d",
                                           gi + 1, i + 1, i + 2, p[i + 1], p[i], p[i], p[i + 1]));
                }
                break;
            } else {
                reject(_pe, format("game %d: expected '?' or '!', found \"%s\"", gi + 1, shorten(cmd).c_str()));
            }
        }
    }
    std::cout.flush();
    fflush(stdout);
    close(1);  // the solver's input ends here: a solver still reading sees EOF
    // Anything the solver printed after its last answer is detected deterministically.
    if (!ouf.seekEof()) finish(_pe, "output after the final answer");
    finish(_ok, format("%d games solved with %lld queries (budget %lld)", T, queries, query_limit));
}
