// Query every 2^i: r_i = c + 1 - 2*x_i with c = popcount(x). Summing, sum r = c(n-2) + n, so
// c = (sum r - n)/(n - 2) for n >= 3, then every bit follows. n = 1 and n = 2 are done directly.
#include <bits/stdc++.h>
using namespace std;
long long ask(long long y) {
    printf("? %lld\n", y);
    fflush(stdout);
    long long r;
    if (scanf("%lld", &r) != 1 || r < 0) exit(0);
    return r;
}
int main() {
    int T;
    long long Q;
    if (scanf("%d %lld", &T, &Q) != 2) return 0;
    while (T--) {
        int n;
        if (scanf("%d", &n) != 1 || n < 0) return 0;
        long long x = 0;
        if (n == 1) {
            x = 1 - ask(1);
        } else if (n == 2) {
            long long c = ask(0), r0 = ask(1);
            long long b0 = (c + 1 - r0) / 2;
            x = b0 | ((c - b0) << 1);
        } else {
            vector<long long> r(n);
            long long s = 0;
            for (int i = 0; i < n; i++) s += r[i] = ask(1LL << i);
            long long c = (s - n) / (n - 2);
            for (int i = 0; i < n; i++)
                if ((c + 1 - r[i]) / 2 == 1) x |= 1LL << i;
        }
        printf("! %lld\n", x);
        fflush(stdout);
    }
}
