// State-update bug: finds the right gap (lo, hi) but inserts the vertex after path[hi] instead of
// before it.
#include <bits/stdc++.h>
using namespace std;
int ask(int u, int v) {
    cout << "? " << u << " " << v << endl;
    int r;
    if (!(cin >> r) || r == -1) exit(0);
    return r;
}
int main() {
    int T; long long Q;
    cin >> T >> Q;
    while (T--) {
        int n;
        cin >> n;
        vector<int> path;
        for (int v = 1; v <= n; v++) {
            int lo = -1, hi = (int)path.size();
            while (hi - lo > 1) {
                int mid = (lo + hi) / 2;
                if (ask(path[mid], v)) lo = mid; else hi = mid;
            }
            int at = min((int)path.size(), hi + 1);
            path.insert(path.begin() + at, v);
        }
        cout << "!";
        for (int v : path) cout << " " << v;
        cout << endl;
    }
}
