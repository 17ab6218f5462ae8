// Generator for capped-sum-token-game:
//   gen <seed> --mode non --type TYPE --games G --mmin A --mmax B --vmax V --want W
// One case on stdout: T, then per game "m S seed" and the m token values.
// Types: random (S a random 30..90 % of the sum), full (S >= the sum: pure parity),
//        none (every token exceeds S: nobody can move), dup (values from {1..3}*base),
//        tight (S close to the sum minus one value).
// want = first | second | any: keep redrawing S until the first player wins / loses.
#include "testlib.h"
#include <cstdio>
#include <string>
#include <vector>

static bool firstWins(const std::vector<long long>& v, long long S) {
    int m = (int)v.size(), full = 1 << m;
    std::vector<long long> sum(full, 0);
    std::vector<char> win(full, 0);
    for (int mask = 1; mask < full; mask++) sum[mask] = sum[mask & (mask - 1)] + v[__builtin_ctz(mask)];
    for (int mask = full - 1; mask >= 0; mask--) {
        if (sum[mask] > S) continue;
        char w = 0;
        for (int i = 0; i < m && !w; i++)
            if (!(mask >> i & 1) && sum[mask] + v[i] <= S && !win[mask | 1 << i]) w = 1;
        win[mask] = w;
    }
    return win[0];
}

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "non");
    std::string type = opt<std::string>("type", "random");
    int games = opt<int>("games", 3);
    int mmin = opt<int>("mmin", 1);
    int mmax = opt<int>("mmax", 20);
    long long vmax = opt<long long>("vmax", 100);
    std::string want = opt<std::string>("want", "any");
    ensuref(mode == "non", "capped-sum-token-game has only non-adaptive cases");
    ensuref(1 <= games && games <= 5 && 1 <= mmin && mmin <= mmax && mmax <= 20 && 1 <= vmax && vmax <= 1000000,
            "bad options");
    printf("%d\n", games);
    for (int g = 0; g < games; g++) {
        int m;
        std::vector<long long> v;
        long long S = 1;
        for (int attempt = 0;; attempt++) {
            m = rnd.next(mmin, mmax);
            v.assign(m, 0);
            long long base = rnd.next(1LL, std::max(1LL, vmax / 3));
            for (auto& x : v) x = type == "dup" ? base * rnd.next(1, 3) : rnd.next(1LL, vmax);
            long long tot = 0, mx = 0, mn = v[0];
            for (long long x : v) tot += x, mx = std::max(mx, x), mn = std::min(mn, x);
            if (type == "random" || type == "dup") S = std::max(1LL, tot * rnd.next(30, 90) / 100);
            else if (type == "full") S = tot + rnd.next(0LL, vmax);
            else if (type == "none") S = std::max(1LL, mn - 1 - (mn > 1 ? rnd.next(0LL, mn - 2) : 0));
            else if (type == "tight") S = std::max(1LL, tot - rnd.next(1LL, mx));
            else quitf(_fail, "unknown type %s", type.c_str());
            if (type == "none" && mn == 1) continue;  // cannot block every token
            bool fw = firstWins(v, S);
            if (want == "any" || (want == "first") == fw || attempt > 200) break;
        }
        printf("%d %lld %lld\n", m, S, rnd.next(0LL, 1000000000000000000LL));
        for (int i = 0; i < m; i++) printf("%lld%c", v[i], i + 1 == m ? '\n' : ' ');
    }
    return 0;
}
