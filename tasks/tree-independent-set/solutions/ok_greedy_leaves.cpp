// Greedy from the leaves up: process vertices in reverse BFS order and invite a vertex when
// none of its children is invited. Taking a leaf is never worse, so this is optimal.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n;
    scanf("%d", &n);
    vector<vector<int>> adj(n + 1);
    for (int i = 0; i + 1 < n; i++) {
        int u, v;
        scanf("%d %d", &u, &v);
        adj[u].push_back(v);
        adj[v].push_back(u);
    }
    vector<int> order = {1}, parent(n + 1, 0);
    parent[1] = -1;
    for (size_t k = 0; k < order.size(); k++)
        for (int v : adj[order[k]])
            if (v != parent[order[k]]) { parent[v] = order[k]; order.push_back(v); }
    vector<char> taken(n + 1, 0), blocked(n + 1, 0);
    for (int k = n - 1; k >= 0; k--) {
        int u = order[k];
        if (!blocked[u]) {
            taken[u] = 1;
            if (parent[u] > 0) blocked[parent[u]] = 1;
        }
    }
    vector<int> res;
    for (int v = 1; v <= n; v++) if (taken[v]) res.push_back(v);
    printf("%d\n", (int)res.size());
    for (size_t i = 0; i < res.size(); i++) printf("%d%c", res[i], i + 1 == res.size() ? '\n' : ' ');
    if (res.empty()) printf("\n");
}
