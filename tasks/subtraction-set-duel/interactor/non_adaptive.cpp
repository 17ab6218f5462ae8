// Interactor for subtraction-set-duel (non-adaptive, T games per run).
// Case: T, then per game one line "n k s_1 .. s_k seed". The interactor's play is fixed by the
// case: from a winning position it plays a winning move, otherwise any legal move; ties are
// broken by a PRNG seeded from the case, so a run is fully reproducible.
// queries = moves made by the solver; query_limit = sum of n (a game never lasts longer).
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

static std::string shorten(const std::string& s) { return s.size() <= 40 ? s : s.substr(0, 40) + "..."; }

static std::string next_token() {
    if (ouf.seekEof()) finish(_pe, "unexpected end of the solver's output");
    return ouf.readToken();
}

static long long read_number(const char* what) {
    std::string s = next_token();
    size_t start = (!s.empty() && s[0] == '-') ? 1 : 0;
    bool ok = start < s.size() && s.size() - start <= 18;
    for (size_t i = start; ok && i < s.size(); i++) ok = s[i] >= '0' && s[i] <= '9';
    if (ok && s.size() - start > 1 && s[start] == '0') ok = false;
    if (ok && s == "-0") ok = false;
    if (!ok) finish(_pe, format("expected an integer %s, found \"%s\"", what, shorten(s).c_str()));
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

struct Game {
    int n, k;
    std::vector<int> s;
    unsigned long long seed;
};

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);  // a solver that already exited must not kill the interactor
    int T = inf.readInt(1, 30, "T");
    std::vector<Game> games(T);
    for (auto& g : games) {
        g.n = inf.readInt(1, 1000, "n");
        g.k = inf.readInt(1, 10, "k");
        g.s.resize(g.k);
        for (int i = 0; i < g.k; i++) {
            g.s[i] = inf.readInt(1, 30, "s_i");
            ensuref(i == 0 || g.s[i] > g.s[i - 1], "S must be strictly increasing");
        }
        g.seed = (unsigned long long)inf.readLong(0, 1000000000000000000LL, "seed");
        query_limit += g.n;
    }
    log_counts();  // before the first blocking read

    std::cout << T << std::endl;
    for (int gi = 0; gi < T; gi++) {
        const Game& g = games[gi];
        // win[p]: the player to move with p stones can force a win.
        std::vector<char> win(g.n + 1, 0);
        for (int p = 0; p <= g.n; p++)
            for (int x : g.s)
                if (x <= p && !win[p - x]) win[p] = 1;
        Rng rng{g.seed};

        std::cout << g.n << " " << g.k << "\n";
        for (int i = 0; i < g.k; i++) std::cout << g.s[i] << (i + 1 < g.k ? " " : "\n");
        std::cout.flush();

        std::string side = next_token();
        if (side != "First" && side != "Second")
            finish(_pe, format("game %d: expected First or Second, found \"%s\"", gi + 1, shorten(side).c_str()));
        bool solver_turn = side == "First";
        int pile = g.n;
        while (true) {
            if (solver_turn) {
                if (pile < g.s[0])
                    finish(_wa, format("game %d: you have no legal move with %d stones left and lose", gi + 1, pile));
                long long x = read_number("(your move)");
                queries++;
                bool in_set = false;
                for (int v : g.s) in_set |= v == x;
                if (!in_set)
                    finish(_wa, format("game %d: illegal move %lld, not an element of S", gi + 1, x));
                if (x > pile)
                    finish(_wa, format("game %d: illegal move %lld with only %d stones left", gi + 1, x, pile));
                pile -= (int)x;
                solver_turn = false;
            } else {
                std::vector<int> legal, winning;
                for (int v : g.s)
                    if (v <= pile) {
                        legal.push_back(v);
                        if (!win[pile - v]) winning.push_back(v);
                    }
                if (legal.empty()) {
                    std::cout << 0 << std::endl;  // the solver won this game
                    break;
                }
                const std::vector<int>& pool = winning.empty() ? legal : winning;
                int y = pool[rng.below((int)pool.size())];
                pile -= y;
                std::cout << y << std::endl;
                if (pile < g.s[0]) {
                    log_counts();
                    finish(_wa, format("game %d: the interactor took %d and left you %d stones with no legal move; you lose",
                                       gi + 1, y, pile));
                }
                solver_turn = true;
            }
        }
        log_counts();
    }
    std::cout.flush();
    fflush(stdout);
    close(1);  // the solver's input ends here: a solver still reading sees EOF
    // Anything the solver printed after its last answer is detected deterministically.
    if (!ouf.seekEof()) finish(_pe, "output after the final game");
    finish(_ok, format("all %d games won (%lld moves)", T, queries));
}
