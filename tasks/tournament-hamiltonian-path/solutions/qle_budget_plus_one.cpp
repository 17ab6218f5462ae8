// Correct binary insertion, but in the first game with n >= 2 it re-asks one pair until it has
// used exactly Q + 1 queries (a run whose games all have n = 1 allows no query at all).
#include <bits/stdc++.h>
using namespace std;
long long used = 0;
int ask(int u, int v) {
    cout << "? " << u << " " << v << endl;
    used++;
    int r;
    if (!(cin >> r) || r == -1) exit(0);
    return r;
}
int main() {
    int T; long long Q;
    cin >> T >> Q;
    for (int g = 0; g < T; g++) {
        int n;
        cin >> n;
        vector<int> path;
        for (int v = 1; v <= n; v++) {
            int lo = -1, hi = (int)path.size();
            while (hi - lo > 1) {
                int mid = (lo + hi) / 2;
                if (ask(path[mid], v)) lo = mid; else hi = mid;
            }
            path.insert(path.begin() + hi, v);
        }
        if (n >= 2)
            while (used < Q + 1) ask(1, 2);
        cout << "!";
        for (int v : path) cout << " " << v;
        cout << endl;
    }
}
