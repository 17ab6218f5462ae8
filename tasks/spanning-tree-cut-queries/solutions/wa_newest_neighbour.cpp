// Dropped query class: after finding r it assumes r hangs off the vertex added last to the
// tree, never searching S for the real neighbour (fine on paths, wrong elsewhere).
#include <bits/stdc++.h>
using namespace std;
static bool edgeBetween(const vector<int>& A, const vector<int>& B) {
    cout << "? " << A.size();
    for (int x : A) cout << " " << x;
    cout << " " << B.size();
    for (int x : B) cout << " " << x;
    cout << endl;
    int r = -1;
    cin >> r;
    if (r != 0 && r != 1) exit(0);
    return r == 1;
}
int main() {
    int T;
    if (!(cin >> T)) return 0;
    while (T--) {
        int n;
        long long q;
        cin >> n >> q;
        vector<int> S = {1}, R;
        for (int v = 2; v <= n; v++) R.push_back(v);
        vector<pair<int, int>> edges;
        while (!R.empty()) {
            vector<int> C = R;  // invariant: some vertex of C is adjacent to S
            while (C.size() > 1) {
                vector<int> half(C.begin(), C.begin() + C.size() / 2);
                if (edgeBetween(S, half)) C = half;
                else C.erase(C.begin(), C.begin() + C.size() / 2);
            }
            int r = C[0];
            edges.push_back({S.back(), r});  // BUG: no search for the neighbour
            S.push_back(r);
            R.erase(find(R.begin(), R.end(), r));
        }
        cout << "!";
        for (auto [a, b] : edges) cout << " " << a << " " << b;
        cout << endl;
    }
    return 0;
}
