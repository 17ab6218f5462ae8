// Near miss: finds the length of each Stern-Brocot run by bisection over [1, the largest length
// that stays within N], without galloping. About log2 N queries per partial quotient, which the
// budget does not allow on fractions with many partial quotients.
#include <bits/stdc++.h>
using namespace std;
typedef long long ll;
ll N;
int cmpq(ll a, ll b) {
    cout << "? " << a << " " << b << endl;
    string s;
    if (!(cin >> s) || s == "-1") exit(0);
    return s == "<" ? -1 : s == ">" ? 1 : 0;
}
int main() {
    int T; ll Q;
    cin >> T >> Q;
    while (T--) {
        cin >> N;
        ll a = 0, b = 1, c = 1, d = 0, P = -1, R = -1;
        while (P < 0) {
            int s = cmpq(a + c, b + d);
            if (s == 0) { P = a + c; R = b + d; break; }
            bool right = s > 0;
            ll kmax;  // largest k keeping X_k within N
            if (right) kmax = min(c ? (N - a) / c : N, d ? (N - b) / d : N);
            else kmax = min(a ? (N - c) / a : N, b ? (N - d) / b : N);
            ll lo = 1, hi = kmax + 1;  // value beyond X_lo, not beyond X_hi
            while (hi - lo > 1) {
                ll m = (lo + hi) / 2;
                ll x = right ? a + m * c : c + m * a, y = right ? b + m * d : d + m * b;
                int r = cmpq(x, y);
                if (r == 0) { P = x; R = y; break; }
                if (right ? r > 0 : r < 0) lo = m; else hi = m;
            }
            if (P >= 0) break;
            if (right) { a += lo * c; b += lo * d; } else { c += lo * a; d += lo * b; }
        }
        cout << "! " << P << " " << R << endl;
    }
}
