// Wrong: moduli 10^6, 10^6 - 1, 10^6 - 2 are not pairwise coprime (10^6 and 10^6 - 2 share 2),
// so the replies only determine x modulo about 5*10^17. Solved by brute-force stepping.
#include <bits/stdc++.h>
using namespace std;
long long ask(long long m) {
    cout << "? " << m << endl;
    long long r;
    if (!(cin >> r) || r < 0) exit(0);
    return r;
}
int main() {
    int T;
    long long Q;
    cin >> T >> Q;
    while (T--) {
        long long L;
        cin >> L;
        if (L < 0) return 0;
        long long m1 = 1000000, m2 = 999999, m3 = 999998;
        long long r1 = ask(m1), r2 = ask(m2), r3 = ask(m3);
        long long x = r1;  // x = r1 (mod m1): step by m1 until mod m2 fits (m1, m2 coprime)
        while (x % m2 != r2) x += m1;
        long long step = m1 * m2;  // then step by lcm(m1*m2) / gcd with m3
        long long g = __gcd(step, m3);
        long long lim = m3 / g;
        for (long long i = 0; i < lim && x % m3 != r3; i++) x += step;
        cout << "! " << x << endl;
    }
}
