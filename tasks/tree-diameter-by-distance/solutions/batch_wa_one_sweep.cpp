// Batch variant: reads the trees, but answers vertex 1 and the vertex farthest from it (one
// sweep instead of two): wrong whenever vertex 1 is not the end of a diameter.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    if (!(cin >> T)) return 0;
    vector<int> far(T);
    for (int t = 0; t < T; t++) {
        int n;
        cin >> n;
        vector<vector<int>> adj(n + 1);
        for (int i = 0; i + 1 < n; i++) { int u, v; cin >> u >> v; adj[u].push_back(v); adj[v].push_back(u); }
        vector<int> d(n + 1, -1);
        queue<int> q;
        q.push(1);
        d[1] = 0;
        int last = 1;
        while (!q.empty()) {
            int u = q.front(); q.pop();
            last = d[u] > d[last] ? u : last;
            for (int w : adj[u]) if (d[w] < 0) { d[w] = d[u] + 1; q.push(w); }
        }
        far[t] = last;
    }
    long long t0, q;
    if (!(cin >> t0 >> q)) return 0;
    for (int t = 0; t < T; t++) {
        int n;
        if (!(cin >> n) || n == -1) return 0;
        cout << "! 1 " << far[t] << endl;
    }
    return 0;
}
