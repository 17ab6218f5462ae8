// Interactor for and-mask-group-testing (non-adaptive, T games per run, -1 on budget overrun).
// Case: T, then per game "n k x" with popcount(x) = k and 0 <= x < 2^n.
// Query "? y" -> 1 if (x & y) != 0 else 0. Budget Q = sum H(n, k),
// H(n, k) = ceil(log2 C(n, k)) + k - 1 for 0 < k < n, 0 otherwise (Hwang's generalized binary
// splitting never needs more).
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

// A plain non-negative decimal integer below 2^63 (no sign, no leading zeros); else PE.
// Returns -1 for a well-formed number that is too large to matter (it is out of range anyway).
static long long read_mask(const char* what) {
    std::string s = next_token();
    bool ok = !s.empty();
    for (size_t i = 0; ok && i < s.size(); i++) ok = s[i] >= '0' && s[i] <= '9';
    if (ok && s.size() > 1 && s[0] == '0') ok = false;
    if (!ok) reject(_pe, format("expected a non-negative decimal integer %s, found \"%s\"", what, shorten(s).c_str()));
    if (s.size() > 19) return -1;
    unsigned long long v = 0;
    for (char c : s) v = v * 10 + (unsigned long long)(c - '0');
    if (v > (unsigned long long)LLONG_MAX) return -1;
    return (long long)v;
}

static long long budget(int n, int k) {
    if (k == 0 || k == n) return 0;
    unsigned long long c = 1;  // C(n, k) <= C(60, 30) < 2^60, exact with this order of operations
    for (int i = 1; i <= k; i++) c = c * (unsigned long long)(n - k + i) / (unsigned long long)i;
    int b = 0;
    while ((1ULL << b) < c) b++;
    return b + k - 1;
}

struct Game { int n, k; long long x; };

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);  // a solver that already exited must not kill the interactor
    int T = inf.readInt(1, 100, "T");
    std::vector<Game> games(T);
    for (auto& g : games) {
        g.n = inf.readInt(1, 60, "n");
        g.k = inf.readInt(0, g.n, "k");
        g.x = inf.readLong(0, (1LL << g.n) - 1, "x");
        ensuref(__builtin_popcountll((unsigned long long)g.x) == g.k, "popcount(x) != k");
        query_limit += budget(g.n, g.k);
    }
    log_counts();  // before the first blocking read

    std::cout << T << " " << query_limit << std::endl;
    for (int gi = 0; gi < T; gi++) {
        const Game& g = games[gi];
        const long long top = (1LL << g.n) - 1;
        std::cout << g.n << " " << g.k << std::endl;
        while (true) {
            std::string cmd = next_token();
            if (cmd == "?") {
                long long y = read_mask("after '?'");
                if (y < 0 || y > top)
                    reject(_pe, format("game %d: mask is outside [0, 2^%d - 1]", gi + 1, g.n));
                queries++;
                log_counts();
                if (queries > query_limit) reject(_wa, format("query budget of %lld exceeded", query_limit));
                std::cout << ((g.x & y) != 0 ? 1 : 0) << std::endl;
            } else if (cmd == "!") {
                long long a = read_mask("after '!'");
                if (a < 0 || a > top)
                    reject(_pe, format("game %d: answer is outside [0, 2^%d - 1]", gi + 1, g.n));
                if (a != g.x)
                    reject(_wa, format("game %d (n=%d, k=%d): answered %lld, hidden x is %lld", gi + 1, g.n, g.k, a, g.x));
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
