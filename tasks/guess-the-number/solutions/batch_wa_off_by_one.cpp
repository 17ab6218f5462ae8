// Batch variant: reads the hidden case, then answers the first game with n >= 2 wrongly (x + 1,
// or x - 1 at the top of the range: still within [1, n], protocol-compliant) and the rest right.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    if (!(cin >> T)) return 0;
    vector<long long> n(T), x(T);
    for (int i = 0; i < T; i++) cin >> n[i] >> x[i];
    long long t, q;
    if (!(cin >> t >> q)) return 0;
    bool wrong = false;
    for (int g = 0; g < T; g++) {
        long long m;
        cin >> m;
        if (m == -1) return 0;
        long long y = x[g];
        if (!wrong && n[g] >= 2) {
            y = x[g] < n[g] ? x[g] + 1 : x[g] - 1;
            wrong = true;
        }
        cout << "! " << y << endl;
    }
    return 0;
}
