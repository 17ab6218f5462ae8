// Centroid search that never handles the reply 0 ("you asked the hidden vertex"): it assumes
// every reply is a neighbour and, seeing 0, moves on to the side of the centroid's first
// neighbour. It stays within the budget and then names a vertex of the wrong side.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n, Q;
    scanf("%d %d", &n, &Q);
    vector<vector<int>> adj(n + 1);
    for (int i = 0; i + 1 < n; i++) {
        int a, b;
        scanf("%d %d", &a, &b);
        adj[a].push_back(b);
        adj[b].push_back(a);
    }
    vector<char> alive(n + 1, 1);
    vector<int> comp(n), parent(n + 1), sz(n + 1);
    iota(comp.begin(), comp.end(), 1);
    while (comp.size() > 1) {
        vector<int> order = {comp[0]};
        parent[comp[0]] = 0;
        for (size_t k = 0; k < order.size(); k++)
            for (int v : adj[order[k]])
                if (alive[v] && v != parent[order[k]]) { parent[v] = order[k]; order.push_back(v); }
        int m = (int)order.size();
        for (int u : order) sz[u] = 1;
        for (int k = m - 1; k > 0; k--) sz[parent[order[k]]] += sz[order[k]];
        int c = order[0];
        for (int u : order) {
            int worst = m - sz[u];
            for (int v : adj[u]) if (alive[v] && v != parent[u]) worst = max(worst, sz[v]);
            if (worst * 2 <= m) { c = u; break; }
        }
        printf("? %d\n", c);
        fflush(stdout);
        int r;
        if (scanf("%d", &r) != 1 || r < 0) return 0;
        if (r == 0)  // bug: the "found it" reply is treated like a direction
            for (int v : adj[c]) if (alive[v]) { r = v; break; }
        vector<char> inold(n + 1, 0);
        for (int u : order) { inold[u] = 1; alive[u] = 0; }
        inold[c] = 0;
        vector<int> next = {r};
        alive[r] = 1;
        for (size_t k = 0; k < next.size(); k++)
            for (int v : adj[next[k]])
                if (inold[v] && !alive[v]) { alive[v] = 1; next.push_back(v); }
        comp = next;
    }
    printf("! %d\n", comp[0]);
    fflush(stdout);
}
