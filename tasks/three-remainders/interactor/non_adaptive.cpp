// Interactor for three-remainders (non-adaptive, T games per run).
// Case: T, then T lines "L x" (0 <= x < L <= 999900000000000000). Budget Q = 3T, shared.
// Query "? m" (2 <= m <= 10^6) -> x mod m. Query Q + 1 is answered with -1 and ends the run.
#include "testlib.h"
#include <csignal>
#include <string>
#include <vector>

static long long queries = 0, query_limit = 0;
static const long long LMAX = 999900000000000000LL;

static void log_counts() {
    tout << "queries=" << queries << "\n" << "query_limit=" << query_limit << std::endl;
}

[[noreturn]] static void finish(TResult r, const std::string& msg) {
    log_counts();
    quitf(r, "%s", msg.c_str());
}

// Tell the solver the run is over (-1) and stop with the given verdict.
[[noreturn]] static void reject(TResult r, const std::string& msg) {
    std::cout << -1 << std::endl;
    finish(r, msg);
}

static std::string next_token() {
    if (ouf.seekEof()) reject(_pe, "unexpected end of the solver's output");
    return ouf.readToken();
}

// A plain decimal integer (optional '-', no leading zeros, at most 18 digits); anything else is
// a format error.
static long long read_number(const char* what) {
    std::string s = next_token();
    bool ok = !s.empty() && s.size() <= 19;
    size_t start = (ok && s[0] == '-') ? 1 : 0;
    if (start == s.size() || s.size() - start > 18) ok = false;
    for (size_t i = start; ok && i < s.size(); i++) ok = s[i] >= '0' && s[i] <= '9';
    if (ok && s.size() - start > 1 && s[start] == '0') ok = false;
    if (!ok) reject(_pe, format("expected an integer %s, found \"%s\"", what, s.substr(0, 40).c_str()));
    return std::stoll(s);
}

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);  // a solver that already exited must not turn a verdict into a crash
    int T = inf.readInt(1, 100, "T");
    std::vector<long long> L(T), x(T);
    for (int g = 0; g < T; g++) {
        L[g] = inf.readLong(1, LMAX, "L");
        x[g] = inf.readLong(0, L[g] - 1, "x");
    }
    query_limit = 3LL * T;
    log_counts();  // before the first blocking read

    std::cout << T << " " << query_limit << std::endl;
    for (int g = 0; g < T; g++) {
        std::cout << L[g] << std::endl;
        while (true) {
            std::string cmd = next_token();
            if (cmd == "?") {
                long long m = read_number("after '?'");
                if (m < 2 || m > 1000000)
                    reject(_pe, format("game %d: modulus %lld is outside [2, 10^6]", g + 1, m));
                queries++;
                log_counts();
                if (queries > query_limit) reject(_wa, format("query budget of %lld exceeded", query_limit));
                std::cout << x[g] % m << std::endl;
            } else if (cmd == "!") {
                long long y = read_number("after '!'");
                if (y < 0 || y >= L[g])  // a well-formed but impossible answer is a wrong answer
                    reject(_wa, format("game %d: answer %lld is outside [0, L - 1]", g + 1, y));
                if (y != x[g]) reject(_wa, format("game %d: answered %lld, which is not the hidden number", g + 1, y));
                break;
            } else {
                reject(_pe, format("game %d: expected '?' or '!', found \"%s\"", g + 1, cmd.substr(0, 40).c_str()));
            }
        }
    }
    // Close the solver's input, then require that it printed nothing after its last answer.
    std::cout.flush();
    fclose(stdout);
    if (!ouf.seekEof()) finish(_pe, "output after the final answer");
    finish(_ok, format("%d games solved with %lld queries (budget %lld)", T, queries, query_limit));
}
