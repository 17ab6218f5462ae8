// Checker for increasing-partition: checker <in> <out> <ans>.
// Full score for a valid optimal partition; 0.5 for a valid one with k <= 2 * k_min groups;
// 0.2 for any other valid partition; WA/PE for invalid output.
#include "testlib.h"
#include <vector>

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    int n = inf.readInt();
    std::vector<long long> a(n);
    for (auto& x : a) x = inf.readLong();
    int best = ans.readInt();

    int k = ouf.readInt(1, n, "k");
    std::vector<long long> last(k + 1, 0);  // values are >= 1, so 0 means "empty so far"
    std::vector<int> used(k + 1, 0);
    for (int i = 0; i < n; i++) {
        int g = ouf.readInt(1, k, format("g[%d]", i + 1));
        if (last[g] >= a[i])
            quitf(_wa, "group %d is not strictly increasing at position %d (%lld after %lld)", g, i + 1,
                  a[i], last[g]);
        last[g] = a[i];
        used[g] = 1;
    }
    for (int g = 1; g <= k; g++)
        if (!used[g]) quitf(_wa, "group %d is empty", g);
    if (k < best) quitf(_fail, "participant found %d groups, fewer than the jury's %d", k, best);
    if (k == best) quitf(_ok, "optimal: %d groups", k);
    if (k <= 2 * best) quitp(0.5, format("valid but not optimal: %d groups, optimum %d", k, best));
    quitp(0.2, format("valid but far from optimal: %d groups, optimum %d", k, best));
}
