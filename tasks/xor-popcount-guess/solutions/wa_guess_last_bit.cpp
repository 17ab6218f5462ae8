// Wrong (early stop): learns bits 0..n-2 from unit queries (no query 0) and assumes the top bit
// is 0. The adversary keeps both values of that bit alive.
#include <bits/stdc++.h>
using namespace std;
long long ask(long long y) {
    cout << "? " << y << endl;
    long long r;
    if (!(cin >> r) || r < 0) exit(0);
    return r;
}
int main() {
    int T;
    long long Q;
    cin >> T >> Q;
    while (T--) {
        int n;
        cin >> n;
        if (n < 0) return 0;
        long long x = 0;
        if (n >= 2) {
            long long c = ask(0);
            for (int i = 0; i + 1 < n; i++)
                if (ask(1LL << i) < c) x |= 1LL << i;
        }
        cout << "! " << x << endl;
    }
}
