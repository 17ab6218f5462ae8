// Different approach: dynamic programming over splitting strategies. F(u, d) is the optimal
// worst case over strategies that test a group of g unknown bits and, when it is positive, halve
// it (any split point h) until one set bit is isolated, returning untested parts to the pool;
// P(m, u, d) is the cost to finish when a block of m of the u unknown bits is known to hold a set
// bit. The program follows the argmin choices. Hwang's strategy is one of the candidates, so the
// worst case is at most his bound.
#include <bits/stdc++.h>
using namespace std;
typedef long long ll;
const int INF = 1e9;
int F[61][61], P[61][61][61];
int Fg[61][61], Ph[61][61][61];
int ask(ll y) {
    printf("? %lld\n", y);
    fflush(stdout);
    int r;
    if (scanf("%d", &r) != 1 || r == -1) exit(0);
    return r;
}
int main() {
    // P(m, u, d) depends on P(., u, d), P(., u - h, d) and F(u - 1, d - 1); F(u, d) on F(u - g, d)
    // and P(g, u, d). Fill by increasing u.
    for (int u = 0; u <= 60; u++) {
        for (int d = 0; d <= u; d++) {
            if (d >= 1) {
                for (int m = 1; m <= u; m++) {
                    if (m == 1) { P[1][u][d] = F[u - 1][d - 1]; Ph[1][u][d] = 0; continue; }
                    int best = INF, bh = 1;
                    for (int h = 1; h < m; h++) {
                        int pos = P[h][u][d];
                        int neg = (u - h >= d) ? P[m - h][u - h][d] : -1;
                        int c = 1 + max(pos, neg);
                        if (c < best) { best = c; bh = h; }
                    }
                    P[m][u][d] = best;
                    Ph[m][u][d] = bh;
                }
            }
            if (d == 0 || d == u) { F[u][d] = 0; Fg[u][d] = 0; continue; }
            int best = INF, bg = 1;
            for (int g = 1; g <= u; g++) {
                bool known = g > u - d;  // such a group surely holds a set bit
                int c = known ? P[g][u][d] : 1 + max(F[u - g][d], P[g][u][d]);
                if (c < best) { best = c; bg = g; }
            }
            F[u][d] = best;
            Fg[u][d] = bg;
        }
    }
    int T; ll Q;
    if (scanf("%d %lld", &T, &Q) != 2) return 0;
    while (T--) {
        int n, k;
        if (scanf("%d %d", &n, &k) != 2 || n == -1) return 0;
        vector<int> U(n);
        iota(U.begin(), U.end(), 0);
        ll x = 0;
        int d = k;
        while (d > 0 && (int)U.size() > d) {
            int u = U.size();
            int g = Fg[u][d];
            auto mask = [&](int from, int len) { ll m = 0; for (int i = from; i < from + len; i++) m |= 1LL << U[i]; return m; };
            if (g <= u - d && !ask(mask(0, g))) {
                U.erase(U.begin(), U.begin() + g);
                continue;
            }
            // block U[lo .. lo+len) holds a set bit; `cleared` bits before it are known empty
            int lo = 0, len = g, cleared = 0;
            while (len > 1) {
                int h = Ph[len][u - cleared][d];
                if (ask(mask(lo, h))) len = h;
                else { cleared += h; lo += h; len -= h; }
            }
            x |= 1LL << U[lo];
            d--;
            vector<int> nu;
            for (int i = 0; i < u; i++)
                if (i >= lo + 1 || i < lo - cleared) nu.push_back(U[i]);
            // bits U[lo-cleared .. lo) were cleared, U[lo] is set; everything else stays unknown
            U = nu;
        }
        if (d > 0)
            for (int v : U) x |= 1LL << v;
        printf("! %lld\n", x);
        fflush(stdout);
    }
}
