// Interactor for capped-sum-token-game (non-adaptive, T games per run).
// Case: T, then per game a line "m S seed" and a line with the m token values.
// Rules: players alternately take one unused token; the running total (start 0) must stay
// <= S; a player with no legal move loses. The solver picks First/Second. The interactor plays
// perfectly when it can win (a winning move chosen by a seeded SplitMix64) and a seeded random
// legal move otherwise, so its play is a fixed function of the case and the solver's moves.
// "queries" counts the solver's moves; the limit (sum of m) can never be exceeded.
#include "testlib.h"
#include <fcntl.h>
#include <unistd.h>
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
};

struct Game {
    int m;
    long long S;
    long long seed;
    std::vector<long long> v;
};

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
    int T = inf.readInt(1, 5, "T");
    std::vector<Game> games(T);
    for (auto& g : games) {
        g.m = inf.readInt(1, 20, "m");
        g.S = inf.readLong(1, 1000000000LL, "S");
        g.seed = inf.readLong(0, 1000000000000000000LL, "seed");
        g.v.resize(g.m);
        for (auto& x : g.v) x = inf.readLong(1, 1000000, "v");
        query_limit += g.m;
    }
    log_counts();

    std::cout << T << std::endl;
    std::vector<long long> sum;
    std::vector<char> win;
    for (int gi = 0; gi < T; gi++) {
        const Game& g = games[gi];
        const int m = g.m;
        const int full = 1 << m;
        // win[mask]: the player to move wins when the tokens in mask are taken.
        sum.assign(full, 0);
        win.assign(full, 0);
        for (int mask = 1; mask < full; mask++) sum[mask] = sum[mask & (mask - 1)] + g.v[__builtin_ctz(mask)];
        for (int mask = full - 1; mask >= 0; mask--) {
            if (sum[mask] > g.S) continue;
            char w = 0;
            for (int i = 0; i < m && !w; i++)
                if (!(mask >> i & 1) && sum[mask] + g.v[i] <= g.S && !win[mask | 1 << i]) w = 1;
            win[mask] = w;
        }
        SplitMix rng{(uint64_t)g.seed};
        auto legal = [&](int mask) {
            std::vector<int> out;
            for (int i = 0; i < m; i++)
                if (!(mask >> i & 1) && sum[mask] + g.v[i] <= g.S) out.push_back(i);
            return out;
        };
        std::cout << m << " " << g.S << "\n";
        for (int i = 0; i < m; i++) std::cout << g.v[i] << (i + 1 == m ? '\n' : ' ');
        std::cout.flush();
        std::string side = next_token();
        if (side != "First" && side != "Second")
            finish(_pe, format("game %d: expected First or Second, found \"%s\"", gi + 1, side.substr(0, 40).c_str()));
        int mask = 0;
        bool solverTurn = side == "First";
        while (true) {
            std::vector<int> moves = legal(mask);
            if (solverTurn) {
                if (moves.empty())
                    finish(_wa, format("game %d: you have no legal move (total %lld, cap %lld): you lost",
                                       gi + 1, sum[mask], g.S));
                long long i = read_number("token index");
                if (i < 1 || i > m) finish(_pe, format("game %d: token %lld is outside [1, %d]", gi + 1, i, m));
                queries++;
                log_counts();
                int t = (int)i - 1;
                if (mask >> t & 1) finish(_wa, format("game %d: token %lld was already taken", gi + 1, i));
                if (sum[mask] + g.v[t] > g.S)
                    finish(_wa, format("game %d: taking token %lld (value %lld) makes the total %lld > %lld",
                                       gi + 1, i, g.v[t], sum[mask] + g.v[t], g.S));
                mask |= 1 << t;
            } else {
                if (moves.empty()) {
                    std::cout << 0 << std::endl;  // the interactor cannot move: the solver won
                    break;
                }
                std::vector<int> good;
                for (int t : moves)
                    if (!win[mask | 1 << t]) good.push_back(t);
                const std::vector<int>& pool = good.empty() ? moves : good;
                int t = pool[rng.next() % pool.size()];
                mask |= 1 << t;
                std::cout << t + 1 << std::endl;
            }
            solverTurn = !solverTurn;
        }
    }
    close_solver_input();
    if (!ouf.seekEof()) finish(_pe, "output after the final answer");
    finish(_ok, format("won all %d games (%lld moves)", T, queries));
}
