// Naive: inserts each vertex by scanning the path from the front. Correct paths, but about
// n^2/4 queries.
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
            size_t at = 0;
            while (at < path.size() && ask(path[at], v)) at++;  // path[at-1] -> v, v -> path[at]
            path.insert(path.begin() + at, v);
        }
        cout << "!";
        for (int v : path) cout << " " << v;
        cout << endl;
    }
}
