// Protocol violation: a correct double sweep, then a farewell line after the final answer.
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
        int a = 2, best = -1;
        for (int v = 2; v <= n; v++) {
            int d = ask(1, v);
            if (d > best) best = d, a = v;
        }
        int b = 1;
        best = ask(a, 1);
        for (int v = 2; v <= n; v++) {
            if (v == a) continue;
            int d = ask(a, v);
            if (d > best) best = d, b = v;
        }
        cout << "! " << a << " " << b << endl;
    }
    cout << "done" << endl;
}
