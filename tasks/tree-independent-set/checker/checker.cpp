// Checker for tree-independent-set: checker <in> <out> <ans>.
// The output must be k distinct houses, pairwise not adjacent, with k equal to the optimum
// (the first number of the jury's answer).
#include "testlib.h"
#include <vector>

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    int n = inf.readInt();
    std::vector<std::pair<int, int>> edges(n - 1);
    for (auto& e : edges) {
        e.first = inf.readInt();
        e.second = inf.readInt();
    }
    int best = ans.readInt();
    int k = ouf.readInt(0, n, "k");
    std::vector<char> chosen(n + 1, 0);
    for (int i = 0; i < k; i++) {
        int v = ouf.readInt(1, n, format("house[%d]", i + 1));
        if (chosen[v]) quitf(_wa, "house %d is listed twice", v);
        chosen[v] = 1;
    }
    for (auto& e : edges)
        if (chosen[e.first] && chosen[e.second])
            quitf(_wa, "houses %d and %d are both invited but share a road", e.first, e.second);
    if (k > best) quitf(_fail, "participant invited %d houses, more than the jury's %d", k, best);
    if (k < best) quitf(_wa, "only %d houses invited, %d are possible", k, best);
    quitf(_ok, "%d houses", k);
}
