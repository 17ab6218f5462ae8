// Fibonacci search. Pad the array to F_m - 1 positions (virtual positions > n count as -infinity
// and cost nothing); with the peak in (lo, lo + F_m), probes at lo + F_{m-2} and lo + F_{m-1}
// leave an interval of length F_{m-1} that already contains one probe. m - 2 queries.
#include <bits/stdc++.h>
using namespace std;
long long n, q;
map<long long, long long> cache;
long long get(long long i) {
    if (i > n) return LLONG_MIN;  // virtual padding: below every real value
    auto it = cache.find(i);
    if (it != cache.end()) return it->second;
    cout << "? " << i << endl;
    long long v;
    if (!(cin >> v) || v < 0) exit(0);
    return cache[i] = v;
}
int main() {
    cin >> n >> q;
    vector<long long> F = {0, 1, 1};  // F[1] = F[2] = 1
    while (F.back() < n + 1) F.push_back(F[F.size() - 1] + F[F.size() - 2]);
    int m = (int)F.size() - 1;
    long long lo = 0;  // peak in (lo, lo + F[m])
    while (m > 3) {
        long long x1 = lo + F[m - 2], x2 = lo + F[m - 1];
        if (get(x1) < get(x2)) lo = x1;  // peak in (x1, lo + F[m]): length F[m-1], contains x2
        // else: peak in (lo, x2): length F[m-1], contains x1
        m--;
    }
    cout << "! " << lo + 1 << endl;
}
