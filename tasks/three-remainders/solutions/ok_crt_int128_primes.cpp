// Three primes just below 10^6 (product about 9.99923e17 >= L); the textbook CRT formula
// sum r_i * N_i * inv(N_i) mod N, evaluated in __int128.
#include <bits/stdc++.h>
using namespace std;
typedef __int128 lll;
long long ask(long long m) {
    printf("? %lld\n", m);
    fflush(stdout);
    long long r;
    if (scanf("%lld", &r) != 1 || r < 0) exit(0);
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
    if (scanf("%d %lld", &T, &Q) != 2) return 0;
    const long long P[3] = {999983, 999979, 999961};
    const lll N = (lll)P[0] * P[1] * P[2];
    while (T--) {
        long long L;
        if (scanf("%lld", &L) != 1 || L < 0) return 0;
        if (L <= P[0]) {  // one query is enough
            printf("! %lld\n", ask(P[0]));
            fflush(stdout);
            continue;
        }
        lll x = 0;
        for (int i = 0; i < 3; i++) {
            long long r = ask(P[i]);
            lll Ni = N / P[i];
            long long inv = power((long long)(Ni % P[i]), P[i] - 2, P[i]);
            x = (x + (lll)r * Ni % N * inv) % N;
        }
        printf("! %lld\n", (long long)x);
        fflush(stdout);
    }
}
