// Finds the vertex optimally, then asks about it again until it has used Q + 1 queries, and
// answers correctly. The interactor keeps answering and accepts the answer; the harness must
// still label the run QLE (queries > query_limit).
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
    int used = 0;
    auto ask = [&](int u) {
        printf("? %d\n", u);
        fflush(stdout);
        used++;
        int r;
        if (scanf("%d", &r) != 1 || r < 0) exit(0);
        return r;
    };
    vector<char> alive(n + 1, 1);
    vector<int> comp(n), parent(n + 1), sz(n + 1);
    iota(comp.begin(), comp.end(), 1);
    int found = 0;
    while (!found) {
        if (comp.size() == 1) { found = comp[0]; break; }
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
        int r = ask(c);
        if (r == 0) { found = c; break; }
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
    while (used <= Q) ask(found);  // one query over the budget
    printf("! %d\n", found);
    fflush(stdout);
}
