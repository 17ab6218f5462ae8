// Off-by-one: treats the range as [1, n + 1) and opens every game by asking about n + 1.
#include <bits/stdc++.h>
using namespace std;
int main() {
    long long T, Q;
    cin >> T >> Q;
    for (long long g = 0; g < T; g++) {
        long long n;
        cin >> n;
        if (n == -1) return 0;
        long long lo = 1, hi = n + 1;  // exclusive end used as a value
        cout << "? " << hi << endl;
        string r;
        cin >> r;
        if (r == "-1") return 0;
        hi = n;
        while (lo < hi) {
            long long mid = lo + (hi - lo) / 2;
            cout << "? " << mid << endl;
            cin >> r;
            if (r == "-1") return 0;
            if (r == "=") { lo = hi = mid; break; }
            if (r == "<") hi = mid - 1; else lo = mid + 1;
        }
        cout << "! " << lo << endl;
    }
}
