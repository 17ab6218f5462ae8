// Fibonacci search written recursively and mirrored: the array is padded on the LEFT (virtual
// positions <= 0 count as -infinity, consistent with an increasing start, and cost nothing).
// solve(lo, m, known) searches the open interval (lo, lo + F[m]) given the probe already made.
#include <bits/stdc++.h>
using namespace std;
long long n, q, shift;
vector<long long> F;
map<long long, long long> cache;
long long get(long long i) {  // i is a padded index; real position = i - shift
    long long pos = i - shift;
    if (pos < 1) return LLONG_MIN;
    auto it = cache.find(pos);
    if (it != cache.end()) return it->second;
    printf("? %lld\n", pos);
    fflush(stdout);
    long long v;
    if (scanf("%lld", &v) != 1 || v < 0) exit(0);
    return cache[pos] = v;
}
long long solve(long long lo, int m) {
    if (m <= 3) return lo + 1;
    long long x1 = lo + F[m - 2], x2 = lo + F[m - 1];
    if (get(x1) < get(x2)) return solve(x1, m - 1);
    return solve(lo, m - 1);
}
int main() {
    if (scanf("%lld %lld", &n, &q) != 2) return 0;
    F = {0, 1, 1};
    while (F.back() < n + 1) F.push_back(F[F.size() - 1] + F[F.size() - 2]);
    int m = (int)F.size() - 1;
    shift = (F[m] - 1) - n;  // padded positions 1..F[m]-1; the real array is the last n of them
    long long p = solve(0, m) - shift;
    printf("! %lld\n", p);
    fflush(stdout);
}
