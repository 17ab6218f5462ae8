// Interactor for rotated-array-minimum (non-adaptive, T games per run, -1 on budget overrun).
// Case: T, then per game "n m c base seed". The sorted values are
//   b_j = base + c*j + (mix(seed, j) mod c),  j = 0..n-1  (strictly increasing),
// and a_i = b_{(i - m) mod n}, so the minimum sits at position m.
// Budget Q = sum(ceil(log2 n) + 2), shared by all games.
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

// Tell the solver the run is over (-1), then stop with the verdict.
[[noreturn]] static void reject(TResult r, const std::string& msg) {
    std::cout << -1 << std::endl;
    finish(r, msg);
}

static std::string shorten(const std::string& s) { return s.size() <= 40 ? s : s.substr(0, 40) + "..."; }

static std::string next_token() {
    if (ouf.seekEof()) reject(_pe, "unexpected end of the solver's output");
    return ouf.readToken();
}

// A plain decimal integer (optional '-', no leading zeros, no '+'); anything else is PE.
static long long read_number(const char* what) {
    std::string s = next_token();
    size_t start = (!s.empty() && s[0] == '-') ? 1 : 0;
    bool ok = start < s.size() && s.size() - start <= 18;
    for (size_t i = start; ok && i < s.size(); i++) ok = s[i] >= '0' && s[i] <= '9';
    if (ok && s.size() - start > 1 && s[start] == '0') ok = false;
    if (ok && start == 1 && s == "-0") ok = false;
    if (!ok) reject(_pe, format("expected an integer %s, found \"%s\"", what, shorten(s).c_str()));
    return std::stoll(s);
}

static unsigned long long mix(unsigned long long x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static int ceil_log2(long long n) {
    int k = 0;
    while ((1LL << k) < n) k++;
    return k;
}

struct Game {
    long long n, m, c, base;
    unsigned long long seed;
    long long value(long long i) const {  // 1 <= i <= n
        long long j = ((i - m) % n + n) % n;
        return base + c * j + (long long)(mix(seed ^ (unsigned long long)j) % (unsigned long long)c);
    }
};

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);  // a solver that already exited must not kill the interactor
    int T = inf.readInt(1, 100, "T");
    std::vector<Game> games(T);
    for (auto& g : games) {
        g.n = inf.readLong(1, 1000000000LL, "n");
        g.m = inf.readLong(1, g.n, "m");
        g.c = inf.readLong(1, 100000000LL, "c");
        g.base = inf.readLong(1, 100000000000000000LL, "base");
        g.seed = (unsigned long long)inf.readLong(0, 1000000000000000000LL, "seed");
        ensuref(g.base + g.c * g.n <= 1000000000000000000LL, "values exceed 1e18");
        query_limit += ceil_log2(g.n) + 2;
    }
    log_counts();  // before the first blocking read

    std::cout << T << " " << query_limit << std::endl;
    for (int k = 0; k < T; k++) {
        const Game& g = games[k];
        std::cout << g.n << std::endl;
        while (true) {
            std::string cmd = next_token();
            if (cmd == "?") {
                long long i = read_number("after '?'");
                if (i < 1 || i > g.n)
                    reject(_pe, format("game %d: query index %lld is outside [1, %lld]", k + 1, i, g.n));
                queries++;
                log_counts();
                if (queries > query_limit)
                    reject(_wa, format("query budget of %lld exceeded", query_limit));
                std::cout << g.value(i) << std::endl;
            } else if (cmd == "!") {
                long long m = read_number("after '!'");
                if (m < 1 || m > g.n)
                    reject(_pe, format("game %d: answer %lld is outside [1, %lld]", k + 1, m, g.n));
                if (m != g.m)
                    reject(_wa, format("game %d (n=%lld): answered %lld, the minimum is at %lld", k + 1, g.n, m, g.m));
                break;
            } else {
                reject(_pe, format("game %d: expected '?' or '!', found \"%s\"", k + 1, shorten(cmd).c_str()));
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
