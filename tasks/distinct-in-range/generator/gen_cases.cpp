// Generator for distinct-in-range: gen <seed> --n N --q Q --maxv V [--ranges R]
// Values uniform in [1, V]; ranges: random (uniform l <= r), long (length >= n/2), short
// (length <= 10), full (mostly [1, n]).
#include "testlib.h"
#include <algorithm>
#include <cstdio>
using namespace std;

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    int n = opt<int>("n"), q = opt<int>("q");
    long long maxv = opt<long long>("maxv");
    string ranges = opt<string>("ranges", "random");
    ensuref(1 <= n && n <= 50000 && 1 <= q && q <= 50000 && 1 <= maxv && maxv <= 1000000000LL, "bad");
    printf("%d %d\n", n, q);
    for (int i = 1; i <= n; i++) printf("%lld%c", rnd.next(1LL, maxv), i == n ? '\n' : ' ');
    for (int i = 0; i < q; i++) {
        int l, r;
        if (ranges == "long") {
            int len = rnd.next((n + 1) / 2, n);
            l = rnd.next(1, n - len + 1);
            r = l + len - 1;
        } else if (ranges == "short") {
            int len = rnd.next(1, min(n, 10));
            l = rnd.next(1, n - len + 1);
            r = l + len - 1;
        } else if (ranges == "full") {
            l = rnd.next(4) ? 1 : rnd.next(1, n);
            r = rnd.next(4) ? n : rnd.next(l, n);
        } else if (ranges == "random") {
            l = rnd.next(1, n);
            r = rnd.next(1, n);
            if (l > r) swap(l, r);
        } else {
            quitf(_fail, "unknown ranges %s", ranges.c_str());
        }
        printf("%d %d\n", l, r);
    }
    return 0;
}
