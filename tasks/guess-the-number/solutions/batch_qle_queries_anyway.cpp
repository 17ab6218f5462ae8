// Batch variant: knows every answer from the hidden case, but first asks "? 1" over and over
// (one more query than the whole budget allows), then answers: QLE, not OK.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    if (!(cin >> T)) return 0;
    vector<long long> n(T), x(T);
    for (int i = 0; i < T; i++) cin >> n[i] >> x[i];
    long long t, q;
    if (!(cin >> t >> q)) return 0;
    for (int g = 0; g < T; g++) {
        long long m;
        cin >> m;
        if (m == -1) return 0;
        if (g == 0) {
            for (long long k = 0; k <= q; k++) {
                cout << "? 1" << endl;
                string r;
                if (!(cin >> r) || r == "-1") return 0;
            }
        }
        cout << "! " << x[g] << endl;
    }
    return 0;
}
