// Different formulation: builds the continued fraction [a0; a1, a2, ...] of the hidden value term
// by term. With the convergents h_{i-1}/k_{i-1} and h_{i-2}/k_{i-2}, the term a_i is the largest t
// such that the value lies strictly beyond X_t = (t h_{i-1} + h_{i-2}) / (t k_{i-1} + k_{i-2})
// (X_t moves towards the value as t grows; a candidate with a part above N is never beyond it).
// t is found by exponential search then bisection, without caching (a few repeated queries are
// affordable). Uses stdio.
#include <bits/stdc++.h>
using namespace std;
typedef long long ll;
static ll N;
static int cmpq(ll a, ll b) {  // sign of (hidden - a/b)
    printf("? %lld %lld\n", a, b);
    fflush(stdout);
    char s[8];
    if (scanf("%7s", s) != 1 || s[0] == '-') exit(0);
    return s[0] == '<' ? -1 : s[0] == '>' ? 1 : 0;
}
int main() {
    int T; ll Q;
    if (scanf("%d %lld", &T, &Q) != 2) return 0;
    while (T--) {
        if (scanf("%lld", &N) != 1 || N == -1) return 0;
        // convergents: prev = h_{i-2}/k_{i-2}, cur = h_{i-1}/k_{i-1}; start with 0/1 and 1/0
        ll hp = 0, kp = 1, hc = 1, kc = 0;
        int side = 1;  // +1 for even i (X_t increases towards the value), -1 for odd i
        ll P = -1, Qd = -1;
        while (P < 0) {
            // candidates X_t = (t*hc + hp) / (t*kc + kp), t >= 1, move from prev towards cur;
            // find the largest t with sign(hidden - X_t) == side (hidden still beyond X_t).
            auto fits = [&](ll t) { return (__int128)t * hc + hp <= N && (__int128)t * kc + kp <= N; };
            auto beyond = [&](ll t, bool& hit) -> bool {
                if (!fits(t)) return false;
                int r = cmpq(t * hc + hp, t * kc + kp);
                if (r == 0) { hit = true; P = t * hc + hp; Qd = t * kc + kp; }
                return r == side;
            };
            bool hit = false;
            ll lo = 0, hi = 1;
            while (beyond(hi, hit)) { lo = hi; hi *= 2; }
            if (hit) break;
            while (hi - lo > 1) {
                ll m = (lo + hi) / 2;
                if (beyond(m, hit)) lo = m; else { if (hit) break; hi = m; }
            }
            if (hit) break;
            // lo = a_i (only a_0 can be 0, when the value is below 1)
            ll nh = lo * hc + hp, nk = lo * kc + kp;
            hp = hc; kp = kc; hc = nh; kc = nk;
            side = -side;
        }
        printf("! %lld %lld\n", P, Qd);
        fflush(stdout);
    }
}
