// Protocol error: solves every game, then prints one more line after the final answer.
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
            vector<int> D = S, single = {r};  // invariant: some vertex of D is adjacent to r
            while (D.size() > 1) {
                vector<int> half(D.begin(), D.begin() + D.size() / 2);
                if (edgeBetween(single, half)) D = half;
                else D.erase(D.begin(), D.begin() + D.size() / 2);
            }
            edges.push_back({D[0], r});
            S.push_back(r);
            R.erase(find(R.begin(), R.end(), r));
        }
        cout << "!";
        for (auto [a, b] : edges) cout << " " << a << " " << b;
        cout << endl;
    }
    cout << "! 1 2" << endl;  // BUG: output after the final answer
    return 0;
}
