// Same greedy with an ordered multiset of (last value, group): predecessor of a_i.
#include <bits/stdc++.h>
using namespace std;
int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int n;
    cin >> n;
    set<pair<long long, int>> ends;  // (last value, group id); ids make entries unique
    vector<int> g(n);
    int groups = 0;
    for (int i = 0; i < n; i++) {
        long long x;
        cin >> x;
        auto it = ends.lower_bound({x, INT_MIN});
        if (it == ends.begin()) {
            g[i] = ++groups;
        } else {
            --it;
            g[i] = it->second;
            ends.erase(it);
        }
        ends.insert({x, g[i]});
    }
    cout << groups << '\n';
    for (int i = 0; i < n; i++) cout << g[i] << (i + 1 == n ? '\n' : ' ');
}
