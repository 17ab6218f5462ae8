// Generator for tournament-hamiltonian-path:
//   gen <seed> [--mode adp] [--type small|max|random] [--games G] [--nmax N] [--strategy S] [--total S]
// Prints T, then per game "n strategy seed param" (see interactor/adaptive.cpp).
// small: n uniform in [1, nmax]; max: every n = nmax; random: n log-uniform in [1, nmax].
// --strategy any picks one of the eight strategies per game. The sum of n stays <= total (<= 3000).
#include "testlib.h"
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "adp");
    std::string type = opt<std::string>("type", "random");
    int games = opt<int>("games", 10);
    int nmax = opt<int>("nmax", 1000);
    std::string strategy = opt<std::string>("strategy", "any");
    int cap = opt<int>("total", 3000);
    ensuref(mode == "adp", "tournament-hamiltonian-path has only adaptive cases");
    ensuref(1 <= games && games <= 100 && 1 <= nmax && nmax <= 1000 && 1 <= cap && cap <= 3000, "bad options");
    const std::vector<std::string> all = {"rand", "order", "noisy", "idx", "revidx", "first", "last", "mid"};

    struct G { int n; std::string s; long long seed; int param; };
    std::vector<G> out;
    int total = 0;
    for (int g = 0; g < games; g++) {
        int n;
        if (type == "max") n = nmax;
        else if (type == "small") n = rnd.next(1, nmax);
        else {
            int bits = 0;
            while ((1 << (bits + 1)) <= nmax) bits++;
            int b = rnd.next(0, bits);
            n = rnd.next(1 << b, std::min(nmax, (2 << b) - 1));
        }
        if (total + n > cap) break;
        total += n;
        std::string s = strategy == "any" ? all[rnd.next((int)all.size())] : strategy;
        int param = s == "noisy" ? rnd.next(1, 300) : 0;
        out.push_back({n, s, rnd.next(0LL, 1000000000000000000LL), param});
    }
    printf("%d\n", (int)out.size());
    for (auto& g : out) printf("%d %s %lld %d\n", g.n, g.s.c_str(), g.seed, g.param);
    return 0;
}
