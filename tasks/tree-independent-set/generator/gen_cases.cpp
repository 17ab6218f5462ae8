// Generator for tree-independent-set: gen <seed> --n N --shape S
// Shapes: random, path, star, caterpillar, binary, deep, broom. Labels, edge order and edge
// orientation are shuffled.
#include "testlib.h"
#include <algorithm>
#include <cstdio>
#include <vector>
using namespace std;

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    int n = opt<int>("n");
    string shape = opt<string>("shape");
    ensuref(1 <= n && n <= 100000, "n out of range");
    vector<int> par(n + 1, 0);
    for (int i = 2; i <= n; i++) {
        if (shape == "path") par[i] = i - 1;
        else if (shape == "star") par[i] = 1;
        else if (shape == "caterpillar") par[i] = i <= (n + 1) / 2 ? i - 1 : rnd.next(1, (n + 1) / 2);
        else if (shape == "binary") par[i] = i / 2;
        else if (shape == "deep") par[i] = max(1, i - 1 - rnd.wnext(min(i - 1, 4), -4));
        else if (shape == "broom") par[i] = i <= n / 2 ? i - 1 : max(1, n / 2);
        else if (shape == "random") par[i] = rnd.next(1, i - 1);
        else quitf(_fail, "unknown shape %s", shape.c_str());
    }
    vector<int> label = rnd.perm(n, 1);
    label.insert(label.begin(), 0);
    vector<pair<int, int>> edges;
    for (int i = 2; i <= n; i++) {
        int a = label[i], b = label[par[i]];
        if (rnd.next(2)) swap(a, b);
        edges.push_back({a, b});
    }
    rnd.shuffle(edges.begin(), edges.end());
    printf("%d\n", n);
    for (auto& e : edges) printf("%d %d\n", e.first, e.second);
    return 0;
}
