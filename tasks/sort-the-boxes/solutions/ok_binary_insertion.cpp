// Binary insertion sort: inserting the k-th box into the sorted prefix of k - 1 boxes takes at
// most ceil(log2 k) comparisons (std::upper_bound), for sum ceil(log2 k) in total.
#include "boxes.h"
#include <algorithm>
#include <vector>

std::vector<int> sort_boxes(int n) {
    std::vector<int> sorted;
    for (int b = 1; b <= n; b++) {
        auto pos = std::upper_bound(sorted.begin(), sorted.end(), b,
                                    [](int x, int y) { return compare(x, y) < 0; });
        sorted.insert(pos, b);
    }
    return sorted;
}
