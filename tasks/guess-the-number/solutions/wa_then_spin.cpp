// Gives a wrong answer in the first game with n >= 2 and then spins on the CPU without reading.
// The interactor says WA at once; the spin that follows must not turn it into TLE.
#include <bits/stdc++.h>
using namespace std;
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
            if (r == "=") { lo = hi = mid; break; }
            if (r == "<") hi = mid - 1; else lo = mid + 1;
        }
        if (n >= 2) {
            cout << "! " << (lo == n ? lo - 1 : lo + 1) << endl;  // deliberately wrong
            volatile unsigned long long s = 1;
            while (true) s = s * 2862933555777941757ULL + 3037000493ULL;
        }
        cout << "! " << lo << endl;
    }
}
