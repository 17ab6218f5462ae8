// Protocol error: prints 0-based indices, so the very first query asks index 0 (outside [1, n]).
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    if (!(cin >> T)) return 0;
    for (int g = 0; g < T; g++) {
        long long n;
        cin >> n;
        if (n == -1) return 0;
        vector<int> cand(n);
        iota(cand.begin(), cand.end(), 1);
        long long r = 0;  // the low j bits of m
        for (int j = 0;; j++) {
            long long mod = 1LL << j;
            long long cnt = (n - r) / mod + 1;  // values in [0, n] congruent to r mod 2^j (m included)
            if (cnt <= 1) break;                // r itself is the only such value: m = r
            vector<int> ones, zeros;
            for (int i : cand) {
                cout << "? " << i - 1 << " " << j << endl;  // BUG: 0-based index
                int b;
                cin >> b;
                if (b == -1) return 0;
                (b ? ones : zeros).push_back(i);
            }
            long long cnt1 = r + mod <= n ? (n - r - mod) / (2 * mod) + 1 : 0;  // with bit j set
            if ((long long)ones.size() < cnt1) {
                r += mod;
                cand.swap(ones);
            } else {
                cand.swap(zeros);
            }
        }
        cout << "! " << r << endl;
    }
    return 0;
}
