// Query 0 to learn c = popcount(x); querying 2^i then gives c + 1 - 2*x_i, so bit i is known.
// The last bit is c minus the others: n queries per game.
#include <bits/stdc++.h>
using namespace std;
long long ask(long long y) {
    cout << "? " << y << endl;
    long long r;
    if (!(cin >> r) || r < 0) exit(0);
    return r;
}
int main() {
    int T;
    long long Q;
    cin >> T >> Q;
    while (T--) {
        int n;
        cin >> n;
        if (n < 0) return 0;
        long long c = ask(0), x = 0, ones = 0;
        for (int i = 0; i + 1 < n; i++) {
            long long r = ask(1LL << i);
            if (r < c) x |= 1LL << i, ones++;
        }
        if (c - ones == 1) x |= 1LL << (n - 1);
        cout << "! " << x << endl;
    }
}
