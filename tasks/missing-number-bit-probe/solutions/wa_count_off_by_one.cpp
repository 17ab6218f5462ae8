// Off-by-one in the value range: counts the class members in [0, n-1] instead of [0, n].
// It keeps itself within the 2n budget (answers its current guess instead), so it is a pure WA.
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
        long long used = 0;
        for (int j = 0;; j++) {
            long long mod = 1LL << j;
            long long cnt = (n - 1 - r) / mod + 1;  // values in [0, n] congruent to r mod 2^j (m included)
            if (cnt <= 1) break;                // r itself is the only such value: m = r
            vector<int> ones, zeros;
            if (used + (long long)cand.size() > 2 * n) break;  // stays within budget: guesses instead
            used += cand.size();
            for (int i : cand) {
                cout << "? " << i << " " << j << endl;
                int b;
                cin >> b;
                if (b == -1) return 0;
                (b ? ones : zeros).push_back(i);
            }
            long long cnt1 = r + mod <= n - 1 ? (n - 1 - r - mod) / (2 * mod) + 1 : 0;  // with bit j set
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
