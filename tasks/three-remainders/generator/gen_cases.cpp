// Generator for three-remainders: gen <seed> [--mode non] [--type TYPE] [--games G]
// Prints T, then T lines "L x" with 0 <= x < L <= 999900000000000000.
// Types: max (L = LMAX, x uniform), high (L = LMAX, x in the top 10^15 below L),
//   edges (x in {0, 1, L-1, L-2} for L = LMAX or small L), small (L <= 10^6: one query can do),
//   medium (L up to 10^12), lcmtrap (x >= 5*10^17: beyond the lcm of 10^6, 10^6-1, 10^6-2),
//   smooth (x a multiple of a product of small primes, or one less), mixed.
#include "testlib.h"
#include <algorithm>
#include <string>
#include <vector>

static const long long LMAX = 999900000000000000LL;

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "non");
    std::string type = opt<std::string>("type", "max");
    int games = opt<int>("games", 1);
    ensuref(mode == "non", "only non-adaptive cases");
    ensuref(1 <= games && games <= 100, "bad games");
    const char* kinds[] = {"max", "high", "edges", "small", "medium", "lcmtrap", "smooth"};
    printf("%d\n", games);
    for (int g = 0; g < games; g++) {
        std::string t = type == "mixed" ? kinds[rnd.next(7)] : type;
        long long L = LMAX, x = 0;
        if (t == "max") {
            x = rnd.next(0LL, L - 1);
        } else if (t == "high") {
            x = L - 1 - rnd.next(0LL, 1000000000000000LL);
        } else if (t == "edges") {
            if (rnd.next(3) == 0) L = rnd.next(1LL, 3LL);
            long long c[4] = {0, 1, L - 1, L - 2};
            x = std::min(L - 1, std::max(0LL, c[rnd.next(4)]));
        } else if (t == "small") {
            L = rnd.next(1LL, 1000000LL);
            x = rnd.next(0LL, L - 1);
        } else if (t == "medium") {
            L = rnd.next(1000000LL, 1000000000000LL);
            x = rnd.next(0LL, L - 1);
        } else if (t == "lcmtrap") {
            x = rnd.next(500000000000000000LL, L - 1);
        } else if (t == "smooth") {
            long long p = 1;
            const int primes[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47};
            while (true) {
                long long q = primes[rnd.next(15)];
                if (p > (L - 1) / q) break;
                p *= q;
            }
            x = p - rnd.next(0LL, 1LL);
        } else {
            ensuref(false, "unknown type %s", t.c_str());
        }
        ensuref(0 <= x && x < L && L <= LMAX, "bad game");
        printf("%lld %lld\n", L, x);
    }
    return 0;
}
