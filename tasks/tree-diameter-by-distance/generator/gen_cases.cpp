// Generator for tree-diameter-by-distance: gen <seed> [--mode non] [--type TYPE] [--games G] [--nmin A] [--nmax B]
// Prints T, then per tree: n and its n-1 edges. Each tree has nmin <= n <= nmax (sum of n <= 3000).
// Types: random (random parent), deep (long random tree), path, star, caterpillar, binary,
//        broom, center1 (vertex 1 is the middle of the unique longest path), farn (vertex n is the
//        unique vertex farthest from vertex 1 and an endpoint of the unique longest path),
//        mixed (each tree one of the above).
#include "testlib.h"
#include <string>
#include <utility>
#include <vector>

typedef std::vector<std::pair<int, int>> Edges;

// Attach vertices to spine vertex i with depth < min(i, L - i) so the spine stays the unique
// longest path. Vertices are numbered from `next`; returns the new next.
static int add_branches(Edges& e, const std::vector<int>& spine, int extra, int next) {
    int L = (int)spine.size() - 1;
    std::vector<std::pair<int, int>> slots;  // (vertex, depth from spine) that may take a child
    for (int i = 1; i < L; i++) slots.push_back({spine[i], 0});
    std::vector<int> limit(next + extra + 1, 0);
    for (int i = 1; i < L; i++) limit[spine[i]] = std::min(i, L - i) - 1;  // max extra depth
    std::vector<int> depth(next + extra + 1, 0), root(next + extra + 1, 0);
    for (int i = 1; i < L; i++) root[spine[i]] = spine[i];
    std::vector<int> pool;
    for (int i = 1; i < L; i++)
        if (limit[spine[i]] >= 1) pool.push_back(spine[i]);
    for (int k = 0; k < extra && !pool.empty(); k++) {
        int p = pool[rnd.next((int)pool.size())];
        int v = next++;
        e.push_back({p, v});
        root[v] = root[p];
        depth[v] = depth[p] + 1;
        limit[v] = limit[root[v]];
        if (depth[v] < limit[v]) pool.push_back(v);
    }
    return next;
}

// Returns edges on vertices 0..n-1 and fills `pin`: internal vertices that must get labels 1 and n
// (or -1 for no constraint).
static Edges build(const std::string& type, int n, int& pin1, int& pinn) {
    Edges e;
    pin1 = pinn = -1;
    if (type == "random" || type == "deep") {
        for (int v = 1; v < n; v++) {
            int p = type == "random" ? rnd.next(0, v - 1) : std::max(0, v - 1 - rnd.wnext(std::min(v, 3), -5));
            e.push_back({p, v});
        }
    } else if (type == "path") {
        for (int v = 1; v < n; v++) e.push_back({v - 1, v});
    } else if (type == "star") {
        for (int v = 1; v < n; v++) e.push_back({0, v});
    } else if (type == "caterpillar") {
        int spine = std::max(2, n / 3);
        for (int v = 1; v < spine; v++) e.push_back({v - 1, v});
        for (int v = spine; v < n; v++) e.push_back({rnd.next(0, spine - 1), v});
    } else if (type == "binary") {
        for (int v = 1; v < n; v++) e.push_back({(v - 1) / 2, v});
    } else if (type == "broom") {
        int handle = std::max(1, n / 2);
        for (int v = 1; v <= handle && v < n; v++) e.push_back({v - 1, v});
        for (int v = handle + 1; v < n; v++) e.push_back({handle, v});
    } else if (type == "center1" || type == "farn") {
        // spine 0..L plus branches that keep the spine the unique longest path
        int L = n >= 5 ? rnd.next(4, n - 1) : n - 1;
        if (type == "center1" && L % 2 == 1 && L > 1) L--;
        std::vector<int> spine(L + 1);
        for (int i = 0; i <= L; i++) spine[i] = i;
        for (int i = 1; i <= L; i++) e.push_back({i - 1, i});
        int next = add_branches(e, spine, n - (L + 1), L + 1);
        while (next < n) e.push_back({spine[L / 2], next++});  // only for tiny n (L < 4)
        if (type == "center1") {
            pin1 = spine[L / 2];
        } else {
            pin1 = spine[rnd.next(0, std::max(0, (L - 1) / 2 - 1))];  // strictly closer to spine[0]
            pinn = spine[L];
        }
    } else {
        ensuref(false, "unknown type %s", type.c_str());
    }
    return e;
}

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "non");
    std::string type = opt<std::string>("type", "random");
    int games = opt<int>("games", 1);
    int nmin = opt<int>("nmin", 2), nmax = opt<int>("nmax", 1000);
    ensuref(mode == "non", "only non-adaptive cases");
    ensuref(1 <= games && games <= 100 && 2 <= nmin && nmin <= nmax && nmax <= 1000, "bad options");
    ensuref((long long)games * nmax <= 3000, "sum of n may exceed 3000");
    const char* kinds[] = {"random", "deep", "path", "star", "caterpillar", "binary", "broom", "center1", "farn"};
    printf("%d\n", games);
    for (int g = 0; g < games; g++) {
        int n = rnd.next(nmin, nmax);
        std::string t = type == "mixed" ? kinds[rnd.next(9)] : type;
        int pin1, pinn;
        Edges e = build(t, n, pin1, pinn);
        ensuref((int)e.size() == n - 1, "edge count");
        // labels: random permutation of 1..n honouring the pins
        std::vector<int> lab(n);
        for (int i = 0; i < n; i++) lab[i] = i + 1;
        shuffle(lab.begin(), lab.end());
        auto pin = [&](int v, int want) {
            if (v < 0) return;
            for (int i = 0; i < n; i++)
                if (lab[i] == want) { std::swap(lab[i], lab[v]); break; }
        };
        pin(pin1, 1);
        pin(pinn, n);
        shuffle(e.begin(), e.end());
        printf("%d\n", n);
        for (auto& pr : e) {
            if (rnd.next(2)) std::swap(pr.first, pr.second);
            printf("%d %d\n", lab[pr.first], lab[pr.second]);
        }
    }
    return 0;
}
