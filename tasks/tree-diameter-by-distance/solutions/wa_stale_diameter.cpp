// Wrong: the incremental method, but D is never updated after the first pair (state-update bug),
// so a later vertex can replace an endpoint of a better pair with a worse one.
#include <bits/stdc++.h>
using namespace std;
int ask(int u, int v) {
    cout << "? " << u << " " << v << endl;
    int d;
    if (!(cin >> d) || d < 0) exit(0);
    return d;
}
int main() {
    int T;
    long long Q;
    cin >> T >> Q;
    while (T--) {
        int n;
        cin >> n;
        if (n < 0) return 0;
        int a = 1, b = 2, D = ask(1, 2);
        for (int v = 3; v <= n; v++) {
            int da = ask(a, v), db = ask(b, v);
            if (da >= db && da > D) b = v;
            else if (db > da && db > D) a = v;
        }
        cout << "! " << a << " " << b << endl;
    }
}
