// Batch variant: reads the hidden case, then answers the first game with L >= 2 with
// (x + 1) mod L (in range, wrong) and every other game right.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    if (!(cin >> T)) return 0;
    vector<long long> L(T), x(T);
    for (int g = 0; g < T; g++) cin >> L[g] >> x[g];
    long long t, q;
    if (!(cin >> t >> q)) return 0;
    bool wrong = false;
    for (int g = 0; g < T; g++) {
        long long l;
        if (!(cin >> l) || l == -1) return 0;
        long long y = x[g];
        if (!wrong && L[g] >= 2) { y = (x[g] + 1) % L[g]; wrong = true; }
        cout << "! " << y << endl;
    }
    return 0;
}
