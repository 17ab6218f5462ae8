// Generator for strip-removal-game (adaptive cases only):
//   gen <seed> [--mode adp] [--games G] [--nmin A] [--nmax B] [--board TYPE] [--lengths LT] [--target TG]
// Prints "T seed" (the interactor's tie-breaking seed), then per game "N k", the board and the k
// allowed lengths.
// board: full (one strip), holes (random holes, density 1/8), sparse (density 1/3), blocks (a few
//   long strips), mixed.
// lengths: one ({1}), two ({2}), kayles ({1, 2}), pair (two random lengths <= 5), small (random
//   subset of 1..6), wide (random subset of 1..20), mixed.  (k <= 6 in every case.)
// target: zero (nim-sum 0: the solver must move second), nonzero, any.
#include "testlib.h"
#include <algorithm>
#include <string>
#include <vector>

static std::vector<int> grundy(int n, const std::vector<int>& S) {
    std::vector<int> G(n + 1, 0), seen;
    int cap = 1;
    for (int L = 1; L <= n; L++) {
        if ((int)seen.size() < 2 * cap) seen.resize(2 * cap, -1);
        for (int s : S)
            for (int i = 0; i + s <= L; i++) seen[G[i] ^ G[L - s - i]] = L;
        int mex = 0;
        while (mex < (int)seen.size() && seen[mex] == L) mex++;
        G[L] = mex;
        while (cap <= mex) cap *= 2;
    }
    return G;
}

static std::vector<int> lengths(const std::string& t) {
    std::vector<int> S;
    if (t == "one") S = {1};
    else if (t == "two") S = {2};
    else if (t == "kayles") S = {1, 2};
    else if (t == "pair") {
        int a = rnd.next(1, 5), b = rnd.next(1, 5);
        while (b == a) b = rnd.next(1, 5);
        S = {a, b};
    } else if (t == "small" || t == "wide") {
        int hi = t == "small" ? 6 : 20;
        int k = rnd.next(1, 6);
        std::vector<int> all;
        for (int i = 1; i <= hi; i++) all.push_back(i);
        shuffle(all.begin(), all.end());
        S.assign(all.begin(), all.begin() + std::min(k, hi));
    } else {
        ensuref(false, "unknown lengths %s", t.c_str());
    }
    std::sort(S.begin(), S.end());
    return S;
}

static std::string board(const std::string& t, int n) {
    std::string b(n, '1');
    if (t == "holes" || t == "sparse") {
        int den = t == "holes" ? 8 : 3;
        for (int i = 0; i < n; i++)
            if (rnd.next(den) == 0) b[i] = '0';
    } else if (t == "blocks") {
        int cuts = rnd.next(1, 4);
        for (int c = 0; c < cuts; c++) b[rnd.next(n)] = '0';
    } else if (t != "full") {
        ensuref(false, "unknown board %s", t.c_str());
    }
    return b;
}

static int nim_sum(const std::string& b, const std::vector<int>& G) {
    int x = 0, run = 0;
    for (size_t i = 0; i <= b.size(); i++) {
        if (i < b.size() && b[i] == '1') run++;
        else x ^= G[run], run = 0;
    }
    return x;
}

// Make the nim-sum zero by shortening one strip (turning its last cells into holes), if possible.
static bool force_zero(std::string& b, const std::vector<int>& G) {
    int x = nim_sum(b, G);
    if (x == 0) return true;
    int n = (int)b.size();
    std::vector<std::pair<int, int>> st;
    for (int i = 0; i < n;) {
        if (b[i] == '0') { i++; continue; }
        int j = i;
        while (j < n && b[j] == '1') j++;
        st.push_back({i, j - i});
        i = j;
    }
    shuffle(st.begin(), st.end());
    for (auto& p : st) {
        int L = p.second, want = x ^ G[L];
        for (int L2 = L - 1; L2 >= 0; L2--)
            if (G[L2] == want) {
                for (int i = p.first + L2; i < p.first + L; i++) b[i] = '0';
                return true;
            }
    }
    return false;
}

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "adp");
    int games = opt<int>("games", 1);
    int nmin = opt<int>("nmin", 1), nmax = opt<int>("nmax", 2000);
    std::string bt = opt<std::string>("board", "mixed");
    std::string lt = opt<std::string>("lengths", "mixed");
    std::string tg = opt<std::string>("target", "any");
    ensuref(mode == "adp", "only adaptive cases");
    ensuref(1 <= games && games <= 50 && 1 <= nmin && nmin <= nmax && nmax <= 2000 && (long long)games * nmax <= 6000,
            "bad options");
    const char* boards[] = {"full", "holes", "sparse", "blocks"};
    const char* lts[] = {"one", "two", "kayles", "pair", "small", "wide"};
    printf("%d %lld\n", games, rnd.next(0LL, 1000000000000000000LL));
    for (int g = 0; g < games; g++) {
        int n = rnd.next(nmin, nmax);
        std::string b, ltype = lt == "mixed" ? lts[rnd.next(6)] : lt;
        std::vector<int> S = lengths(ltype);
        std::vector<int> G = grundy(n, S);
        std::string target = tg == "any" ? (rnd.next(2) ? "zero" : "nonzero") : tg;
        for (int attempt = 0;; attempt++) {
            ensuref(attempt < 1000, "could not reach the target nim-sum");
            b = board(bt == "mixed" ? boards[rnd.next(4)] : bt, n);
            if (target == "zero") {
                if (force_zero(b, G)) break;
            } else if (nim_sum(b, G) != 0 || attempt >= 200) {  // some tiny games have no nonzero board
                break;
            }
        }
        printf("%d %d\n%s\n", n, (int)S.size(), b.c_str());
        for (size_t i = 0; i < S.size(); i++) printf("%d%c", S[i], i + 1 < S.size() ? ' ' : '\n');
    }
    return 0;
}
