// Incremental diameter: keep a farthest pair (a, b) of the vertices seen so far. In a tree metric,
// the farthest pair after adding v is (a, b), (a, v) or (b, v). 2n - 3 queries per tree.
#include <bits/stdc++.h>
using namespace std;
int ask(int u, int v) {
    printf("? %d %d\n", u, v);
    fflush(stdout);
    int d;
    if (scanf("%d", &d) != 1 || d < 0) exit(0);
    return d;
}
int main() {
    int T;
    long long Q;
    if (scanf("%d %lld", &T, &Q) != 2) return 0;
    while (T--) {
        int n;
        if (scanf("%d", &n) != 1 || n < 0) return 0;
        int a = 1, b = 2, D = ask(1, 2);
        for (int v = 3; v <= n; v++) {
            int da = ask(a, v), db = ask(b, v);
            if (da >= db && da > D) b = v, D = da;        // new pair (a, v)
            else if (db > da && db > D) a = v, D = db;    // new pair (v, b)
        }
        printf("! %d %d\n", a, b);
        fflush(stdout);
    }
}
