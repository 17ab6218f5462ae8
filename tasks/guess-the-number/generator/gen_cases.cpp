// Generator for guess-the-number: gen <seed> [--mode non] [--type T] [--games G] [--nmax N]
// Types: single (one game, n=nmax), small (n <= nmax random), random (log-uniform n <= nmax),
//        max (every n = nmax), edges (x at 1 or n, n around powers of two),
//        deep (x on a deepest leaf of the midpoint search floor((lo+hi)/2)), mixed.
#include "testlib.h"
#include <cstdio>
#include <vector>

static long long deepest_leaf(long long n, bool round_up) {
    long long lo = 1, hi = n;
    while (lo < hi) {
        long long mid = round_up ? (lo + hi + 1) / 2 : (lo + hi) / 2;
        long long left = mid - lo, right = hi - mid;
        bool go_left = left > right || (left == right && rnd.next(2) == 0);
        if (go_left) hi = mid - 1; else lo = mid + 1;
    }
    return lo;
}

static long long log_uniform(long long nmax) {
    int bits = 0;
    while ((1LL << (bits + 1)) <= nmax) bits++;
    int b = rnd.next(0, bits);
    long long lo = 1LL << b, hi = std::min(nmax, (2LL << b) - 1);
    return rnd.next(lo, hi);
}

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "non");
    std::string type = opt<std::string>("type", "random");
    int games = opt<int>("games", 10);
    long long nmax = opt<long long>("nmax", 1000000000LL);
    ensuref(mode == "non", "guess-the-number has only non-adaptive cases");
    ensuref(1 <= games && games <= 100 && 1 <= nmax && nmax <= 1000000000LL, "bad options");

    std::vector<std::pair<long long, long long>> out;
    for (int g = 0; g < games; g++) {
        long long n, x;
        if (type == "single" || type == "max") {
            n = nmax;
            x = rnd.next(1LL, n);
        } else if (type == "small") {
            n = rnd.next(1LL, nmax);
            x = rnd.next(1LL, n);
        } else if (type == "random") {
            n = log_uniform(nmax);
            x = rnd.next(1LL, n);
        } else if (type == "edges") {
            int b = rnd.next(0, 29);
            long long p = 1LL << b;
            long long cand[3] = {p - 1, p, p + 1};
            n = std::max(1LL, std::min(nmax, cand[rnd.next(3)]));
            x = rnd.next(2) ? 1 : n;
        } else if (type == "deep") {
            n = rnd.next(2) ? nmax : log_uniform(nmax);
            x = deepest_leaf(n, rnd.next(2) == 1);
        } else if (type == "mixed") {
            int t = rnd.next(4);
            n = t == 0 ? rnd.next(1LL, 16LL) : t == 1 ? nmax : log_uniform(nmax);
            x = t == 3 ? deepest_leaf(n, false) : rnd.next(1LL, n);
        } else {
            quitf(_fail, "unknown type %s", type.c_str());
        }
        out.push_back({n, x});
    }
    printf("%d\n", games);
    for (auto& [n, x] : out) printf("%lld %lld\n", n, x);
    return 0;
}
