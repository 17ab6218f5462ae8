// Batch variant (InteractBench C.1): the hidden case comes first on stdin ("T", then per game
// n and the n values); then the interaction. Finds each missing number from the case, no query.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    if (!(cin >> T)) return 0;
    vector<int> missing(T);
    for (int g = 0; g < T; g++) {
        int n;
        cin >> n;
        vector<char> seen(n + 1, 0);
        for (int i = 0; i < n; i++) { int v; cin >> v; seen[v] = 1; }
        for (int v = 0; v <= n; v++) if (!seen[v]) missing[g] = v;
    }
    int t;
    if (!(cin >> t)) return 0;  // the judge's first message: T
    for (int g = 0; g < T; g++) {
        int n;
        if (!(cin >> n) || n == -1) return 0;
        cout << "! " << missing[g] << endl;
    }
    return 0;
}
