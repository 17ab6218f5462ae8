// Generator for huffman-by-comparisons:
//   gen <seed> --mode non --games G --nmin A --nmax B --dist D --order O
// One case on stdout: T, then per game "n" and the n hidden weights.
// dist:  random (1..10^6), equal, few (1..3), fib (Fibonacci-like, capped: a deep tree),
//        narrow ([5*10^5, 10^6): every merged node outweighs every leaf), clusters (tiny and
//        huge weights mixed), pow2 (powers of two)
// order: shuffled, asc, desc, mergeworst (the order that makes top-down merge sort with
//        left half ceil(n/2) use the most comparisons), any (one of these per game)
#include "testlib.h"
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

// Arrange sorted values so that every merge of a top-down merge sort interleaves fully.
static std::vector<long long> worst_order(const std::vector<long long>& sorted) {
    if (sorted.size() <= 1) return sorted;
    std::vector<long long> even, odd;
    for (size_t i = 0; i < sorted.size(); i++) (i % 2 == 0 ? even : odd).push_back(sorted[i]);
    std::vector<long long> L = worst_order(even), R = worst_order(odd);
    L.insert(L.end(), R.begin(), R.end());
    return L;
}

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "non");
    int games = opt<int>("games", 5);
    int nmin = opt<int>("nmin", 1);
    int nmax = opt<int>("nmax", 1000);
    std::string dist = opt<std::string>("dist", "random");
    std::string order = opt<std::string>("order", "shuffled");
    ensuref(mode == "non", "huffman-by-comparisons has only non-adaptive cases");
    ensuref(1 <= games && games <= 20 && 1 <= nmin && nmin <= nmax && nmax <= 1000, "bad options");
    printf("%d\n", games);
    for (int g = 0; g < games; g++) {
        int n = rnd.next(nmin, nmax);
        std::vector<long long> w(n);
        long long eq = rnd.next(1, 1000000);
        long long f1 = rnd.next(1, 3), f2 = rnd.next(1, 3);
        for (int i = 0; i < n; i++) {
            if (dist == "random") w[i] = rnd.next(1, 1000000);
            else if (dist == "equal") w[i] = eq;
            else if (dist == "few") w[i] = rnd.next(1, 3);
            else if (dist == "fib") { w[i] = std::min(1000000LL, f1); long long t = f1 + f2; f1 = f2; f2 = t; }
            else if (dist == "narrow") w[i] = rnd.next(500000, 999999);
            else if (dist == "clusters") w[i] = rnd.next(2) ? rnd.next(1, 10) : rnd.next(900000, 1000000);
            else if (dist == "pow2") w[i] = 1LL << rnd.next(0, 19);
            else quitf(_fail, "unknown dist %s", dist.c_str());
        }
        std::string o = order;
        if (o == "any") {
            const char* os[] = {"shuffled", "asc", "desc", "mergeworst"};
            o = os[rnd.next(4)];
        }
        std::sort(w.begin(), w.end());
        if (o == "shuffled") shuffle(w.begin(), w.end());
        else if (o == "desc") std::reverse(w.begin(), w.end());
        else if (o == "mergeworst") w = worst_order(w);
        else ensuref(o == "asc", "unknown order %s", o.c_str());
        printf("%d\n", n);
        for (int i = 0; i < n; i++) printf("%lld%c", w[i], i + 1 == n ? '\n' : ' ');
    }
    return 0;
}
