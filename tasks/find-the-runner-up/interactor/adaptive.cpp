// Adaptive interactor for find-the-runner-up.
// Case: "n seed tie". Every player starts with weight 1. In a match between two players that
// never lost, the heavier one wins and absorbs the loser's weight (the classic adversary that
// forces n + ceil(log2 n) - 2 matches); a player that never lost beats one that did; between two
// players that both lost, an implied result is repeated, otherwise the tie rule decides.
// All results stay consistent: they are the edges of a DAG kept transitively closed.
// The answer k is accepted only if k is second in every ordering consistent with that DAG.
#include "testlib.h"
#include <bitset>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>
#include <cstdio>
#include <string>
#include <vector>

static const int MAXN = 1000;
static long long queries = 0, query_limit = 0;
static int n, tie_rule;
static std::vector<long long> weight;
static std::vector<std::bitset<MAXN + 1>> above, below;  // transitively known stronger / weaker

static void log_counts() {
    tout << "queries=" << queries << "\n" << "query_limit=" << query_limit << std::endl;
}

[[noreturn]] static void finish(TResult r, const std::string& msg) {
    log_counts();
    quitf(r, "%s", msg.c_str());
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
    if (!ok) finish(_pe, format("expected an integer %s, found \"%s\"", what, s.substr(0, 40).c_str()));
    return std::stoll(s);
}

static void record(int winner, int loser) {
    // Everything at or above the winner is now above everything at or below the loser.
    std::bitset<MAXN + 1> up = above[winner], down = below[loser];
    up.set(winner);
    down.set(loser);
    for (int v = 1; v <= n; v++) {
        if (down[v]) above[v] |= up;
        if (up[v]) below[v] |= down;
    }
}

static bool pick_first(int i, int j) {  // tie rule: true -> i wins
    if (tie_rule == 1) return i < j;
    if (tie_rule == 2) return i > j;
    return rnd.next(2) == 0;
}

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);  // a solver that already exited must not kill the interactor
    n = inf.readInt(2, MAXN, "n");
    int seed = inf.readInt(1, 1000000000, "seed");
    tie_rule = inf.readInt(0, 2, "tie");
    rnd.setSeed(seed);
    int ceil_log = 0;
    while ((1 << ceil_log) < n) ceil_log++;
    query_limit = n + ceil_log - 2;
    log_counts();  // before the first blocking read

    weight.assign(n + 1, 1);
    above.assign(n + 1, {});
    below.assign(n + 1, {});
    std::cout << n << " " << query_limit << std::endl;

    while (true) {
        std::string cmd = next_token();
        if (cmd == "?") {
            long long a = read_number("after '?'"), b = read_number("after '?'");
            if (a < 1 || a > n || b < 1 || b > n)
                finish(_pe, format("match %lld %lld: index outside [1, %d]", a, b, n));
            if (a == b) finish(_pe, format("match %lld %lld: a player cannot play itself", a, b));
            queries++;
            log_counts();
            int i = (int)a, j = (int)b;
            bool i_wins;
            if (above[j][i]) i_wins = true;        // already implied
            else if (above[i][j]) i_wins = false;  // already implied
            else if (weight[i] > 0 || weight[j] > 0)
                i_wins = weight[i] != weight[j] ? weight[i] > weight[j] : pick_first(i, j);
            else
                i_wins = pick_first(i, j);
            int w = i_wins ? i : j, l = i_wins ? j : i;
            if (weight[l] > 0 && weight[w] > 0) {
                weight[w] += weight[l];
                weight[l] = 0;
            } else {
                weight[l] = 0;
            }
            record(w, l);
            std::cout << (i_wins ? ">" : "<") << std::endl;
        } else if (cmd == "!") {
            long long k = read_number("after '!'");
            if (k < 1 || k > n) finish(_pe, format("answer %lld is outside [1, %d]", k, n));
            // Who can be second in some consistent ordering?
            int roots = 0;
            for (int v = 1; v <= n; v++) roots += above[v].none();
            std::vector<int> possible;
            for (int v = 1; v <= n; v++) {
                size_t c = above[v].count();
                if (c == 1 || (c == 0 && roots >= 2)) possible.push_back(v);
            }
            bool k_possible = false;
            for (int v : possible) k_possible = k_possible || v == k;
            if (!k_possible)
                finish(_wa, format("player %lld cannot be the runner-up given the results", k));
            if (possible.size() > 1)
                finish(_wa, format("answer %lld is not proved: %d players can still be second (e.g. %d)",
                                   k, (int)possible.size(), possible[0] == k ? possible[1] : possible[0]));
            // Correct: close the solver's input and make sure nothing follows the answer.
            close_solver_input();
            if (!ouf.seekEof()) finish(_pe, "output after the final answer");
            finish(_ok, format("runner-up %lld found with %lld matches (limit %lld)", k, queries, query_limit));
        } else {
            finish(_pe, format("expected '?' or '!', found \"%s\"", cmd.substr(0, 40).c_str()));
        }
    }
}
