// Stores the tree 0-based and forgets to convert back: asks "? 0"-style labels (vertex 1 is
// printed as 0), which is outside [1, n].
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n, Q;
    cin >> n >> Q;
    vector<vector<int>> adj(n);
    for (int i = 0; i + 1 < n; i++) {
        int a, b;
        cin >> a >> b;
        a--, b--;
        adj[a].push_back(b);
        adj[b].push_back(a);
    }
    // Walk from the vertex of largest degree (0-based), printing 0-based labels.
    int cur = 0;
    for (int v = 0; v < n; v++) if (adj[v].size() > adj[cur].size()) cur = v;
    for (int used = 0; used < Q; used++) {
        cout << "? " << cur << endl;  // should be cur + 1
        int r;
        cin >> r;
        if (r <= 0) break;
        cur = r - 1;
    }
    cout << "! " << cur << endl;
}
