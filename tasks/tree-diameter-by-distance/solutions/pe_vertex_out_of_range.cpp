// Protocol violation: off-by-one loop bound, the first sweep runs v = 2..n+1.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    long long Q;
    cin >> T >> Q;
    while (T--) {
        int n;
        cin >> n;
        if (n < 0) return 0;
        int a = 2, best = -1;
        for (int v = 2; v <= n + 1; v++) {
            cout << "? 1 " << v << endl;
            int d;
            cin >> d;
            if (d < 0) return 0;
            if (d > best) best = d, a = v;
        }
        cout << "! 1 " << a << endl;
    }
}
