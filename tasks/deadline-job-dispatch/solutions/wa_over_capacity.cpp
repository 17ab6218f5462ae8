// Rule break (argument off by one): earliest deadline first, but executes up to c + 1 jobs.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    cin >> T;
    while (T--) {
        int m;
        if (!(cin >> m) || m == -1) return 0;
        vector<array<int, 3>> pending;  // (id, release slot, deadline)
        for (int t = 1; t <= m; t++) {
            int c, k;
            if (!(cin >> c) || c == -1) return 0;
            cin >> k;
            for (int i = 0; i < k; i++) {
                int id, d;
                cin >> id >> d;
                pending.push_back({id, t, d});
            }
            vector<int> chosen;
            pending.erase(remove_if(pending.begin(), pending.end(), [&](const array<int, 3>& a) { return a[2] < t; }), pending.end());
            sort(pending.begin(), pending.end(), [](const array<int, 3>& a, const array<int, 3>& b) { return a[2] != b[2] ? a[2] < b[2] : a[0] < b[0]; });
            while ((int)chosen.size() < c + 1 && !pending.empty()) { chosen.push_back(pending.front()[0]); pending.erase(pending.begin()); }
            cout << chosen.size();
        for (int j : chosen) cout << " " << j;
        cout << endl;
        }
    }
}
