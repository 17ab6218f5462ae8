// State-update bug: when a_mid <= a_n it sets hi = mid - 1, discarding mid itself, which may be
// the minimum.
#include <bits/stdc++.h>
using namespace std;
long long ask(long long i) {
    cout << "? " << i << endl;
    long long v;
    if (!(cin >> v) || v == -1) exit(0);
    return v;
}
int main() {
    int T; long long Q;
    cin >> T >> Q;
    while (T--) {
        long long n;
        cin >> n;
        long long lo = 1, hi = n;
        if (n > 1) {
            long long last = ask(n);
            while (lo < hi) {
                long long mid = lo + (hi - lo) / 2;
                if (ask(mid) > last) lo = mid + 1; else hi = max(lo, mid - 1);
            }
        }
        cout << "! " << lo << endl;
    }
}
