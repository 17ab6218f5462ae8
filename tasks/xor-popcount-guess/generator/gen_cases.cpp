// Generator for xor-popcount-guess (adaptive cases only):
//   gen <seed> [--mode adp] [--games G] [--nmin A] [--nmax B] [--big K]
// Prints "T seed" (the interactor's tie-breaking seed), then n_1 .. n_T.
// n_i is uniform in [nmin, nmax], except that the first `big` games (placed at random positions)
// get n = nmax; the sum of 2^n_i is kept at most 4 * 2^20 by lowering n where needed
// (an earlier game is lowered first, so later games keep room for n up to 12).
#include "testlib.h"
#include <algorithm>
#include <string>
#include <vector>

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "adp");
    int games = opt<int>("games", 1);
    int nmin = opt<int>("nmin", 1), nmax = opt<int>("nmax", 20);
    int big = opt<int>("big", 0);
    ensuref(mode == "adp", "only adaptive cases");
    ensuref(1 <= games && games <= 100 && 1 <= nmin && nmin <= nmax && nmax <= 20 && 0 <= big && big <= games,
            "bad options");
    std::vector<int> n(games);
    for (int g = 0; g < games; g++) n[g] = g < big ? nmax : rnd.next(nmin, nmax);
    shuffle(n.begin(), n.end());
    long long work = 0;
    for (int g = 0; g < games; g++) {
        long long reserve = 0;  // keeps room for every later game with n <= 12
        for (int h = g + 1; h < games; h++) reserve += 1LL << std::min(n[h], 12);
        while (n[g] > 1 && work + (1LL << n[g]) + reserve > (4LL << 20)) n[g]--;
        ensuref(n[g] >= 1, "cannot fit the games into the work bound");
        work += 1LL << n[g];
    }
    printf("%d %lld\n", games, rnd.next(0LL, 1000000000000000000LL));
    for (int g = 0; g < games; g++) printf("%d%c", n[g], g + 1 == games ? '\n' : ' ');
    return 0;
}
