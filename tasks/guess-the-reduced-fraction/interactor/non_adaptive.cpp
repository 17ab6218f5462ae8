// Interactor for guess-the-reduced-fraction (non-adaptive, T games per run, -1 on overrun).
// Case: T, then per game "N p q" with 1 <= p, q <= N and gcd(p, q) = 1.
// Query "? a b" (1 <= a, b <= N) -> '<', '>' or '=' comparing p/q with a/b.
// Budget Q = sum(4 * ceil(log2 N) + 4).
#include "testlib.h"
#include <csignal>
#include <cstdio>
#include <numeric>
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

static int ceil_log2(long long n) {
    int k = 0;
    while ((1LL << k) < n) k++;
    return k;
}

struct Game { long long N, p, q; };

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);  // a solver that already exited must not kill the interactor
    int T = inf.readInt(1, 100, "T");
    std::vector<Game> games(T);
    for (auto& g : games) {
        g.N = inf.readLong(1, 1000000000LL, "N");
        g.p = inf.readLong(1, g.N, "p");
        g.q = inf.readLong(1, g.N, "q");
        ensuref(std::gcd(g.p, g.q) == 1, "hidden fraction not in lowest terms");
        query_limit += 4LL * ceil_log2(g.N) + 4;
    }
    log_counts();  // before the first blocking read

    std::cout << T << " " << query_limit << std::endl;
    for (int gi = 0; gi < T; gi++) {
        const Game& g = games[gi];
        std::cout << g.N << std::endl;
        while (true) {
            std::string cmd = next_token();
            if (cmd == "?") {
                long long a = read_number("(numerator of a query)");
                long long b = read_number("(denominator of a query)");
                if (a < 1 || a > g.N || b < 1 || b > g.N)
                    reject(_pe, format("game %d: query %lld/%lld has a number outside [1, %lld]", gi + 1, a, b, g.N));
                queries++;
                log_counts();
                if (queries > query_limit) reject(_wa, format("query budget of %lld exceeded", query_limit));
                long long lhs = g.p * b, rhs = a * g.q;  // both <= 10^18
                std::cout << (lhs < rhs ? "<" : lhs > rhs ? ">" : "=") << std::endl;
            } else if (cmd == "!") {
                long long a = read_number("(answer numerator)");
                long long b = read_number("(answer denominator)");
                if (a < 1 || a > g.N || b < 1 || b > g.N)
                    reject(_pe, format("game %d: answer %lld/%lld has a number outside [1, %lld]", gi + 1, a, b, g.N));
                if (a != g.p || b != g.q)
                    reject(_wa, format("game %d (N=%lld): answered %lld/%lld, hidden fraction is %lld/%lld%s", gi + 1,
                                       g.N, a, b, g.p, g.q, a * g.q == b * g.p ? " (not in lowest terms)" : ""));
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
