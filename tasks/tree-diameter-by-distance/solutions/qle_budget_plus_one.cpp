// Over budget by exactly one: a correct double sweep that asks every distance from a (including
// the known dist(a, 1)), i.e. 2n - 2 queries per tree, plus one repeated query in the last tree.
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
    for (int t = 0; t < T; t++) {
        int n;
        cin >> n;
        if (n < 0) return 0;
        int a = 2, best = -1;
        for (int v = 2; v <= n; v++) {
            int d = ask(1, v);
            if (d > best) best = d, a = v;
        }
        int b = 1;
        best = -1;
        for (int v = 1; v <= n; v++) {
            if (v == a) continue;
            int d = ask(a, v);
            if (d > best) best = d, b = v;
        }
        if (t == T - 1) ask(a, b);  // query number Q + 1
        cout << "! " << a << " " << b << endl;
    }
}
