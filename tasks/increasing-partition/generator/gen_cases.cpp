// Generator for increasing-partition: gen <seed> --n N --type T [--maxv V] [--k K]
// Types: random (values in [1, maxv]), perm (distinct values), inc, dec, equal,
//        kseq (K interleaved increasing runs), saw (decreasing blocks of length K),
//        noisydec (decreasing trend with local noise).
#include "testlib.h"
#include <algorithm>
#include <cstdio>
#include <vector>
using namespace std;

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    int n = opt<int>("n");
    string type = opt<string>("type");
    long long maxv = opt<long long>("maxv", 1000000000LL);
    int k = opt<int>("k", 1);
    ensuref(1 <= n && n <= 100000 && 1 <= maxv && maxv <= 1000000000LL && k >= 1, "bad options");
    vector<long long> a(n);
    if (type == "random") {
        for (auto& x : a) x = rnd.next(1LL, maxv);
    } else if (type == "perm") {
        vector<int> p = rnd.perm(n, 1);
        long long step = max(1LL, maxv / n);
        for (int i = 0; i < n; i++) a[i] = (long long)p[i] * step - rnd.next(0LL, step - 1);
    } else if (type == "inc") {
        long long step = max(1LL, maxv / n);
        for (int i = 0; i < n; i++) a[i] = (long long)(i + 1) * step;
    } else if (type == "dec") {
        long long step = max(1LL, maxv / n);
        for (int i = 0; i < n; i++) a[i] = (long long)(n - i) * step;
    } else if (type == "equal") {
        long long v = rnd.next(1LL, maxv);
        for (auto& x : a) x = v;
    } else if (type == "kseq") {
        // K runs, each strictly increasing; positions are dealt to runs at random.
        vector<long long> cur(k);
        for (auto& c : cur) c = rnd.next(1LL, max(1LL, maxv / 2));
        for (int i = 0; i < n; i++) {
            int r = rnd.next(k);
            cur[r] = min(maxv, cur[r] + rnd.next(1LL, max(1LL, maxv / (2LL * n / k + 1))));
            a[i] = cur[r];
        }
    } else if (type == "saw") {
        for (int i = 0; i < n; i++) a[i] = min(maxv, (long long)(i / k) * k + (k - i % k));
    } else if (type == "noisydec") {
        for (int i = 0; i < n; i++) a[i] = max(1LL, min(maxv, (long long)(n - i) * 10 + rnd.next(-25LL, 25LL)));
    } else {
        quitf(_fail, "unknown type %s", type.c_str());
    }
    printf("%d\n", n);
    for (int i = 0; i < n; i++) printf("%lld%c", a[i], i + 1 == n ? '\n' : ' ');
    return 0;
}
