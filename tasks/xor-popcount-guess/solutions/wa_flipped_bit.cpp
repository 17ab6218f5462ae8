// Wrong (flipped reply): treats a larger distance as "bit i is set".
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
        long long c = ask(0), x = 0, ones = 0;
        for (int i = 0; i + 1 < n; i++) {
            long long r = ask(1LL << i);
            if (r > c) x |= 1LL << i, ones++;
        }
        if (c - ones == 1) x |= 1LL << (n - 1);
        cout << "! " << x << endl;
    }
}
