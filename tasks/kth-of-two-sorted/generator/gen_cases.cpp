// Generator for kth-of-two-sorted: gen <seed> --mode non --type TYPE --games G --nmax N
// One case on stdout: T, then T lines "n m k layout seed" (the interactor builds the arrays).
// Types:
//   exhaustive  every (n, m, k) with n, m <= nmax (nmax <= 3 keeps it within 100 games)
//   random      n, m log-uniform in [1, nmax], k uniform
//   skew        one array tiny (1..8), the other long, k in the middle: the split range w is
//               tiny while k is huge (halving k costs far more than the budget)
//   wide        n = m = nmax, k = nmax: the largest split range
//   kedge       k in {1, n+m, n, n+1, m, m+1} with random sizes
//   ties        like random, with the "-eq" / "-few" value laws (many equal values)
#include "testlib.h"
#include <cstdio>
#include <string>
#include <vector>

static const char* LAYOUTS[] = {"mix", "runs", "low", "high", "inner"};
static const char* TIELAWS[] = {"mix-eq", "mix-few", "runs-few", "inner-few", "low-eq"};

static long long logu(long long nmax) {
    int b = 0;
    while ((2LL << b) <= nmax) b++;
    int e = rnd.next(0, b);
    return rnd.next(1LL << e, std::min(nmax, (2LL << e) - 1));
}

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "non");
    std::string type = opt<std::string>("type", "random");
    int games = opt<int>("games", 10);
    long long nmax = opt<long long>("nmax", 1000);
    ensuref(mode == "non", "kth-of-two-sorted has only non-adaptive cases");
    ensuref(1 <= games && games <= 100 && 1 <= nmax && nmax <= 1000000, "bad options");
    struct G { long long n, m, k; std::string layout; };
    std::vector<G> out;
    auto layout = [&]() { return std::string(LAYOUTS[rnd.next(5)]); };
    if (type == "exhaustive") {
        for (long long n = 1; n <= nmax; n++)
            for (long long m = 1; m <= nmax; m++)
                for (long long k = 1; k <= n + m && (int)out.size() < games; k++)
                    out.push_back({n, m, k, layout()});
    } else {
        for (int g = 0; g < games; g++) {
            long long n, m, k;
            std::string lay = layout();
            if (type == "random" || type == "ties") {
                n = logu(nmax), m = logu(nmax);
                k = rnd.next(1LL, n + m);
                if (type == "ties") lay = TIELAWS[rnd.next(5)];
            } else if (type == "skew") {
                long long small = rnd.next(1, 8), big = rnd.next(std::max(1LL, nmax / 2), nmax);
                if (rnd.next(2)) n = small, m = big; else n = big, m = small;
                k = rnd.next(std::max(1LL, (n + m) / 4), std::max(1LL, 3 * (n + m) / 4));
            } else if (type == "wide") {
                n = m = nmax;
                k = nmax + rnd.next(-1LL, 1LL);
                k = std::max(1LL, std::min(k, n + m));
            } else if (type == "kedge") {
                n = logu(nmax), m = logu(nmax);
                long long c[6] = {1, n + m, n, n + 1, m, m + 1};
                k = std::min(n + m, c[rnd.next(6)]);
            } else {
                quitf(_fail, "unknown type %s", type.c_str());
            }
            out.push_back({n, m, k, lay});
        }
    }
    printf("%d\n", (int)out.size());
    for (auto& g : out) printf("%lld %lld %lld %s %lld\n", g.n, g.m, g.k, g.layout.c_str(), rnd.next(0LL, 1000000000000000000LL));
    return 0;
}
