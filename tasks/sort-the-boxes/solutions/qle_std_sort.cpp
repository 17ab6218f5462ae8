// Hands the balance to std::sort: correct order, but introsort (with its insertion-sort
// finish) makes more comparisons than the budget on the larger tests.
#include "boxes.h"
#include <algorithm>
#include <vector>

std::vector<int> sort_boxes(int n) {
    std::vector<int> a(n);
    for (int i = 0; i < n; i++) a[i] = i + 1;
    std::sort(a.begin(), a.end(), [](int x, int y) { return compare(x, y) < 0; });
    return a;
}
