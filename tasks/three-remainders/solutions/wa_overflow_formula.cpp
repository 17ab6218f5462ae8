// Wrong: the textbook CRT formula in plain long long; r_i * N_i * inv overflows for large x.
#include <bits/stdc++.h>
using namespace std;
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
        if (e & 1) r = r * b % m;
        b = b * b % m;
        e >>= 1;
    }
    return r;
}
int main() {
    int T;
    long long Q;
    cin >> T >> Q;
    const long long P[3] = {999983, 999979, 999961};
    const long long N = P[0] * P[1] * P[2];
    while (T--) {
        long long L;
        cin >> L;
        if (L < 0) return 0;
        long long x = 0;
        for (int i = 0; i < 3; i++) {
            long long r = ask(P[i]);
            long long Ni = N / P[i];
            long long inv = power(Ni % P[i], P[i] - 2, P[i]);
            x = (x + r * Ni % N * inv) % N;  // overflows
        }
        cout << "! " << ((x % N) + N) % N << endl;
    }
}
