// Natural but too costly: finds the set bits one at a time, each by a binary search for the lowest
// set bit among the unknown bits (about k * log2 n tests).
#include <bits/stdc++.h>
using namespace std;
typedef long long ll;
int ask(ll y) {
    cout << "? " << y << endl;
    int r;
    if (!(cin >> r) || r == -1) exit(0);
    return r;
}
int main() {
    int T; ll Q;
    cin >> T >> Q;
    while (T--) {
        int n, k;
        cin >> n >> k;
        ll x = 0;
        int lo = 0;  // bits below lo are resolved
        for (int f = 0; f < k; f++) {
            if (n - lo == k - f) {  // all remaining bits are set
                for (int b = lo; b < n; b++) x |= 1LL << b;
                break;
            }
            int a = lo, b = n - 1;  // lowest set bit in [a, b]
            while (a < b) {
                int mid = (a + b) / 2;
                ll m = 0;
                for (int i = a; i <= mid; i++) m |= 1LL << i;
                if (ask(m)) b = mid; else a = mid + 1;
            }
            x |= 1LL << a;
            lo = a + 1;
        }
        cout << "! " << x << endl;
    }
}
