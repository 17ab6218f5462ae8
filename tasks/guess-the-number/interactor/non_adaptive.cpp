// Interactor for guess-the-number (non-adaptive, T games per run).
// Case: T, then T lines "n x". Budget Q = sum(floor(log2 n) + 1), shared by all games.
#include "testlib.h"
#include <csignal>
#include <fcntl.h>
#include <unistd.h>
#include <cstdio>
#include <string>
#include <vector>

static long long queries = 0, query_limit = 0;

static void log_counts() {
    tout << "queries=" << queries << "\n" << "query_limit=" << query_limit << std::endl;
}

// Every verdict goes through here so tout always ends with the final figures.
[[noreturn]] static void finish(TResult r, const std::string& msg) {
    log_counts();
    quitf(r, "%s", msg.c_str());
}

// Tell the solver the run is over (-1) and stop with the given verdict.
[[noreturn]] static void reject(TResult r, const std::string& msg) {
    std::cout << -1 << std::endl;
    finish(r, msg);
}

// End of the run: flush, then point fd 1 at /dev/null so the solver's stdin reaches EOF (a
// solver still reading exits instead of blocking) while later writes stay harmless.
static void close_solver_input() {
    std::cout.flush();
    std::fflush(stdout);
    int fd = open("/dev/null", O_WRONLY);
    if (fd >= 0) {
        dup2(fd, 1);
        close(fd);
    } else {
        close(1);
    }
}

static std::string next_token() {
    if (ouf.seekEof()) reject(_pe, "unexpected end of the solver's output");
    return ouf.readToken();
}

// A decimal integer without sign tricks or leading zeros; anything else is a format error.
static long long read_number(const char* what) {
    std::string s = next_token();
    bool ok = !s.empty() && s.size() <= 18;
    size_t start = (ok && s[0] == '-') ? 1 : 0;
    if (start == s.size()) ok = false;
    for (size_t i = start; ok && i < s.size(); i++) ok = s[i] >= '0' && s[i] <= '9';
    if (ok && s.size() - start > 1 && s[start] == '0') ok = false;
    if (!ok) reject(_pe, format("expected an integer %s, found \"%s\"", what, s.c_str()));
    return std::stoll(s);
}

static int floor_log2(long long n) {
    int k = 0;
    while ((2LL << k) <= n) k++;
    return k;
}

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);  // a solver that already exited must not kill the interactor
    int T = inf.readInt(1, 100, "T");
    std::vector<long long> n(T), x(T);
    for (int i = 0; i < T; i++) {
        n[i] = inf.readLong(1, 1000000000LL, "n");
        x[i] = inf.readLong(1, n[i], "x");
        query_limit += floor_log2(n[i]) + 1;
    }
    log_counts();  // before the first blocking read

    std::cout << T << " " << query_limit << std::endl;
    for (int g = 0; g < T; g++) {
        std::cout << n[g] << std::endl;
        while (true) {
            std::string cmd = next_token();
            if (cmd == "?") {
                long long y = read_number("after '?'");
                if (y < 1 || y > n[g])
                    reject(_pe, format("game %d: query %lld is outside [1, %lld]", g + 1, y, n[g]));
                queries++;
                log_counts();
                if (queries > query_limit)
                    reject(_wa, format("query budget of %lld exceeded", query_limit));
                std::cout << (x[g] < y ? "<" : x[g] > y ? ">" : "=") << std::endl;
            } else if (cmd == "!") {
                long long y = read_number("after '!'");
                if (y < 1 || y > n[g])
                    reject(_pe, format("game %d: answer %lld is outside [1, %lld]", g + 1, y, n[g]));
                if (y != x[g])
                    reject(_wa, format("game %d: answered %lld, hidden number is %lld", g + 1, y, x[g]));
                break;
            } else {
                reject(_pe, format("game %d: expected '?' or '!', found \"%s\"", g + 1,
                                   cmd.substr(0, 40).c_str()));
            }
        }
    }
    // The run is over: close the solver's input so a solver still reading sees EOF, then make
    // sure it printed nothing after its last answer (deterministic, whatever the timing).
    close_solver_input();
    if (!ouf.seekEof()) finish(_pe, "output after the final answer");
    finish(_ok, format("%d games solved with %lld queries (budget %lld)", T, queries, query_limit));
}
