// Component merging (Kruskal/Boruvka flavour): repeatedly take the smallest component C,
// binary-search the complement for a vertex adjacent to C, then binary-search C for its
// neighbour, and merge. Each merge costs ceil(log2(n-|C|)) + ceil(log2 |C|) <= 2 ceil(log2 n)
// queries. scanf/printf with fflush.
#include <cstdio>
#include <cstdlib>
#include <vector>
using namespace std;
static int n;
static vector<int> comp;  // component id of each vertex
static bool ask(const vector<int>& A, const vector<int>& B) {
    printf("? %d", (int)A.size());
    for (int x : A) printf(" %d", x);
    printf(" %d", (int)B.size());
    for (int x : B) printf(" %d", x);
    printf("\n");
    fflush(stdout);
    int r = -1;
    if (scanf("%d", &r) != 1 || (r != 0 && r != 1)) exit(0);
    return r == 1;
}
// Narrow `cand` (known to contain a vertex adjacent to `other`) down to one such vertex.
static int narrow(vector<int> cand, const vector<int>& other) {
    while (cand.size() > 1) {
        size_t h = (cand.size() + 1) / 2;
        vector<int> first(cand.begin(), cand.begin() + h), second(cand.begin() + h, cand.end());
        if (ask(first, other)) cand.swap(first);
        else cand.swap(second);
    }
    return cand[0];
}
int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        long long q;
        if (scanf("%d %lld", &n, &q) != 2) return 0;
        comp.assign(n + 1, 0);
        for (int v = 1; v <= n; v++) comp[v] = v;
        vector<pair<int, int>> edges;
        for (int merges = 0; merges < n - 1; merges++) {
            vector<int> size(n + 1, 0);
            for (int v = 1; v <= n; v++) size[comp[v]]++;
            int best = -1;
            for (int c = 1; c <= n; c++)
                if (size[c] > 0 && (best < 0 || size[c] < size[best])) best = c;
            vector<int> C, rest;
            for (int v = 1; v <= n; v++) (comp[v] == best ? C : rest).push_back(v);
            int r = narrow(rest, C);
            int s = narrow(C, vector<int>{r});
            edges.push_back({s, r});
            int old = comp[r];
            for (int v = 1; v <= n; v++)
                if (comp[v] == old) comp[v] = best;
        }
        printf("!");
        for (auto& e : edges) printf(" %d %d", e.first, e.second);
        printf("\n");
        fflush(stdout);
    }
    return 0;
}
