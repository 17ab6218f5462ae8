// Correct search, but in the last game it spends the rest of the budget plus one more query
// before answering: exactly Q + 1 queries in total.
#include <bits/stdc++.h>
using namespace std;
long long used = 0;
long long ask(long long i) {
    cout << "? " << i << endl;
    used++;
    long long v;
    if (!(cin >> v) || v == -1) exit(0);
    return v;
}
int main() {
    int T; long long Q;
    cin >> T >> Q;
    for (int g = 0; g < T; g++) {
        long long n;
        cin >> n;
        long long lo = 1, hi = n;
        if (n > 1) {
            long long last = ask(n);
            while (lo < hi) {
                long long mid = lo + (hi - lo) / 2;
                if (ask(mid) > last) lo = mid + 1; else hi = mid;
            }
        }
        if (g == T - 1)
            while (used < Q + 1) ask(1);
        cout << "! " << lo << endl;
    }
}
