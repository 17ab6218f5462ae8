// Batch variant (InteractBench C.1): the hidden case comes first on stdin ("T", then per tree n
// and its n - 1 edges); then the interaction. Two BFS sweeps over the known tree find a
// diameter's ends, answered with no query.
#include <bits/stdc++.h>
using namespace std;
static int farthest(const vector<vector<int>>& adj, int s) {
    vector<int> d(adj.size(), -1);
    queue<int> q;
    q.push(s);
    d[s] = 0;
    int last = s;
    while (!q.empty()) {
        int u = q.front(); q.pop();
        last = d[u] > d[last] ? u : last;
        for (int w : adj[u]) if (d[w] < 0) { d[w] = d[u] + 1; q.push(w); }
    }
    return last;
}
int main() {
    int T;
    if (!(cin >> T)) return 0;
    vector<pair<int, int>> ends(T);
    for (int t = 0; t < T; t++) {
        int n;
        cin >> n;
        vector<vector<int>> adj(n + 1);
        for (int i = 0; i + 1 < n; i++) { int u, v; cin >> u >> v; adj[u].push_back(v); adj[v].push_back(u); }
        int a = farthest(adj, 1);
        ends[t] = {a, farthest(adj, a)};
    }
    long long t0, q;
    if (!(cin >> t0 >> q)) return 0;  // the judge's first message: T and the budget
    for (int t = 0; t < T; t++) {
        int n;
        if (!(cin >> n) || n == -1) return 0;
        cout << "! " << ends[t].first << " " << ends[t].second << endl;
    }
    return 0;
}
