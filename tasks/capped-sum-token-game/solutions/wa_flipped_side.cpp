// Flipped decision: computes the DP correctly but announces the other side, then plays as
// well as it can; the interactor punishes every game that starts in the wrong state.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    if (!(cin >> T)) return 0;
    while (T--) {
        int m;
        long long S;
        cin >> m >> S;
        vector<long long> v(m);
        for (auto& x : v) cin >> x;
        int full = 1 << m;
        vector<long long> sum(full, 0);
        vector<char> win(full, 0);
        for (int mask = 1; mask < full; mask++) sum[mask] = sum[mask & (mask - 1)] + v[__builtin_ctz(mask)];
        for (int mask = full - 1; mask >= 0; mask--) {
            if (sum[mask] > S) continue;
            for (int i = 0; i < m; i++)
                if (!(mask >> i & 1) && sum[mask] + v[i] <= S && !win[mask | 1 << i]) { win[mask] = 1; break; }
        }
        int mask = 0;
        bool myTurn = !win[0];  // BUG: flipped
        cout << (myTurn ? "First" : "Second") << endl;
        while (true) {
            if (myTurn) {
                int pick = -1;
                for (int i = 0; i < m && pick < 0; i++)
                    if (!(mask >> i & 1) && sum[mask] + v[i] <= S && !win[mask | 1 << i]) pick = i;
                for (int i = 0; i < m && pick < 0; i++)  // (only if already lost)
                    if (!(mask >> i & 1) && sum[mask] + v[i] <= S) pick = i;
                if (pick < 0) return 0;
                mask |= 1 << pick;
                cout << pick + 1 << endl;
            } else {
                int t;
                if (!(cin >> t)) return 0;
                if (t == 0) break;  // the interactor cannot move: this game is won
                mask |= 1 << (t - 1);
            }
            myTurn = !myTurn;
        }
    }
    return 0;
}
