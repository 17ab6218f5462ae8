// Batch variant: reads the case, then answers (missing + 1) mod (n + 1): in [0, n], wrong.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    if (!(cin >> T)) return 0;
    vector<int> missing(T), size(T);
    for (int g = 0; g < T; g++) {
        int n;
        cin >> n;
        size[g] = n;
        vector<char> seen(n + 1, 0);
        for (int i = 0; i < n; i++) { int v; cin >> v; seen[v] = 1; }
        for (int v = 0; v <= n; v++) if (!seen[v]) missing[g] = v;
    }
    int t;
    if (!(cin >> t)) return 0;
    for (int g = 0; g < T; g++) {
        int n;
        if (!(cin >> n) || n == -1) return 0;
        cout << "! " << (missing[g] + 1) % (size[g] + 1) << endl;
    }
    return 0;
}
