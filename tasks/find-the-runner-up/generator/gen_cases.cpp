// Generator for find-the-runner-up: gen <seed> [--mode adp] [--n N | --nmin A --nmax B] [--tie T]
// Prints "n seed tie": the adaptive interactor seeds its own tie-breaking from `seed`;
// tie 0 = random, 1 = prefer the lower index, 2 = prefer the higher index.
#include "testlib.h"
#include <cstdio>

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "adp");
    int n = opt<int>("n", 0);
    int nmin = opt<int>("nmin", 2), nmax = opt<int>("nmax", 1000);
    int tie = opt<int>("tie", -1);
    ensuref(mode == "adp", "find-the-runner-up has only adaptive cases");
    ensuref(2 <= nmin && nmin <= nmax && nmax <= 1000, "bad n range");
    if (n == 0) n = rnd.next(nmin, nmax);
    ensuref(2 <= n && n <= 1000, "n out of range");
    if (tie < 0) tie = rnd.next(0, 2);
    int seed = rnd.next(1, 1000000000);
    printf("%d %d %d\n", n, seed, tie);
    return 0;
}
