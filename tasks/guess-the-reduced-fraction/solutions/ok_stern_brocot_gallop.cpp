// Stern-Brocot search with galloping. The hidden value lies strictly between two Farey
// neighbours L = a/b and R = c/d (initially 0/1 and 1/0). A run of steps in one direction moves
// L to (a + k c)/(b + k d) (or R symmetrically); the length k of the run is found by doubling
// and then binary search, so a partial quotient of size k costs O(log k) queries. Fractions with
// a numerator or denominator above N cannot be reached, so they count as "too far" without a
// query. Answers are cached, so the failing probe of one run is reused as the first probe of the
// next.
#include <bits/stdc++.h>
using namespace std;
typedef long long ll;
ll N;
map<pair<ll, ll>, int> memo;
int cmpq(ll a, ll b) {  // sign of (hidden - a/b)
    auto it = memo.find({a, b});
    if (it != memo.end()) return it->second;
    cout << "? " << a << " " << b << endl;
    string s;
    if (!(cin >> s) || s == "-1") exit(0);
    int r = s == "<" ? -1 : s == ">" ? 1 : 0;
    memo[{a, b}] = r;
    return r;
}
int main() {
    int T; ll Q;
    cin >> T >> Q;
    while (T--) {
        cin >> N;
        if (N == -1) return 0;
        memo.clear();
        ll a = 0, b = 1, c = 1, d = 0;
        ll ansP = -1, ansQ = -1;
        while (ansP < 0) {
            int s = cmpq(a + c, b + d);  // the mediant always fits while the search is unfinished
            if (s == 0) { ansP = a + c; ansQ = b + d; break; }
            bool right = s > 0;
            // f(k) = sign(hidden - X_k), X_k = L + kR (right) or R + kL (left); X_1 is the mediant
            auto probe = [&](ll k) -> int {
                ll x = right ? a + k * c : c + k * a, y = right ? b + k * d : d + k * b;
                if (x > N || y > N) return right ? -1 : 1;  // beyond reach
                return cmpq(x, y);
            };
            auto inside = [&](int r) { return right ? r > 0 : r < 0; };  // still beyond X_k
            ll lo = 1, hi = 0;
            ll k = 2;
            while (true) {
                int r = probe(k);
                if (r == 0) { ansP = right ? a + k * c : c + k * a; ansQ = right ? b + k * d : d + k * b; break; }
                if (!inside(r)) { hi = k; break; }
                lo = k;
                k *= 2;
            }
            if (ansP >= 0) break;
            while (hi - lo > 1) {
                ll m = (lo + hi) / 2;
                int r = probe(m);
                if (r == 0) { ansP = right ? a + m * c : c + m * a; ansQ = right ? b + m * d : d + m * b; break; }
                if (inside(r)) lo = m; else hi = m;
            }
            if (ansP >= 0) break;
            if (right) { a += lo * c; b += lo * d; }
            else { c += lo * a; d += lo * b; }
        }
        cout << "! " << ansP << " " << ansQ << endl;
    }
}
