// Three-way binary search on [lo, hi]; at most floor(log2 n) + 1 queries per game.
#include <bits/stdc++.h>
using namespace std;
int main() {
    long long T, Q;
    if (!(cin >> T >> Q)) return 0;
    for (long long g = 0; g < T; g++) {
        long long n;
        cin >> n;
        if (n == -1) return 0;
        long long lo = 1, hi = n;
        while (lo < hi) {
            long long mid = lo + (hi - lo) / 2;
            cout << "? " << mid << endl;
            string r;
            cin >> r;
            if (r == "-1") return 0;
            if (r == "=") { lo = hi = mid; break; }
            if (r == "<") hi = mid - 1; else lo = mid + 1;
        }
        cout << "! " << lo << endl;
    }
    return 0;
}
