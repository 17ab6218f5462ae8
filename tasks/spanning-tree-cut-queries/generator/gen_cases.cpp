// Generator for spanning-tree-cut-queries:
//   gen <seed> --mode non --kind K --games G --nmin A --nmax B
// One case on stdout: T, then T lines "n kind seed" (the interactor builds the graph).
// kind: one of the interactor's graph kinds, "any" (a random kind per game), or "small"
// (n cycles through 1..8 with random kinds). n is uniform in [nmin, nmax].
#include "testlib.h"
#include <cstdio>
#include <string>

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "non");
    std::string kind = opt<std::string>("kind", "any");
    int games = opt<int>("games", 10);
    int nmin = opt<int>("nmin", 1);
    int nmax = opt<int>("nmax", 200);
    ensuref(mode == "non", "spanning-tree-cut-queries has only non-adaptive cases");
    ensuref(1 <= games && games <= 100 && 1 <= nmin && nmin <= nmax && nmax <= 200, "bad options");
    const char* kinds[] = {"path", "cycle", "star", "tree", "binary", "caterpillar",
                           "broom", "sparse", "dense", "complete", "barbell"};
    printf("%d\n", games);
    for (int g = 0; g < games; g++) {
        int n = kind == "small" ? g % 8 + 1 : rnd.next(nmin, nmax);
        std::string k = (kind == "any" || kind == "small") ? kinds[rnd.next(11)] : kind;
        printf("%d %s %lld\n", n, k.c_str(), rnd.next(0LL, 1000000000000000000LL));
    }
    return 0;
}
