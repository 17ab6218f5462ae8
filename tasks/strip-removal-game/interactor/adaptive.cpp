// Adaptive interactor for strip-removal-game (T games per run).
// Case: "T seed", then per game: "N k", the board (a string of N characters, '1' = cell present,
// '0' = removed) and the k allowed block lengths. The interactor is the solver's opponent:
//  - from a position that is winning for it (nonzero nim-sum on its turn) it plays a winning move;
//  - from a losing position it samples up to 12 legal moves and plays the one after which the
//    solver has the fewest winning replies (ties broken by a seeded generator).
// queries = number of moves the solver made; query_limit = total number of initially present
// cells (no run can exceed it: every move removes at least one cell).
#include "testlib.h"
#include <algorithm>
#include <csignal>
#include <cstdint>
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

// Tell the solver the run is over (-1) and stop with the given verdict.
[[noreturn]] static void reject(TResult r, const std::string& msg) {
    std::cout << -1 << std::endl;
    finish(r, msg);
}

static std::string next_token() {
    if (ouf.seekEof()) reject(_pe, "unexpected end of the solver's output");
    return ouf.readToken();
}

// A plain decimal integer (optional '-', no leading zeros); anything else is a format error.
static long long read_number(const char* what) {
    std::string s = next_token();
    bool ok = !s.empty() && s.size() <= 18;
    size_t start = (ok && s[0] == '-') ? 1 : 0;
    if (start == s.size()) ok = false;
    for (size_t i = start; ok && i < s.size(); i++) ok = s[i] >= '0' && s[i] <= '9';
    if (ok && s.size() - start > 1 && s[start] == '0') ok = false;
    if (!ok) reject(_pe, format("expected an integer %s, found \"%s\"", what, s.substr(0, 40).c_str()));
    return std::stoll(s);
}

