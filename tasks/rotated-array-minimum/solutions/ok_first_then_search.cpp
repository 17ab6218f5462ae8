// Different approach: read a_1 and a_n. If a_1 < a_n the array is sorted (m = 1); otherwise the
// minimum is the first position in [2, n] whose value is below a_1. At most 2 + ceil(log2(n-1))
// queries per game.
#include <bits/stdc++.h>
using namespace std;
long long ask(long long i) {
    printf("? %lld\n", i);
    fflush(stdout);
    long long v;
    if (scanf("%lld", &v) != 1 || v == -1) exit(0);
    return v;
}
int main() {
    int T; long long Q;
    if (scanf("%d %lld", &T, &Q) != 2) return 0;
    for (int g = 0; g < T; g++) {
        long long n;
        if (scanf("%lld", &n) != 1 || n == -1) return 0;
        long long ans = 1;
        if (n > 1) {
            long long first = ask(1), last = ask(n);
            if (first > last) {
                long long lo = 2, hi = n;  // first index with a_i < first
                while (lo < hi) {
                    long long mid = (lo + hi) / 2;
                    if (ask(mid) < first) hi = mid; else lo = mid + 1;
                }
                ans = lo;
            }
        }
        printf("! %lld\n", ans);
        fflush(stdout);
    }
}
