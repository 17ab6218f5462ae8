// Generator for warehouse-kth-pick:
//   gen <seed> --mode non --n N --picks R --adds A --dist D --target G
// One case on stdout: "n m", the n initial counts, then m = R + A events (the last one a pick).
// dist:   ones (every a_i = 1), small (0..3), sparse (95% empty, others 1..1000),
//         heavy (a few shelves with up to 10^6 items, the rest 0/1), uniform (1..1000)
// target: spread  (a uniformly random non-empty shelf, then an item on it)
//         uniform (k uniform over all items)
//         bitrev  (shelves visited in bit-reversed order: every pick enters new subtrees)
//         sweep   (left to right, cyclically)      ends (k = 1 or k = total)
// Adds go to uniformly random shelves and are interleaved at random positions.
#include "testlib.h"
#include <cstdio>
#include <string>
#include <vector>

struct Fenwick {
    int n;
    std::vector<long long> t;
    explicit Fenwick(int n_) : n(n_), t(n_ + 1, 0) {}
    void add(int i, long long d) { for (; i <= n; i += i & -i) t[i] += d; }
    long long prefix(int i) const { long long s = 0; for (; i > 0; i -= i & -i) s += t[i]; return s; }
};

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "non");
    int n = opt<int>("n", 1000);
    int R = opt<int>("picks", 100);
    int A = opt<int>("adds", 0);
    std::string dist = opt<std::string>("dist", "small");
    std::string target = opt<std::string>("target", "spread");
    ensuref(mode == "non", "warehouse-kth-pick has only non-adaptive cases");
    ensuref(1 <= n && n <= 100000 && 1 <= R && 0 <= A && R + A <= 20000, "bad options");

    std::vector<long long> a(n + 1, 0);
    for (int i = 1; i <= n; i++) {
        if (dist == "ones") a[i] = 1;
        else if (dist == "small") a[i] = rnd.next(0, 3);
        else if (dist == "sparse") a[i] = rnd.next(100) < 5 ? rnd.next(1, 1000) : 0;
        else if (dist == "heavy") a[i] = rnd.next(1000) < 3 ? rnd.next(1, 1000000) : rnd.next(0, 1);
        else if (dist == "uniform") a[i] = rnd.next(1, 1000);
        else quitf(_fail, "unknown dist %s", dist.c_str());
    }
    long long total = 0;
    for (int i = 1; i <= n; i++) total += a[i];
    while (total < R) {  // enough items for every pick, even without adds
        int i = rnd.next(1, n);
        a[i]++, total++;
    }
    // Event order: R picks and A adds, the last event a pick.
    std::vector<int> kinds(R + A - 1, 1);
    for (int i = 0; i < A; i++) kinds[i] = 2;
    shuffle(kinds.begin(), kinds.end());
    kinds.push_back(1);

    const std::vector<long long> initial = a;
    Fenwick fw(n);
    for (int i = 1; i <= n; i++) fw.add(i, a[i]);
    std::vector<int> bitrev;
    if (target == "bitrev") {
        int B = 0;
        while ((1 << B) < n) B++;
        for (int x = 0; x < (1 << B); x++) {
            int y = 0;
            for (int b = 0; b < B; b++) if (x >> b & 1) y |= 1 << (B - 1 - b);
            if (y < n) bitrev.push_back(y + 1);
        }
    }
    size_t cursor = 0;
    int sweepPos = 1;
    std::vector<std::pair<int, long long>> events;
    for (int kind : kinds) {
        if (kind == 2) {
            int p = rnd.next(1, n);
            a[p]++, total++, fw.add(p, 1);
            events.push_back({2, p});
            continue;
        }
        long long k;
        auto itemOn = [&](int p) { return fw.prefix(p - 1) + rnd.next(1LL, a[p]); };
        if (target == "uniform") {
            k = rnd.next(1LL, total);
        } else if (target == "ends") {
            k = rnd.next(2) ? 1 : total;
        } else if (target == "spread" || target == "bitrev" || target == "sweep") {
            int p = -1;
            for (int tries = 0; tries < 4 * n && p < 0; tries++) {
                int c;
                if (target == "spread") c = rnd.next(1, n);
                else if (target == "bitrev") c = bitrev[cursor++ % bitrev.size()];
                else { c = sweepPos; sweepPos = sweepPos % n + 1; }
                if (a[c] > 0) p = c;
            }
            k = p > 0 ? itemOn(p) : rnd.next(1LL, total);
        } else {
            quitf(_fail, "unknown target %s", target.c_str());
        }
        // remove the picked item
        long long lo = 1, hi = n;
        while (lo < hi) {
            long long mid = (lo + hi) / 2;
            if (fw.prefix((int)mid) >= k) hi = mid; else lo = mid + 1;
        }
        a[lo]--, total--, fw.add((int)lo, -1);
        events.push_back({1, k});
    }
    printf("%d %d\n", n, (int)events.size());
    for (int i = 1; i <= n; i++) printf("%lld%c", initial[i], i == n ? '\n' : ' ');
    for (auto& [t, x] : events) printf("%d %lld\n", t, x);
    return 0;
}
