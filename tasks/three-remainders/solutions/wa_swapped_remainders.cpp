// Wrong (state-update bug): stores the second and third replies in each other's slot.
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
        long long r[3];
        r[0] = ask(P[0]);
        r[2] = ask(P[1]);
        r[1] = ask(P[2]);
        lll x = 0;
        for (int i = 0; i < 3; i++) {
            lll Ni = N / P[i];
            long long inv = power((long long)(Ni % P[i]), P[i] - 2, P[i]);
            x = (x + (lll)r[i] * Ni % N * inv) % N;
        }
        cout << "! " << (long long)x << endl;
    }
}
