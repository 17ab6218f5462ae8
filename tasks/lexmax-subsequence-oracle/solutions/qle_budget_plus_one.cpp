// Over budget by one: the greedy, plus one repeated query in the last test (query Q + 1 gets -1).
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    long long Q;
    cin >> T >> Q;
    for (int t = 0; t < T; t++) {
        int n, k;
        cin >> n;
        if (n < 0) return 0;
        cin >> k;
        vector<long long> res;
        int pos = 0;
        for (int j = 1; j <= k + (t == T - 1 ? 1 : 0); j++) {
            int l = j <= k ? pos + 1 : 1, r = j <= k ? n - k + j : n;
            cout << "? " << l << " " << r << endl;
            long long v;
            int p;
            cin >> v;
            if (v < 0) return 0;
            cin >> p;
            if (j <= k) res.push_back(v), pos = p;
        }
        cout << "!";
        for (long long v : res) cout << " " << v;
        cout << endl;
    }
}
