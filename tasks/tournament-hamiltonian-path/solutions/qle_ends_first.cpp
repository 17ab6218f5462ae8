// Near miss: checks both ends of the path before a binary search on the inside. Correct, but
// that costs up to two extra queries per insertion, which the tight budget does not allow when
// the new vertices keep landing in the middle.
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
            int k = (int)path.size();
            if (k == 0) { path.push_back(v); continue; }
            if (ask(v, path[0])) { path.insert(path.begin(), v); continue; }
            if (ask(path[k - 1], v)) { path.push_back(v); continue; }
            int lo = 0, hi = k - 1;  // path[lo] -> v, v -> path[hi]
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
