// Over budget: query 0 and then all n unit vectors (n + 1 queries per game); exits on -1.
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
        long long c = ask(0), x = 0;
        for (int i = 0; i < n; i++)
            if (ask(1LL << i) < c) x |= 1LL << i;
        cout << "! " << x << endl;
    }
}
