// Generator for tree-hide-and-seek:
//   gen <seed> [--mode non|adp] [--n N] [--shape S] [--hide H]
// Shapes: random, path, star, caterpillar, binary, spider, broom, deep (long random chains).
// Hide (non-adaptive only): random, leaf, centroid (first centroid an optimal solver asks),
//                           far (an end of a longest path).
// Output: "n x s" (x = hidden vertex, 0 for adaptive; s = tie-break seed, 0 for non-adaptive),
// then n-1 edges "u v" with shuffled labels, order and orientation.
#include "testlib.h"
#include <algorithm>
#include <cstdio>
#include <queue>
#include <vector>
using namespace std;

static int n;
static vector<int> par;  // par[i] for i >= 2, in generation labels 1..n

static void build(const string& shape) {
    par.assign(n + 1, 0);
    if (shape == "path") {
        for (int i = 2; i <= n; i++) par[i] = i - 1;
    } else if (shape == "star") {
        for (int i = 2; i <= n; i++) par[i] = 1;
    } else if (shape == "caterpillar") {
        int spine = max(1, n / 2);
        for (int i = 2; i <= spine; i++) par[i] = i - 1;
        for (int i = spine + 1; i <= n; i++) par[i] = rnd.next(1, spine);
    } else if (shape == "binary") {
        for (int i = 2; i <= n; i++) par[i] = i / 2;
    } else if (shape == "spider") {
        int legs = max(1, (int)rnd.next(2, 6));
        for (int i = 2; i <= n; i++) par[i] = i - legs >= 1 ? i - legs : 1;
    } else if (shape == "broom") {
        int handle = max(1, n * 2 / 3);
        for (int i = 2; i <= handle; i++) par[i] = i - 1;
        for (int i = handle + 1; i <= n; i++) par[i] = handle;
    } else if (shape == "deep") {
        for (int i = 2; i <= n; i++) par[i] = max(1, i - 1 - rnd.wnext(min(i - 1, 5), -3));
    } else if (shape == "random") {
        for (int i = 2; i <= n; i++) par[i] = rnd.next(1, i - 1);
    } else {
        quitf(_fail, "unknown shape %s", shape.c_str());
    }
}

static vector<vector<int>> adj;

static vector<int> bfs(int s) {
    vector<int> d(n + 1, -1);
    queue<int> q;
    q.push(s);
    d[s] = 0;
    while (!q.empty()) {
        int u = q.front(); q.pop();
        for (int v : adj[u]) if (d[v] < 0) { d[v] = d[u] + 1; q.push(v); }
    }
    return d;
}

static int centroid() {
    vector<int> order, parent(n + 1, 0), sz(n + 1, 1);
    vector<char> seen(n + 1, 0);
    order.push_back(1);
    seen[1] = 1;
    for (size_t k = 0; k < order.size(); k++)
        for (int v : adj[order[k]]) if (!seen[v]) { seen[v] = 1; parent[v] = order[k]; order.push_back(v); }
    for (int k = n - 1; k > 0; k--) sz[parent[order[k]]] += sz[order[k]];
    int best = 1, bestv = n + 1;
    for (int u = 1; u <= n; u++) {
        int worst = n - sz[u];
        for (int v : adj[u]) if (v != parent[u]) worst = max(worst, sz[v]);
        if (worst < bestv || (worst == bestv && u < best)) { bestv = worst; best = u; }
    }
    return best;
}

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    string mode = opt<string>("mode", "non");
    n = opt<int>("n", 1000);
    string shape = opt<string>("shape", "random");
    string hide = opt<string>("hide", "random");
    ensuref(mode == "non" || mode == "adp", "mode must be non or adp");
    ensuref(1 <= n && n <= 100000, "n out of range");
    build(shape);

    // Relabel and collect edges (in final labels).
    vector<int> label = rnd.perm(n, 1);
    label.insert(label.begin(), 0);
    vector<pair<int, int>> edges;
    adj.assign(n + 1, {});
    for (int i = 2; i <= n; i++) {
        int a = label[i], b = label[par[i]];
        if (rnd.next(2)) swap(a, b);
        edges.push_back({a, b});
        adj[a].push_back(b);
        adj[b].push_back(a);
    }
    rnd.shuffle(edges.begin(), edges.end());

    int x = 0, s = 0;
    if (mode == "non") {
        if (hide == "random") {
            x = rnd.next(1, n);
        } else if (hide == "leaf") {
            vector<int> leaves;
            for (int u = 1; u <= n; u++) if (adj[u].size() <= 1) leaves.push_back(u);
            x = leaves[rnd.next((int)leaves.size())];
        } else if (hide == "centroid") {
            x = centroid();
        } else if (hide == "far") {
            vector<int> d = bfs(1);
            int a = (int)(max_element(d.begin() + 1, d.end()) - d.begin());
            d = bfs(a);
            x = rnd.next(2) ? a : (int)(max_element(d.begin() + 1, d.end()) - d.begin());
        } else {
            quitf(_fail, "unknown hide %s", hide.c_str());
        }
    } else {
        s = rnd.next(1, 1000000000);
    }
    printf("%d %d %d\n", n, x, s);
    for (auto& e : edges) printf("%d %d\n", e.first, e.second);
    return 0;
}
