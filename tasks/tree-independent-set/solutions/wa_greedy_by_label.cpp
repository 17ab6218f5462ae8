// Greedy in label order: invite a house when no neighbour is invited yet. Valid but not optimal.
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
    vector<char> taken(n + 1, 0);
    vector<int> res;
    for (int v = 1; v <= n; v++) {
        bool free_ = true;
        for (int w : adj[v]) free_ = free_ && !taken[w];
        if (free_) { taken[v] = 1; res.push_back(v); }
    }
    printf("%d\n", (int)res.size());
    for (size_t i = 0; i < res.size(); i++) printf("%d%c", res[i], i + 1 == res.size() ? '\n' : ' ');
}
