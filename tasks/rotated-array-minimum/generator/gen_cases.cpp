// Generator for rotated-array-minimum: gen <seed> [--mode non] [--type T] [--games G] [--nmax N]
// Prints T, then per game "n m c base seed" (see interactor/non_adaptive.cpp for the values).
// Types: allsmall (every (n, m) with n = 1..nmax, in random order; needs sum n <= 100),
//        random (log-uniform n <= nmax, random m), max (n = nmax), sorted (m = 1),
//        last (m = n), edges (m in {1, 2, n-1, n}, n near powers of two), dense (c = 1),
//        mixed (a bit of everything).
#include "testlib.h"
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

struct G { long long n, m, c, base, seed; };

static long long log_uniform(long long nmax) {
    int bits = 0;
    while ((1LL << (bits + 1)) <= nmax) bits++;
    int b = rnd.next(0, bits);
    long long lo = 1LL << b, hi = std::min(nmax, (2LL << b) - 1);
    return rnd.next(lo, hi);
}

static G make(long long n, long long m, bool dense) {
    G g;
    g.n = n;
    g.m = m;
    g.base = rnd.next(1LL, 1000000000LL);
    long long cmax = std::min(100000000LL, (1000000000000000000LL - g.base) / n);
    g.c = dense ? 1 : rnd.next(1LL, cmax);
    g.seed = rnd.next(0LL, 1000000000000000000LL);
    return g;
}

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "non");
    std::string type = opt<std::string>("type", "random");
    int games = opt<int>("games", 10);
    long long nmax = opt<long long>("nmax", 1000000000LL);
    ensuref(mode == "non", "rotated-array-minimum has only non-adaptive cases");
    ensuref(1 <= games && games <= 100 && 1 <= nmax && nmax <= 1000000000LL, "bad options");

    std::vector<G> out;
    if (type == "allsmall") {
        for (long long n = 1; n <= nmax; n++)
            for (long long m = 1; m <= n; m++) out.push_back(make(n, m, rnd.next(2) == 0));
        ensuref(out.size() <= 100, "allsmall: too many games");
        rnd.shuffle(out.begin(), out.end());
    } else {
        for (int k = 0; k < games; k++) {
            long long n;
            if (type == "max") n = nmax;
            else if (type == "edges") {
                int b = rnd.next(0, 29);
                long long p = 1LL << b;
                long long cand[3] = {p - 1, p, p + 1};
                n = std::max(1LL, std::min(nmax, cand[rnd.next(3)]));
            } else if (type == "mixed") {
                int t = rnd.next(3);
                n = t == 0 ? rnd.next(1LL, std::min(nmax, 20LL)) : t == 1 ? nmax : log_uniform(nmax);
            } else n = log_uniform(nmax);
            long long m;
            if (type == "sorted") m = 1;
            else if (type == "last") m = n;
            else if (type == "edges") {
                long long cand[4] = {1, 2, n - 1, n};
                m = std::max(1LL, std::min(n, cand[rnd.next(4)]));
            } else m = rnd.next(1LL, n);
            bool dense = type == "dense" || (type == "mixed" && rnd.next(4) == 0);
            out.push_back(make(n, m, dense));
        }
    }
    printf("%d\n", (int)out.size());
    for (auto& g : out) printf("%lld %lld %lld %lld %lld\n", g.n, g.m, g.c, g.base, g.seed);
    return 0;
}
