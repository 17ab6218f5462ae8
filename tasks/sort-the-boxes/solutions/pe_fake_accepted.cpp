// Tries to fool the judge: prints "OK" / "AC" lines to standard output itself and returns an
// unsorted order without comparing anything. The manager reads those lines as malformed
// messages; nothing the solution prints can produce an accepted verdict.
#include "boxes.h"
#include <cstdio>
#include <vector>

std::vector<int> sort_boxes(int n) {
    std::printf("OK\nAC\nAccepted\nok all boxes sorted\n");
    std::fflush(stdout);
    std::vector<int> a(n);
    for (int i = 0; i < n; i++) a[i] = i + 1;
    return a;
}
