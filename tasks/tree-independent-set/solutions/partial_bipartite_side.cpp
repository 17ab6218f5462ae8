// Colours the tree in two colours and invites the larger colour class. Always valid and optimal
// on paths (subtask 2), but not on general trees (a star with its centre coloured alone is fine,
// a "spider" is not).
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
    vector<int> color(n + 1, -1), order = {1};
    color[1] = 0;
    for (size_t k = 0; k < order.size(); k++)
        for (int v : adj[order[k]]) if (color[v] < 0) { color[v] = color[order[k]] ^ 1; order.push_back(v); }
    int ones = (int)count(color.begin() + 1, color.end(), 1);
    int pick = ones * 2 > n ? 1 : 0;
    vector<int> res;
    for (int v = 1; v <= n; v++) if (color[v] == pick) res.push_back(v);
    printf("%d\n", (int)res.size());
    for (size_t i = 0; i < res.size(); i++) printf("%d%c", res[i], i + 1 == res.size() ? '\n' : ' ');
}
