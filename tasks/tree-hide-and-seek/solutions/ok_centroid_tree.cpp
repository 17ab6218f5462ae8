// Builds the whole centroid decomposition first (iteratively), then walks it: ask the root
// centroid; a reply r leads to the child centroid whose piece contains r (climb from r in the
// centroid tree to the level just below). Depth of the decomposition <= floor(log2 n).
#include <bits/stdc++.h>
using namespace std;
int n;
vector<vector<int>> adj;
vector<int> cpar, clevel, sz;
vector<char> removed_;

int find_centroid(int root, vector<int>& order, vector<int>& par) {
    order.assign(1, root);
    par[root] = 0;
    for (size_t k = 0; k < order.size(); k++)
        for (int v : adj[order[k]])
            if (!removed_[v] && v != par[order[k]]) { par[v] = order[k]; order.push_back(v); }
    int m = (int)order.size();
    for (int u : order) sz[u] = 1;
    for (int k = m - 1; k > 0; k--) sz[par[order[k]]] += sz[order[k]];
    for (int u : order) {
        int worst = m - sz[u];
        for (int v : adj[u]) if (!removed_[v] && v != par[u]) worst = max(worst, sz[v]);
        if (worst * 2 <= m) return u;
    }
    return root;
}

int main() {
    int Q;
    cin >> n >> Q;
    adj.assign(n + 1, {});
    for (int i = 0; i + 1 < n; i++) {
        int a, b;
        cin >> a >> b;
        adj[a].push_back(b);
        adj[b].push_back(a);
    }
    cpar.assign(n + 1, 0);
    clevel.assign(n + 1, 0);
    sz.assign(n + 1, 0);
    removed_.assign(n + 1, 0);
    vector<int> order, par(n + 1);
    vector<vector<int>> piece_size(1);  // unused, kept simple
    vector<int> csize(n + 1, 0);
    // Work list of (any vertex of a piece, centroid parent, level).
    vector<array<int, 3>> work = {{1, 0, 0}};
    int root = 0;
    while (!work.empty()) {
        auto [start, p, level] = work.back();
        work.pop_back();
        int c = find_centroid(start, order, par);
        csize[c] = (int)order.size();
        cpar[c] = p;
        clevel[c] = level;
        if (!p) root = c;
        removed_[c] = 1;
        for (int v : adj[c]) if (!removed_[v]) work.push_back({v, c, level + 1});
    }
    int cur = root;
    while (true) {
        if (csize[cur] == 1) { cout << "! " << cur << endl; return 0; }
        cout << "? " << cur << endl;
        int r;
        cin >> r;
        if (r < 0) return 0;
        if (r == 0) { cout << "! " << cur << endl; return 0; }
        int v = r;
        while (clevel[v] > clevel[cur] + 1) v = cpar[v];
        cur = v;
    }
}
