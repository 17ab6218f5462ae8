// Off by one: treats the range as half-open [1, n+1) and reads the pivot at position n+1,
// which is outside [1, n].
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
        long long lo = 1, hi = n + 1;
        long long last = ask(hi);
        while (hi - lo > 1) {
            long long mid = (lo + hi) / 2;
            if (ask(mid) > last) lo = mid; else hi = mid;
        }
        cout << "! " << lo << endl;
    }
}
