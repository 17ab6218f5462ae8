// Generator for lexmax-subsequence-oracle:
//   gen <seed> [--mode non] [--type TYPE] [--tests T] [--nmin A] [--nmax B] [--kmode KM] [--vmax V]
// Limits: n <= 20000, sum n <= 20000, sum k <= 10000.
// Prints T, then per test "n k" and a_1..a_n (1 <= a_i <= vmax <= 10^9).
// Array types: random, inc (strictly increasing), dec (non-increasing), dups (values 1..3),
//   zigzag, tailbig (increasing block of large values at the end), plateaus (long equal runs),
//   mixed (each test one of these).
// k modes: any (1..n), one (k=1), all (k=n), nearall (k=n-1 or n-2), small (1..min(n,5)),
//   half (about n/2), budget (k chosen so that sum k stays <= 10000), mixed.
#include "testlib.h"
#include <algorithm>
#include <string>
#include <vector>

static std::vector<long long> make(const std::string& type, int n, long long V) {
    std::vector<long long> a(n);
    if (type == "random") {
        for (auto& x : a) x = rnd.next(1LL, V);
    } else if (type == "inc") {
        long long step = std::max(1LL, V / std::max(1, n));
        long long cur = 0;
        for (auto& x : a) x = cur = std::min(V, cur + rnd.next(1LL, step));
        for (int i = 1; i < n; i++) a[i] = std::max(a[i], a[i - 1] + 1);  // V >= n is ensured
    } else if (type == "dec") {
        for (auto& x : a) x = rnd.next(1LL, V);
        std::sort(a.rbegin(), a.rend());
    } else if (type == "dups") {
        for (auto& x : a) x = rnd.next(1LL, std::min(V, 3LL));
    } else if (type == "zigzag") {
        for (int i = 0; i < n; i++) a[i] = (i % 2 == 0) ? rnd.next(V / 2 + 1, V) : rnd.next(1LL, std::max(1LL, V / 2));
    } else if (type == "tailbig") {
        int tail = rnd.next(1, n);
        for (int i = 0; i < n - tail; i++) a[i] = rnd.next(1LL, std::max(1LL, V / 2));
        long long cur = V / 2;
        for (int i = n - tail; i < n; i++) a[i] = cur = std::min(V, cur + rnd.next(1LL, std::max(1LL, (V / 2) / tail)));
    } else if (type == "plateaus") {
        int i = 0;
        while (i < n) {
            int len = rnd.next(1, std::max(1, n / 5));
            long long v = rnd.next(1LL, std::min(V, 20LL));
            for (int j = 0; j < len && i < n; j++) a[i++] = v;
        }
    } else {
        ensuref(false, "unknown type %s", type.c_str());
    }
    for (auto x : a) ensuref(1 <= x && x <= V, "value out of range");
    return a;
}

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "non");
    std::string type = opt<std::string>("type", "random");
    int tests = opt<int>("tests", 1);
    int nmin = opt<int>("nmin", 1), nmax = opt<int>("nmax", 20000);
    std::string kmode = opt<std::string>("kmode", "any");
    long long vmax = opt<long long>("vmax", 1000000000LL);
    ensuref(mode == "non", "only non-adaptive cases");
    ensuref(1 <= tests && tests <= 100 && 1 <= nmin && nmin <= nmax && nmax <= 20000, "bad options");
    ensuref((long long)tests * nmax <= 20000 && 1 <= vmax && vmax <= 1000000000LL, "bad options");
    ensuref((type != "inc" && type != "tailbig" && type != "mixed") || nmax <= vmax, "inc/tailbig need vmax >= n");
    const char* kinds[] = {"random", "inc", "dec", "dups", "zigzag", "tailbig", "plateaus"};
    const char* kmodes[] = {"any", "one", "all", "nearall", "small", "half"};
    long long ksum = 0;
    printf("%d\n", tests);
    for (int t = 0; t < tests; t++) {
        int n = rnd.next(nmin, nmax);
        std::string ty = type == "mixed" ? kinds[rnd.next(7)] : type;
        std::string km = kmode == "mixed" ? kmodes[rnd.next(6)] : kmode;
        long long room = 10000 - ksum - (tests - t - 1);  // leave at least 1 for every later test
        int k;
        if (km == "any") k = rnd.next(1, n);
        else if (km == "one") k = 1;
        else if (km == "all") k = n;
        else if (km == "nearall") k = std::max(1, n - rnd.next(1, 2));
        else if (km == "small") k = rnd.next(1, std::min(n, 5));
        else if (km == "half") k = std::max(1, n / 2 + rnd.next(-2, 2));
        else if (km == "budget") k = rnd.next(1, (int)std::min<long long>(n, room / std::max(1, (tests - t))));
        else { ensuref(false, "unknown kmode"); k = 1; }
        k = (int)std::max(1LL, std::min<long long>(k, room));
        k = std::min(k, n);
        ksum += k;
        std::vector<long long> a = make(ty, n, vmax);
        printf("%d %d\n", n, k);
        for (int i = 0; i < n; i++) printf("%lld%c", a[i], i + 1 == n ? '\n' : ' ');
    }
    ensuref(ksum <= 10000, "sum of k exceeds 10000");
    return 0;
}
