// Moduli 10^6, 10^6 - 1, 10^6 - 3 are pairwise coprime and their product exceeds L. Combine the
// congruences one at a time: every intermediate value stays below 10^18 and fits in long long.
#include <bits/stdc++.h>
using namespace std;
long long ask(long long m) {
    cout << "? " << m << endl;
    long long r;
    if (!(cin >> r) || r < 0) exit(0);
    return r;
}
long long power(long long b, long long e, long long m) {
    long long r = 1 % m;
    b %= m;
    while (e) {
        if (e & 1) r = r * b % m;
        b = b * b % m;
        e >>= 1;
    }
    return r;
}
long long inverse(long long a, long long m) {  // m need not be prime: extended Euclid
    long long g = m, x = 0, x1 = 1, a1 = a % m;
    while (a1) {
        long long q = g / a1;
        tie(g, a1) = make_pair(a1, g - q * a1);
        tie(x, x1) = make_pair(x1, x - q * x1);
    }
    return (x % m + m) % m;
}
int main() {
    int T;
    long long Q;
    cin >> T >> Q;
    const long long M[3] = {1000000, 999999, 999997};
    while (T--) {
        long long L;
        cin >> L;
        if (L < 0) return 0;
        long long a = 0, mod = 1;  // x = a (mod `mod`)
        for (int i = 0; i < 3 && mod < L; i++) {
            long long r = ask(M[i]);
            // x = a + mod * t, need (a + mod * t) = r (mod M[i])
            long long diff = ((r - a % M[i]) % M[i] + M[i]) % M[i];
            long long t = diff * inverse(mod % M[i], M[i]) % M[i];
            a += mod * t;
            mod *= M[i];
        }
        cout << "! " << a << endl;
    }
}
