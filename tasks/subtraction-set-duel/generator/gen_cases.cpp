// Generator for subtraction-set-duel: gen <seed> [--mode non] [--type T] [--games G] [--nmax N] [--smax M]
// Prints T, then per game "n k s_1 .. s_k seed".
// Types: random (any n), losing (n is a loss for the first player), winning (a win for the
// first player), mixed (half losing, half winning), tiny (n <= 5, often n < s_1),
// long (s_1 = 1, n near nmax: long games), classic (S = {1..k}).
#include "testlib.h"
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

static std::vector<int> random_set(int smax, bool with_one) {
    int k = rnd.next(1, std::min(10, smax));
    std::vector<int> s;
    if (with_one) s.push_back(1);
    while ((int)s.size() < k) {
        int v = rnd.next(1, smax);
        if (std::find(s.begin(), s.end(), v) == s.end()) s.push_back(v);
    }
    std::sort(s.begin(), s.end());
    return s;
}

static std::vector<char> win_table(const std::vector<int>& s, int nmax) {
    std::vector<char> win(nmax + 1, 0);
    for (int p = 0; p <= nmax; p++)
        for (int x : s)
            if (x <= p && !win[p - x]) win[p] = 1;
    return win;
}

// A pile size in [lo, nmax] whose status is `want` (1 = first player wins); -1 if none.
static int pick(const std::vector<char>& win, int lo, int nmax, int want) {
    std::vector<int> c;
    for (int p = std::max(1, lo); p <= nmax; p++)
        if (win[p] == want) c.push_back(p);
    if (c.empty()) return -1;
    return c[rnd.next((int)c.size())];
}

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "non");
    std::string type = opt<std::string>("type", "mixed");
    int games = opt<int>("games", 10);
    int nmax = opt<int>("nmax", 1000);
    int smax = opt<int>("smax", 30);
    ensuref(mode == "non", "subtraction-set-duel has only non-adaptive cases");
    ensuref(1 <= games && games <= 30 && 1 <= nmax && nmax <= 1000 && 1 <= smax && smax <= 30, "bad options");

    printf("%d\n", games);
    for (int g = 0; g < games; g++) {
        std::vector<int> s;
        int n = -1;
        for (int attempt = 0; n < 0; attempt++) {
            ensuref(attempt < 1000, "cannot build a game");
            if (type == "classic") {
                int k = rnd.next(1, std::min(10, smax));
                s.clear();
                for (int i = 1; i <= k; i++) s.push_back(i);
            } else {
                s = random_set(smax, type == "long");
            }
            std::vector<char> win = win_table(s, nmax);
            if (type == "random" || type == "classic") n = rnd.next(1, nmax);
            else if (type == "losing") n = pick(win, nmax / 2, nmax, 0);
            else if (type == "winning") n = pick(win, nmax / 2, nmax, 1);
            else if (type == "mixed") n = pick(win, 1, nmax, g % 2);
            else if (type == "tiny") n = rnd.next(1, std::min(nmax, 5));
            else if (type == "long") n = pick(win, std::max(1, nmax - 50), nmax, rnd.next(2));
            else quitf(_fail, "unknown type %s", type.c_str());
        }
        printf("%d %d", n, (int)s.size());
        for (int v : s) printf(" %d", v);
        printf(" %lld\n", rnd.next(0LL, 1000000000000000000LL));
    }
    return 0;
}
