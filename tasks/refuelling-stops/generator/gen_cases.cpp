// Generator for refuelling-stops: gen <seed> --n N --type T [--D D]
// Types: random (random depots, made feasible by topping up deficits),
//        chain (evenly spaced depots, each gives exactly the next gap: every stop is needed),
//        gap (a stretch no fuel can bridge: answer -1),
//        decoy (small depots early, large ones later: the latest-possible-stop greedy wastes
//               stops; made feasible like random), big (values up to 10^9).
#include "testlib.h"
#include <algorithm>
#include <cstdio>
#include <set>
#include <vector>
using namespace std;

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    int n = opt<int>("n");
    string type = opt<string>("type");
    long long D = opt<long long>("D", 1000000000LL);
    ensuref(0 <= n && n <= 100000 && n + 1 <= D && D <= 1000000000LL, "bad options");
    vector<long long> x, f(n);
    auto positions = [&](long long lo, long long hi, int k) {
        set<long long> s;
        while ((int)s.size() < k) s.insert(rnd.next(lo, hi));
        return vector<long long>(s.begin(), s.end());
    };
    long long F;
    if (type == "chain") {
        long long gap = D / (n + 1);
        for (int i = 0; i < n; i++) x.push_back(gap * (i + 1));
        for (int i = 0; i < n; i++) f[i] = (i + 1 < n ? x[i + 1] : D) - x[i];
        F = n ? x[0] : D;
    } else if (type == "gap") {
        // k depots in [1, D/3] whose fuel (with F) reaches at most 2D/3 + per, then the rest
        // beyond that point: the base is unreachable (answer -1).
        int k = max(1, n / 2);
        long long A = D / 3, per = max(1LL, A / k);
        x = positions(1, A, k);
        long long start = 2 * A + per + 1;
        ensuref(start + (n - k) <= D - 1, "D too small for a gap test");
        vector<long long> rest = positions(start, D - 1, n - k);
        x.insert(x.end(), rest.begin(), rest.end());
        for (int i = 0; i < n; i++) f[i] = i < k ? rnd.next(1LL, per) : rnd.next(1LL, max(1LL, D / n));
        F = x[0] + rnd.next(0LL, per);
    } else {
        x = positions(1, D - 1, n);
        long long avg = n ? D / n : D;
        for (int i = 0; i < n; i++) {
            if (type == "big") f[i] = rnd.next(1LL, 1000000000LL);
            else if (type == "decoy") f[i] = x[i] < D / 3 ? rnd.next(1LL, max(1LL, avg / 2)) : rnd.next(avg, 6 * avg);
            else if (type == "random") f[i] = rnd.next(1LL, max(1LL, 3 * avg));
            else quitf(_fail, "unknown type %s", type.c_str());
        }
        F = n ? x[0] + rnd.next(0LL, avg) : D - rnd.next(0LL, 1LL);
        if (type == "big") F = rnd.next(1LL, 1000000000LL);
        // Make the instance feasible when all fuel is taken: cover every deficit with the
        // nearest earlier depot (or the start).
        long long total = F;
        for (int i = 0; i <= n; i++) {
            long long target = i < n ? x[i] : D;
            if (total < target) {
                if (i == 0) F += target - total; else f[i - 1] += target - total;
                total = target;
            }
            if (i < n) total += f[i];
        }
    }
    ensuref(1 <= F && F <= 1000000000LL, "F out of range");
    for (int i = 0; i < n; i++) ensuref(1 <= f[i] && f[i] <= 1000000000LL, "fuel out of range");
    printf("%d %lld %lld\n", n, D, F);
    for (int i = 0; i < n; i++) printf("%lld %lld\n", x[i], f[i]);
    return 0;
}
