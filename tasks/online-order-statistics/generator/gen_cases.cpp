// Generator for online-order-statistics:
//   gen <seed> [--mode non] [--q Q] [--nq NQ] [--type TYPE] [--vmax V] [--kmode KM]
// A case is the single line "q nq seed type vmax kmode"; the interactor expands it into the
// operation sequence with a fixed procedure (see interactor/non_adaptive.cpp). q = 0 or nq = 0
// means "pick at random" (q in [2, 300000], nq in [1, min(q - 1, 10000)]).
#include "testlib.h"
#include <algorithm>
#include <string>

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "non");
    int q = opt<int>("q", 0), nq = opt<int>("nq", 0);
    std::string type = opt<std::string>("type", "random");
    long long vmax = opt<long long>("vmax", 1000000000LL);
    std::string kmode = opt<std::string>("kmode", "random");
    ensuref(mode == "non", "only non-adaptive cases");
    if (q == 0) q = rnd.next(2, 300000);
    if (nq == 0) nq = rnd.next(1, std::min(q - 1, 10000));
    ensuref(2 <= q && q <= 300000 && 1 <= nq && nq <= std::min(q - 1, 10000), "bad q / nq");
    ensuref(1 <= vmax && vmax <= 1000000000LL, "bad vmax");
    printf("%d %d %lld %s %lld %s\n", q, nq, rnd.next(0LL, 1000000000000000000LL), type.c_str(), vmax, kmode.c_str());
    return 0;
}
