// Gives a wrong answer in the first game with n >= 2 and then keeps printing answers forever,
// ignoring the interactor's -1. The interactor's WA stands (the SIGPIPE after it is not an RE).
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
            long long wrong = lo == n ? lo - 1 : lo + 1;
            while (true) cout << "! " << wrong << endl;
        }
        cout << "! " << lo << endl;
    }
}
