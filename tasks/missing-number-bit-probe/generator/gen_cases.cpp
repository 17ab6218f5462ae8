// Generator for missing-number-bit-probe: gen <seed> --mode non --type TYPE --games G --nmax N
// One case on stdout: T, then per game "n" and the n hidden values (0..n without one, shuffled).
// Types:
//   exhaustive  every (n, missing) with n = 1, 2, ... while games last (G caps the count)
//   random      n uniform in [1, nmax], missing uniform
//   adversarial missing chosen to maximise the cost of lowest-bit-first filtering (2n-1 worst)
//   pow2        n in {2^k-1, 2^k, 2^k+1} (k random, n <= nmax), missing adversarial or 0 or n
//   lowhalf     n = 2^k + small, missing below 2^k: top-bit-first filtering keeps ~n candidates
//   max         every game has n = nmax, missing adversarial
//   sorted      like random, but the values are listed in increasing order
#include "testlib.h"
#include <cstdio>
#include <string>
#include <vector>

// Queries used by lowest-bit-first filtering when `m` is missing from 0..n.
static long long lsb_cost(int n, int m) {
    long long tot = 0;
    for (int j = 0; j < 31; j++) {
        long long mod = 1LL << j;
        long long r = m % mod;
        long long cnt = r <= n ? (n - r) / mod + 1 : 0;  // values in [0, n] congruent to m mod 2^j
        if (cnt <= 1) break;
        tot += cnt - 1;
    }
    return tot;
}

static int adversarial_missing(int n) {
    long long best = -1;
    std::vector<int> arg;
    for (int m = 0; m <= n; m++) {
        long long c = lsb_cost(n, m);
        if (c > best) best = c, arg.clear();
        if (c == best) arg.push_back(m);
    }
    return arg[rnd.next((int)arg.size())];
}

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "non");
    std::string type = opt<std::string>("type", "random");
    int games = opt<int>("games", 10);
    int nmax = opt<int>("nmax", 1000);
    ensuref(mode == "non", "missing-number-bit-probe has only non-adaptive cases");
    ensuref(1 <= games && games <= 100 && 1 <= nmax && nmax <= 100000, "bad options");

    std::vector<std::pair<int, int>> nm;  // (n, missing)
    if (type == "exhaustive") {
        for (int n = 1; (int)nm.size() < games && n <= nmax; n++)
            for (int m = 0; m <= n && (int)nm.size() < games; m++) nm.push_back({n, m});
    } else {
        for (int g = 0; g < games; g++) {
            int n, m;
            if (type == "random" || type == "sorted") {
                n = rnd.next(1, nmax);
                m = rnd.next(0, n);
            } else if (type == "adversarial") {
                n = rnd.next(1, nmax);
                m = adversarial_missing(n);
            } else if (type == "max") {
                n = nmax;
                m = adversarial_missing(n);
            } else if (type == "pow2") {
                int kmax = 0;
                while ((2 << kmax) + 1 <= nmax) kmax++;
                int k = rnd.next(1, kmax);
                n = (1 << k) + rnd.next(-1, 1);
                int t = rnd.next(3);
                m = t == 0 ? adversarial_missing(n) : t == 1 ? 0 : n;
            } else if (type == "lowhalf") {
                int kmax = 1;
                while ((2 << kmax) + 8 <= nmax) kmax++;
                int k = rnd.next(std::max(1, kmax - 3), kmax);
                n = (1 << k) + rnd.next(0, 7);
                m = rnd.next(0, (1 << k) - 1);
            } else {
                quitf(_fail, "unknown type %s", type.c_str());
            }
            nm.push_back({n, m});
        }
    }
    printf("%d\n", (int)nm.size());
    for (auto [n, m] : nm) {
        std::vector<int> a;
        for (int v = 0; v <= n; v++)
            if (v != m) a.push_back(v);
        if (type != "sorted") shuffle(a.begin(), a.end());
        printf("%d\n", n);
        for (int i = 0; i < n; i++) printf("%d%c", a[i], i + 1 == n ? '\n' : ' ');
    }
    return 0;
}
