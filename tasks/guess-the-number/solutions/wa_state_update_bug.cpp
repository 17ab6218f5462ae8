// Bug: on '>' sets lo = mid instead of mid + 1, so it can stall on [lo, lo + 1]. It caps itself
// at floor(log2 n) + 1 queries per game (never over budget) and then guesses lo: wrong answers.
#include <bits/stdc++.h>
using namespace std;
int main() {
    long long T, Q;
    cin >> T >> Q;
    for (long long g = 0; g < T; g++) {
        long long n;
        cin >> n;
        if (n == -1) return 0;
        int cap = 0;
        while ((2LL << cap) <= n) cap++;
        cap++;
        long long lo = 1, hi = n;
        for (int used = 0; lo < hi && used < cap; used++) {
            long long mid = lo + (hi - lo) / 2;
            cout << "? " << mid << endl;
            string r;
            cin >> r;
            if (r == "-1") return 0;
            if (r == "=") { lo = hi = mid; break; }
            if (r == "<") hi = mid - 1; else lo = mid;  // bug
        }
        cout << "! " << lo << endl;
    }
}