static uint64_t rng_state;
static uint64_t next_rand() {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

struct Game {
    int n;
    std::string board;  // 1-based view: board[i - 1]
    std::vector<int> S;
};

struct Move {
    int l, r;
};

static std::vector<int> G;     // Grundy value of a strip of each length
static std::vector<int> seen;  // mex scratch

static void grundy(int n, const std::vector<int>& S) {
    G.assign(n + 1, 0);
    int cap = 1;  // every Grundy value so far is < cap (a power of two), so every XOR is too
    seen.assign(2, -1);
    for (int L = 1; L <= n; L++) {
        if ((int)seen.size() < 2 * cap) seen.resize(2 * cap, -1);
        for (int s : S)
            for (int i = 0; i + s <= L; i++) seen[G[i] ^ G[L - s - i]] = L;
        int mex = 0;
        while (mex < (int)seen.size() && seen[mex] == L) mex++;
        G[L] = mex;
        while (cap <= mex) cap *= 2;
    }
}

// Maximal strips of present cells: (start, length), 1-based start.
static std::vector<std::pair<int, int>> strips(const std::string& b) {
    std::vector<std::pair<int, int>> out;
    int n = (int)b.size();
    for (int i = 0; i < n;) {
        if (b[i] == '0') { i++; continue; }
        int j = i;
        while (j < n && b[j] == '1') j++;
        out.push_back({i + 1, j - i});
        i = j;
    }
    return out;
}

static int nim_sum(const std::string& b) {
    int x = 0;
    for (auto& st : strips(b)) x ^= G[st.second];
    return x;
}

static std::vector<Move> legal_moves(const std::string& b, const std::vector<int>& S) {
    std::vector<Move> mv;
    for (auto& st : strips(b))
        for (int s : S)
            for (int i = 0; i + s <= st.second; i++) mv.push_back({st.first + i, st.first + i + s - 1});
    return mv;
}

// Number of moves from b that leave nim-sum 0 (winning moves for the player to move).
static long long winning_moves(const std::string& b, const std::vector<int>& S) {
    auto st = strips(b);
    int x = 0;
    for (auto& p : st) x ^= G[p.second];
    if (x == 0) return 0;
    long long cnt = 0;
    for (auto& p : st) {
        int L = p.second, t = x ^ G[L];
        for (int s : S)
            for (int i = 0; i + s <= L; i++)
                if ((G[i] ^ G[L - s - i]) == t) cnt++;
    }
    return cnt;
}

static void apply_move(std::string& b, const Move& m) {
    for (int i = m.l; i <= m.r; i++) b[i - 1] = '0';
}

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);  // a solver that already exited must not turn a verdict into a crash
    int T = inf.readInt(1, 50, "T");
    rng_state = (uint64_t)inf.readLong(0, 1000000000000000000LL, "seed");
    std::vector<Game> games(T);
    long long sum_n = 0;
    for (int g = 0; g < T; g++) {
        Game& gm = games[g];
        gm.n = inf.readInt(1, 2000, "N");
        int k = inf.readInt(1, 6, "k");
        gm.board = inf.readToken();
        ensuref((int)gm.board.size() == gm.n, "board length");
        for (char c : gm.board) ensuref(c == '0' || c == '1', "board characters");
        for (int i = 0; i < k; i++) gm.S.push_back(inf.readInt(1, 20, "s"));
        for (int i = 1; i < k; i++) ensuref(gm.S[i - 1] < gm.S[i], "lengths must be increasing");
        sum_n += gm.n;
        query_limit += std::count(gm.board.begin(), gm.board.end(), '1');
    }
    ensuref(sum_n <= 6000, "sum of N exceeds 6000");
    log_counts();  // before the first blocking read

    std::cout << T << std::endl;
    for (int g = 0; g < T; g++) {
        Game& gm = games[g];
        grundy(gm.n, gm.S);
        std::cout << gm.n << " " << gm.S.size() << "\n" << gm.board << "\n";
        for (size_t i = 0; i < gm.S.size(); i++) std::cout << gm.S[i] << (i + 1 < gm.S.size() ? " " : "\n");
        std::cout.flush();
        std::string side = next_token();
        if (side != "First" && side != "Second")
            reject(_pe, format("game %d: expected \"First\" or \"Second\", found \"%s\"", g + 1, side.substr(0, 40).c_str()));
        std::string& b = gm.board;
        bool solver_to_move = side == "First";
        while (true) {
            if (solver_to_move) {
                if (legal_moves(b, gm.S).empty())
                    reject(_wa, format("game %d: you have no legal move and lose", g + 1));
                long long l = read_number("l"), r = read_number("r");
                if (l < 1 || r > gm.n || l > r)
                    reject(_pe, format("game %d: move (%lld, %lld) is not within 1 <= l <= r <= %d", g + 1, l, r, gm.n));
                queries++;
                if (queries % 64 == 0) log_counts();
                int len = (int)(r - l + 1);
                if (std::find(gm.S.begin(), gm.S.end(), len) == gm.S.end())
                    reject(_wa, format("game %d: illegal move (%lld, %lld): length %d is not allowed", g + 1, l, r, len));
                for (long long i = l; i <= r; i++)
                    if (b[i - 1] != '1')
                        reject(_wa, format("game %d: illegal move (%lld, %lld): cell %lld is already removed", g + 1, l, r, i));
                apply_move(b, {(int)l, (int)r});
                solver_to_move = false;
            } else {
                std::vector<Move> mv = legal_moves(b, gm.S);
                if (mv.empty()) {  // the interactor cannot move: the solver wins this game
                    std::cout << "0 0" << std::endl;
                    break;
                }
                Move pick = mv[0];
                int x = nim_sum(b);
                if (x != 0) {  // winning for the interactor: take a random winning move
                    std::vector<Move> win;
                    for (auto& st : strips(b)) {
                        int L = st.second, t = x ^ G[L];
                        for (int s : gm.S)
                            for (int i = 0; i + s <= L; i++)
                                if ((G[i] ^ G[L - s - i]) == t) win.push_back({st.first + i, st.first + i + s - 1});
                    }
                    ensuref(!win.empty(), "a nonzero nim-sum must have a winning move");
                    pick = win[next_rand() % win.size()];
                } else {  // losing: make the solver's task as narrow as possible
                    long long best = -1;
                    int samples = (int)std::min<size_t>(12, mv.size());
                    for (int t = 0; t < samples; t++) {
                        const Move& m = mv[next_rand() % mv.size()];
                        std::string c = b;
                        apply_move(c, m);
                        long long w = winning_moves(c, gm.S);
                        if (best < 0 || w < best) best = w, pick = m;
                    }
                }
                apply_move(b, pick);
                std::cout << pick.l << " " << pick.r << std::endl;
                solver_to_move = true;
            }
        }
    }
    // Close the solver's input, then require that it printed nothing after the last game.
    std::cout.flush();
    fclose(stdout);
    if (!ouf.seekEof()) finish(_pe, "output after the final game");
    finish(_ok, format("%d games won with %lld moves", T, queries));
}
