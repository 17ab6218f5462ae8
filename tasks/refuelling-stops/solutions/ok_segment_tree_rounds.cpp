// Same exchange argument, different machinery: a segment tree over the depots gives the
// unused depot with the most fuel among those within reach (a prefix, since depots are sorted);
// take it and remove it, until the base is in reach.
#include <bits/stdc++.h>
using namespace std;
int sz;
vector<pair<long long, int>> tree_;  // (fuel, index), max
void update(int i, long long v) {
    i += sz;
    tree_[i] = {v, i - sz};
    for (i /= 2; i; i /= 2) tree_[i] = max(tree_[2 * i], tree_[2 * i + 1]);
}
pair<long long, int> query(int l, int r) {  // max on [l, r)
    pair<long long, int> res = {-1, -1};
    for (l += sz, r += sz; l < r; l /= 2, r /= 2) {
        if (l & 1) res = max(res, tree_[l++]);
        if (r & 1) res = max(res, tree_[--r]);
    }
    return res;
}
int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int n;
    long long D, F;
    cin >> n >> D >> F;
    vector<long long> x(n), f(n);
    for (int i = 0; i < n; i++) cin >> x[i] >> f[i];
    sz = 1;
    while (sz < max(n, 1)) sz *= 2;
    tree_.assign(2 * sz, {-1, -1});
    for (int i = 0; i < n; i++) update(i, f[i]);
    long long reach = F;
    int stops = 0;
    while (reach < D) {
        int within = int(upper_bound(x.begin(), x.end(), reach) - x.begin());
        auto best = query(0, within);
        if (best.first < 0) { cout << -1 << '\n'; return 0; }
        reach += best.first;
        update(best.second, -1);
        stops++;
    }
    cout << stops << '\n';
}
