// Generator for light-coin-balance: gen <seed> --mode adp --type TYPE --games G --nmax N
// One case on stdout: T, then T lines "n tie_seed" (the interactor is adaptive: no coin is
// fixed; tie_seed only drives its choice between equally large outcomes).
// Types: exhaustive (n = 1, 2, ... up to G games), random (uniform n <= nmax),
//        loguniform, pow3 (n around 3^r: 3^r-2 .. 3^r+1), max (n = nmax).
#include "testlib.h"
#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "adp");
    std::string type = opt<std::string>("type", "random");
    int games = opt<int>("games", 10);
    int nmax = opt<int>("nmax", 1000);
    ensuref(mode == "adp", "light-coin-balance has only adaptive cases");
    ensuref(1 <= games && games <= 100 && 1 <= nmax && nmax <= 100000, "bad options");
    std::vector<int> ns;
    for (int g = 0; g < games; g++) {
        int n;
        if (type == "exhaustive") {
            n = std::min(nmax, g + 1);
        } else if (type == "random") {
            n = rnd.next(1, nmax);
        } else if (type == "loguniform") {
            int b = 0;
            while ((2 << b) <= nmax) b++;
            int e = rnd.next(0, b);
            n = rnd.next(1 << e, std::min(nmax, (2 << e) - 1));
        } else if (type == "pow3") {
            std::vector<int> c;
            for (long long p = 3; p - 2 <= nmax; p *= 3)
                for (long long d = -2; d <= 1; d++)
                    if (p + d >= 1 && p + d <= nmax) c.push_back((int)(p + d));
            n = c[rnd.next((int)c.size())];
        } else if (type == "max") {
            n = nmax;
        } else {
            quitf(_fail, "unknown type %s", type.c_str());
        }
        ns.push_back(n);
    }
    printf("%d\n", games);
    for (int n : ns) printf("%d %lld\n", n, rnd.next(0LL, 1000000000000000000LL));
    return 0;
}
