// Wrong (flipped reply): Fibonacci search that keeps the side of the SMALLER probe.
#include <bits/stdc++.h>
using namespace std;
long long n, q;
map<long long, long long> cache;
long long get(long long i) {
    if (i > n) return LLONG_MIN;
    auto it = cache.find(i);
    if (it != cache.end()) return it->second;
    cout << "? " << i << endl;
    long long v;
    if (!(cin >> v) || v < 0) exit(0);
    return cache[i] = v;
}
int main() {
    cin >> n >> q;
    vector<long long> F = {0, 1, 1};
    while (F.back() < n + 1) F.push_back(F[F.size() - 1] + F[F.size() - 2]);
    int m = (int)F.size() - 1;
    long long lo = 0;
    while (m > 3) {
        long long x1 = lo + F[m - 2], x2 = lo + F[m - 1];
        if (get(x1) > get(x2)) lo = x1;
        m--;
    }
    cout << "! " << min(lo + 1, n) << endl;  // clamped into [1, n]
}
