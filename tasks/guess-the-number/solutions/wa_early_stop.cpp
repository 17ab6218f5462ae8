// Bug: stops searching when two candidates remain and guesses the smaller one.
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
        while (hi - lo >= 2) {  // should be lo < hi
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
}
