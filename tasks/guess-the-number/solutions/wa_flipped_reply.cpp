// Bug: reads '<' as "x is larger". Never exceeds the budget, but ends on wrong numbers.
#include <bits/stdc++.h>
using namespace std;
int main() {
    long long T, Q;
    cin >> T >> Q;
    for (long long g = 0; g < T; g++) {
        long long n;
        cin >> n;
        if (n == -1) return 0;
        long long lo = 1, hi = n, ans = -1;
        while (lo <= hi) {
            long long mid = lo + (hi - lo) / 2;
            if (lo == hi) { ans = lo; break; }
            cout << "? " << mid << endl;
            string r;
            cin >> r;
            if (r == "-1") return 0;
            if (r == "=") { ans = mid; break; }
            if (r == ">") hi = mid - 1; else lo = mid + 1;  // flipped
        }
        if (ans == -1) ans = min(max(lo, 1LL), n);
        cout << "! " << ans << endl;
    }
}
