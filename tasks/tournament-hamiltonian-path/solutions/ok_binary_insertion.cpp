// Binary insertion with virtual sentinels: p_0 -> v and v -> p_{k+1} are assumed, and the
// invariant "p_lo -> v, v -> p_hi" is kept while halving (lo, hi). Inserting into a path of k
// vertices costs at most ceil(log2(k+1)) queries, so the total is at most B(n), within the budget B(n) + n/8.
#include <bits/stdc++.h>
using namespace std;
int ask(int u, int v) {
    cout << "? " << u << " " << v << endl;
    int r;
    if (!(cin >> r) || r == -1) exit(0);
    return r;  // 1: u -> v
}
int main() {
    int T; long long Q;
    cin >> T >> Q;
    while (T--) {
        int n;
        cin >> n;
        if (n == -1) return 0;
        vector<int> path;
        for (int v = 1; v <= n; v++) {
            int lo = -1, hi = (int)path.size();  // path[lo] -> v, v -> path[hi]
            while (hi - lo > 1) {
                int mid = (lo + hi) / 2;
                if (ask(path[mid], v)) lo = mid; else hi = mid;
            }
            path.insert(path.begin() + hi, v);
        }
        cout << "!";
        for (int v : path) cout << " " << v;
        cout << endl;
    }
}
