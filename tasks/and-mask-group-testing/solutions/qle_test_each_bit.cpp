// Naive: tests the bits one by one (stopping when the rest is determined by k). Fine when k is
// large, far over the budget when k is small.
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
        int found = 0;
        for (int b = 0; b < n; b++) {
            int left = n - b;
            if (found == k) break;
            if (k - found == left) { for (int c = b; c < n; c++) x |= 1LL << c; break; }
            if (ask(1LL << b)) { x |= 1LL << b; found++; }
        }
        cout << "! " << x << endl;
    }
}
