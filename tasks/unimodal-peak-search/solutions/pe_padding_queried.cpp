// Protocol violation: Fibonacci search that forgets the padding is virtual and asks for positions
// beyond n (unless n + 1 happens to be a Fibonacci number).
#include <bits/stdc++.h>
using namespace std;
long long n, q;
map<long long, long long> cache;
long long get(long long i) {
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
    cout << "? " << F[m] - 1 << endl;  // the last padded position: n + 1 or more unless F[m] == n + 1
    long long first;
    cin >> first;
    if (first < 0) return 0;
    while (m > 3) {
        long long x1 = lo + F[m - 2], x2 = lo + F[m - 1];
        if (get(x1) < get(x2)) lo = x1;
        m--;
    }
    cout << "! " << lo + 1 << endl;
}
