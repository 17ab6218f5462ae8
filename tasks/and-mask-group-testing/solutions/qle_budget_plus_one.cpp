// Correct generalized binary splitting, but in the first game it wastes "? 0" queries until it
// has used exactly Q + 1.
#include <bits/stdc++.h>
using namespace std;
typedef long long ll;
ll used = 0;
int ask(ll y) {
    used++;
    cout << "? " << y << endl;
    int r;
    if (!(cin >> r) || r == -1) exit(0);
    return r;
}
ll maskOf(const vector<int>& v, int from, int len) {
    ll m = 0;
    for (int i = from; i < from + len; i++) m |= 1LL << v[i];
    return m;
}
int main() {
    int T; ll Q;
    cin >> T >> Q;
    while (T--) {
        int n, k;
        cin >> n >> k;
        if (n == -1) return 0;
        vector<int> U(n);
        iota(U.begin(), U.end(), 0);
        ll x = 0;
        int d = k;
        while (d > 0 && (int)U.size() > d) {
            int u = U.size();
            if (u <= 2 * d - 2) {
                if (ask(1LL << U[0])) { x |= 1LL << U[0]; d--; }
                U.erase(U.begin());
                continue;
            }
            int a = 0;
            while ((1LL << (a + 1)) * d <= u - d + 1) a++;
            int g = 1 << a;
            if (g < u && !ask(maskOf(U, 0, g))) {
                U.erase(U.begin(), U.begin() + g);
                continue;
            }
            int lo = 0, len = g;  // U[lo .. lo+len) holds a set bit
            vector<char> drop(u, 0);
            while (len > 1) {
                int h = len / 2;
                if (ask(maskOf(U, lo, h))) len = h;
                else {
                    for (int i = lo; i < lo + h; i++) drop[i] = 1;
                    lo += h;
                    len -= h;
                }
            }
            x |= 1LL << U[lo];
            drop[lo] = 1;
            d--;
            vector<int> nu;
            for (int i = 0; i < u; i++)
                if (!drop[i]) nu.push_back(U[i]);
            U = nu;
        }
        if (d > 0)
            for (int v : U) x |= 1LL << v;
        while (used < Q + 1) ask(0);
        cout << "! " << x << endl;
    }
}
