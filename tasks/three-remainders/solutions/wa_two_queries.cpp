// Wrong (early stop): two queries, answers the smallest x matching them (x mod 10^6 * (10^6-1)).
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
        long long m1 = 1000000, m2 = 999999;
        long long r1 = ask(m1), r2 = ask(m2);
        long long x = r1;
        while (x % m2 != r2) x += m1;
        cout << "! " << x << endl;
    }
}
