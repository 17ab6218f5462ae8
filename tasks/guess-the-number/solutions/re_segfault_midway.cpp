// Crashes (null-pointer write) right after the first reply it receives: the interactor then sees
// EOF and says PE, but the solver's crash makes the label RE.
#include <bits/stdc++.h>
using namespace std;
int* volatile nowhere = nullptr;
int main() {
    long long T, Q;
    cin >> T >> Q;
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
            *nowhere = 42;  // segfault
            if (r == "=") { lo = hi = mid; break; }
            if (r == "<") hi = mid - 1; else lo = mid + 1;
        }
        cout << "! " << lo << endl;
    }
}
