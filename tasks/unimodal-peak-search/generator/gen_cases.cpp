// Generator for unimodal-peak-search:
//   gen <seed> --mode non|adp [--n N] [--peak KIND] [--shape SHAPE]
// --mode non prints "n p seed shape" (the non-adaptive interactor builds the array from it);
// --mode adp prints "n seed" (the adaptive interactor's tie-breaking seed).
// N = 0 picks n log-uniformly in [1, 10^6].
// peak KIND (non only): first, second, last, nearlast, mid, random, fib1, fib2 (the positions of
//   the first two probes of a Fibonacci search), fibnear (one of them +-1).
// SHAPE (non only): random, ones, wild, skew, mixed.
#include "testlib.h"
#include <algorithm>
#include <string>
#include <vector>

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "non");
    long long n = opt<long long>("n", 0);
    std::string peak = opt<std::string>("peak", "random");
    std::string shape = opt<std::string>("shape", "random");
    ensuref(mode == "non" || mode == "adp", "mode must be non or adp");
    ensuref(0 <= n && n <= 1000000, "bad n");
    if (n == 0) {
        int b = rnd.next(0, 19);
        n = std::min(1000000LL, rnd.next(1LL << b, (2LL << b) - 1));
    }
    long long seed = rnd.next(0LL, 1000000000000000000LL);
    if (mode == "adp") {
        printf("%lld %lld\n", n, seed);
        return 0;
    }
    std::vector<long long> F = {0, 1, 1};
    while (F.back() < n + 1) F.push_back(F[F.size() - 1] + F[F.size() - 2]);
    int m = (int)F.size() - 1;
    long long f1 = m >= 2 ? F[m - 2] : 1, f2 = m >= 1 ? F[m - 1] : 1;
    long long p;
    if (peak == "first") p = 1;
    else if (peak == "second") p = 2;
    else if (peak == "last") p = n;
    else if (peak == "nearlast") p = n - 1;
    else if (peak == "mid") p = (n + 1) / 2;
    else if (peak == "random") p = rnd.next(1LL, n);
    else if (peak == "fib1") p = f1;
    else if (peak == "fib2") p = f2;
    else if (peak == "fibnear") p = (rnd.next(2) ? f1 : f2) + (rnd.next(2) ? 1 : -1);
    else { ensuref(false, "unknown peak kind"); p = 1; }
    p = std::max(1LL, std::min(n, p));
    const char* shapes[] = {"random", "ones", "wild", "skew"};
    if (shape == "mixed") shape = shapes[rnd.next(4)];
    printf("%lld %lld %lld %s\n", n, p, seed, shape.c_str());
    return 0;
}
