// Interactor for missing-number-bit-probe (non-adaptive, T games per run, -1 on budget).
// Case: T, then per game a line "n" and a line with the n hidden values A[1..n]: the integers
// 0..n without one of them. Budget: 2n queries per game ("? i j" = bit j of A[i]).
#include "testlib.h"
#include <fcntl.h>
#include <unistd.h>
#include <csignal>
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

static std::string next_token() {
    if (ouf.seekEof()) reject(_pe, "unexpected end of the solver's output");
    return ouf.readToken();
}

// A decimal integer without '+', leading zeros or "-0"; anything else is a format error.
static long long read_number(const char* what) {
    std::string s = next_token();
    bool ok = !s.empty() && s.size() <= 18;
    size_t start = (ok && s[0] == '-') ? 1 : 0;
    if (start == s.size()) ok = false;
    for (size_t i = start; ok && i < s.size(); i++) ok = s[i] >= '0' && s[i] <= '9';
    if (ok && s.size() - start > 1 && s[start] == '0') ok = false;
    if (ok && s == "-0") ok = false;
    if (!ok) reject(_pe, format("expected an integer %s, found \"%s\"", what, s.substr(0, 40).c_str()));
    return std::stoll(s);
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
    signal(SIGPIPE, SIG_IGN);  // a solver that already exited must not kill the interactor
    int T = inf.readInt(1, 100, "T");
    std::vector<std::vector<int>> A(T);
    std::vector<int> missing(T);
    long long total_n = 0;
    for (int g = 0; g < T; g++) {
        int n = inf.readInt(1, 5000, "n");
        A[g] = inf.readInts(n, 0, n);
        std::vector<char> seen(n + 1, 0);
        for (int v : A[g]) {
            ensuref(!seen[v], "game %d: value %d repeated", g + 1, v);
            seen[v] = 1;
        }
        for (int v = 0; v <= n; v++)
            if (!seen[v]) missing[g] = v;
        query_limit += 2LL * n;
        total_n += n;
    }
    ensuref(total_n <= 10000, "total n too large");
    log_counts();  // before the first blocking read

    std::cout << T << std::endl;
    long long used_before = 0;  // queries used by the games already finished
    for (int g = 0; g < T; g++) {
        const int n = (int)A[g].size();
        const long long budget = 2LL * n;
        std::cout << n << std::endl;
        while (true) {
            std::string cmd = next_token();
            if (cmd == "?") {
                long long i = read_number("index after '?'");
                long long j = read_number("bit after '?'");
                if (i < 1 || i > n)
                    reject(_pe, format("game %d: index %lld is outside [1, %d]", g + 1, i, n));
                if (j < 0 || j > 29)
                    reject(_pe, format("game %d: bit %lld is outside [0, 29]", g + 1, j));
                queries++;
                if (queries - used_before > budget) {
                    // Per-game budget: the limit in force now is what the earlier games used
                    // plus this game's allowance, so the logged figures read as an overrun.
                    query_limit = used_before + budget;
                    reject(_wa, format("game %d: more than 2n = %lld queries", g + 1, budget));
                }
                log_counts();
                std::cout << ((A[g][i - 1] >> j) & 1) << std::endl;
            } else if (cmd == "!") {
                long long y = read_number("after '!'");
                if (y < 0 || y > n)
                    reject(_pe, format("game %d: answer %lld is outside [0, %d]", g + 1, y, n));
                if (y != missing[g])
                    reject(_wa, format("game %d: answered %lld, the missing number is %d", g + 1, y, missing[g]));
                break;
            } else {
                reject(_pe, format("game %d: expected '?' or '!', found \"%s\"", g + 1, cmd.substr(0, 40).c_str()));
            }
        }
        used_before = queries;
    }
    // The run is over: close the solver's input so a solver still reading sees EOF, then make
    // sure it printed nothing after its last answer (deterministic, whatever the timing).
    close_solver_input();
    if (!ouf.seekEof()) finish(_pe, "output after the final answer");
    finish(_ok, format("%d games solved with %lld queries (budget 2n per game, %lld in all)", T, queries, query_limit));
}
