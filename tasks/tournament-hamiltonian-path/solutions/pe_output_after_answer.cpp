// Correct binary insertion, then an extra line after the final answer.
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
            path.insert(path.begin() + hi, v);
        }
        cout << "!";
        for (int v : path) cout << " " << v;
        cout << endl;
    }
    cout << "! done" << endl;
}
