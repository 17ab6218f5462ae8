// Correct answers but two queries per step (a_mid and a_{mid+1}, no caching): about 2*log2 n
// queries per game, over the budget on large games.
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
        while (lo < hi) {
            long long mid = lo + (hi - lo) / 2;
            long long last = ask(hi), v = ask(mid);
            if (v > last) lo = mid + 1; else hi = mid;
        }
        cout << "! " << lo << endl;
    }
}
