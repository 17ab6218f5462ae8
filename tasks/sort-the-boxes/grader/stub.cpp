// Grader stub for "Sort the Boxes": owns main and forwards every call to the manager (the task's
// interactor) over stdin/stdout. The manager alone counts the comparisons and decides the
// verdict; nothing printed here or by the solution can change it.
//   manager -> stub: "n B"            stub -> manager: "? i j" per compare call
//   manager -> stub: "-1" or "1"      stub -> manager: "! p_1 ... p_n" when sort_boxes returns
// A reply of 0 means the manager has stopped the run: the stub exits at once.
#include "boxes.h"
#include <cstdio>
#include <cstdlib>
#include <vector>

int compare(int i, int j) {
    std::printf("? %d %d\n", i, j);
    std::fflush(stdout);
    int r;
    if (std::scanf("%d", &r) != 1 || (r != -1 && r != 1)) std::exit(0);
    return r;
}

int main() {
    int n;
    long long budget;
    if (std::scanf("%d %lld", &n, &budget) != 2) return 0;
    std::vector<int> order = sort_boxes(n);
    std::printf("!");
    for (int v : order) std::printf(" %d", v);
    std::printf("\n");
    std::fflush(stdout);
    return 0;
}
