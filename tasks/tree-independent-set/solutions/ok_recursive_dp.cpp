// Classic DP, written recursively: in[v] / out[v] = best in v's subtree with v invited / not.
// On a path of 10^5 houses the recursion is 10^5 deep: fine, the stack gets the memory limit.
#include <bits/stdc++.h>
using namespace std;
vector<vector<int>> adj;
vector<int> in_, out_;
void dfs(int v, int p) {
    in_[v] = 1;
    out_[v] = 0;
    for (int c : adj[v]) {
        if (c == p) continue;
        dfs(c, v);
        in_[v] += out_[c];
        out_[v] += max(in_[c], out_[c]);
    }
}
void collect(int v, int p, bool can_take, vector<int>& res) {
    bool take = can_take && in_[v] >= out_[v];
    if (take) res.push_back(v);
    for (int c : adj[v]) if (c != p) collect(c, v, !take, res);
}
int main() {
    int n;
    cin >> n;
    adj.assign(n + 1, {});
    in_.assign(n + 1, 0);
    out_.assign(n + 1, 0);
    for (int i = 0; i + 1 < n; i++) {
        int u, v;
        cin >> u >> v;
        adj[u].push_back(v);
        adj[v].push_back(u);
    }
    dfs(1, 0);
    vector<int> res;
    collect(1, 0, true, res);
    cout << res.size() << "\n";
    for (size_t i = 0; i < res.size(); i++) cout << res[i] << (i + 1 == res.size() ? "" : " ");
    cout << "\n";
}
