// Generator for and-mask-group-testing:
//   gen <seed> [--mode non] [--type T] [--games G] [--nmin A] [--nmax N] [--kmin B] [--kmax K]
// Prints T, then per game "n k x" (popcount(x) = k).
// n is uniform in [nmin, nmax], k uniform in [kmin, min(kmax, n)]; the set bits are placed by type:
//   random  any k positions               low / high  the k lowest / highest positions
//   spread  evenly spaced positions       edgek       k in {0, 1, n-1, n} (ignores kmin/kmax)
//   allsmall  every x for every n in [nmin, nmax] (at most 100 games; ignores G and k)
//   gbsadv  positions chosen online against generalized binary splitting (first-g groups),
//           answering every test so as to maximise its remaining worst case.
#include "testlib.h"
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

static int W[61][61];  // worst case of generalized binary splitting on (n unknown, d defectives)

static int alpha(int u, int d) {  // largest a with 2^a * d <= u - d + 1
    int a = 0;
    while ((1LL << (a + 1)) * d <= u - d + 1) a++;
    return a;
}

static void build_w() {
    for (int u = 0; u <= 60; u++)
        for (int d = 0; d <= u; d++) {
            if (d == 0 || d == u) { W[u][d] = 0; continue; }
            int best;
            if (u <= 2 * d - 2) {
                best = 1 + std::max(W[u - 1][d - 1], W[u - 1][d]);
            } else {
                int a = alpha(u, d), g = 1 << a;
                bool known = g == u;
                best = (!known && u - g >= d) ? 1 + W[u - g][d] : 0;
                for (int x = 0; x < g && x <= u - d; x++)
                    best = std::max(best, (known ? 0 : 1) + a + W[u - 1 - x][d - 1]);
            }
            W[u][d] = best;
        }
}

// Play GBS on positions 0..n-1 against an adversary; returns the resulting x.
static long long gbs_adversary(int n, int k) {
    std::vector<int> U;
    for (int i = 0; i < n; i++) U.push_back(i);
    long long x = 0;
    int d = k;
    while (d > 0 && (int)U.size() > d) {
        int u = (int)U.size();
        if (u <= 2 * d - 2) {
            bool pos = W[u - 1][d - 1] >= W[u - 1][d];
            if (W[u - 1][d - 1] == W[u - 1][d]) pos = rnd.next(2);
            if (pos) { x |= 1LL << U[0]; d--; }
            U.erase(U.begin());
            continue;
        }
        int a = alpha(u, d), g = 1 << a;
        bool known = g == u;
        int negCost = (!known && u - g >= d) ? W[u - g][d] : -1;
        int posCost = -1;
        for (int xx = 0; xx < g && xx <= u - d; xx++) posCost = std::max(posCost, a + W[u - 1 - xx][d - 1]);
        if (!known && negCost >= posCost && (negCost > posCost || rnd.next(2))) {
            U.erase(U.begin(), U.begin() + g);
            continue;
        }
        // positive group U[0..g): binary split, the adversary picks the branch with the larger worst case
        int lo = 0, len = g;  // current candidate block U[lo .. lo+len)
        int removed = 0;      // goods found inside the group (they are U[.. ] entries to drop)
        std::vector<int> goods;
        while (len > 1) {
            int h = len / 2;
            // positive: block becomes [lo, lo+h), the rest returns to the pool
            // negative: [lo, lo+h) are goods, block becomes [lo+h, lo+len)
            int uPos = u - removed, uNeg = u - removed - h;
            // remaining worst case estimate: tests left in the split + W after the defective
            int depth = 0;
            while ((1 << depth) < h) depth++;
            int cPos = depth + W[uPos - 1][d - 1];
            int cNeg = depth + (uNeg - 1 >= d - 1 ? W[uNeg - 1][d - 1] : -1);
            bool neg = uNeg >= d && (cNeg > cPos || (cNeg == cPos && rnd.next(2)));
            if (neg) {
                for (int i = 0; i < h; i++) goods.push_back(U[lo + i]);
                removed += h;
                lo += h;
                len -= h;
            } else {
                len = h;
            }
        }
        int def = U[lo];
        x |= 1LL << def;
        d--;
        std::vector<int> nu;
        for (int v : U)
            if (v != def && std::find(goods.begin(), goods.end(), v) == goods.end()) nu.push_back(v);
        U = nu;
    }
    if (d > 0)
        for (int v : U) x |= 1LL << v;
    return x;
}

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "non");
    std::string type = opt<std::string>("type", "random");
    int games = opt<int>("games", 10);
    int nmin = opt<int>("nmin", 1), nmax = opt<int>("nmax", 60);
    int kmin = opt<int>("kmin", 0), kmax = opt<int>("kmax", 60);
    ensuref(mode == "non", "and-mask-group-testing has only non-adaptive cases");
    ensuref(1 <= games && games <= 100 && 1 <= nmin && nmin <= nmax && nmax <= 60 && 0 <= kmin && kmin <= kmax,
            "bad options");
    build_w();

    struct G { int n, k; long long x; };
    std::vector<G> out;
    if (type == "allsmall") {
        for (int n = nmin; n <= nmax; n++)
            for (long long x = 0; x < (1LL << n); x++) out.push_back({n, __builtin_popcountll(x), x});
        ensuref(out.size() <= 100, "allsmall: too many games");
        rnd.shuffle(out.begin(), out.end());
    } else {
        for (int g = 0; g < games; g++) {
            int n = rnd.next(nmin, nmax);
            int k;
            if (type == "edgek") {
                int c[4] = {0, 1, n - 1, n};
                k = c[rnd.next(4)];
            } else {
                ensuref(kmin <= n, "kmin > n");
                k = rnd.next(kmin, std::min(kmax, n));
            }
            long long x = 0;
            if (type == "low") x = (1LL << k) - 1;
            else if (type == "high") x = ((1LL << k) - 1) << (n - k);
            else if (type == "spread") {
                for (int i = 0; i < k; i++) x |= 1LL << ((long long)i * n / k);
            } else if (type == "gbsadv") {
                x = gbs_adversary(n, k);
            } else if (type == "random" || type == "edgek") {
                std::vector<int> p(n);
                for (int i = 0; i < n; i++) p[i] = i;
                rnd.shuffle(p.begin(), p.end());
                for (int i = 0; i < k; i++) x |= 1LL << p[i];
            } else {
                quitf(_fail, "unknown type %s", type.c_str());
            }
            ensuref(__builtin_popcountll((unsigned long long)x) == k, "internal: popcount");
            out.push_back({n, k, x});
        }
    }
    printf("%d\n", (int)out.size());
    for (auto& g : out) printf("%d %d %lld\n", g.n, g.k, g.x);
    return 0;
}
