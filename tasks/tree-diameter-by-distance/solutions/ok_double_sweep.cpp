// Double sweep: the vertex a farthest from vertex 1 is an endpoint of a longest path; the vertex
// farthest from a is the other endpoint. Uses 2n - 3 queries per tree.
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
        int a = 1, best = -1, distA1 = 0;
        for (int v = 2; v <= n; v++) {
            int d = ask(1, v);
            if (d > best) best = d, a = v;
        }
        distA1 = best;
        int b = 1;
        best = a == 1 ? -1 : distA1;
        for (int v = 2; v <= n; v++) {
            if (v == a) continue;
            int d = ask(a, v);
            if (d > best) best = d, b = v;
        }
        cout << "! " << a << " " << b << endl;
    }
}
