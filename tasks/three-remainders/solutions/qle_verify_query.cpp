// Over budget: solves each game correctly but spends a 4th query to double-check with mod 2.
#include <bits/stdc++.h>
using namespace std;
typedef __int128 lll;
long long ask(long long m) {
    cout << "? " << m << endl;
    long long r;
    if (!(cin >> r) || r < 0) exit(0);
    return r;
}
long long power(long long b, long long e, long long m) {
    long long r = 1;
    b %= m;
    while (e) {
        if (e & 1) r = (lll)r * b % m;
        b = (lll)b * b % m;
        e >>= 1;
    }
    return r;
}
int main() {
    int T;
    long long Q;
    cin >> T >> Q;
    const long long P[3] = {999983, 999979, 999961};
    const lll N = (lll)P[0] * P[1] * P[2];
    while (T--) {
        long long L;
        cin >> L;
        if (L < 0) return 0;
        lll x = 0;
        for (int i = 0; i < 3; i++) {
            long long r = ask(P[i]);
            lll Ni = N / P[i];
            long long inv = power((long long)(Ni % P[i]), P[i] - 2, P[i]);
            x = (x + (lll)r * Ni % N * inv) % N;
        }
        ask(2);
        cout << "! " << (long long)x << endl;
    }
}
