// Mo's algorithm over coordinate-compressed values: O((n + q) sqrt n).
#include <bits/stdc++.h>
using namespace std;
int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int n, q;
    cin >> n >> q;
    vector<int> a(n);
    for (auto& x : a) cin >> x;
    vector<int> vals(a);
    sort(vals.begin(), vals.end());
    vals.erase(unique(vals.begin(), vals.end()), vals.end());
    for (auto& x : a) x = int(lower_bound(vals.begin(), vals.end(), x) - vals.begin());
    vector<int> L(q), R(q), idx(q);
    for (int i = 0; i < q; i++) { cin >> L[i] >> R[i]; L[i]--, R[i]--; idx[i] = i; }
    int block = max(1, (int)(n / sqrt((double)q + 1)) + 1);
    sort(idx.begin(), idx.end(), [&](int x, int y) {
        int bx = L[x] / block, by = L[y] / block;
        if (bx != by) return bx < by;
        return (bx & 1) ? R[x] > R[y] : R[x] < R[y];
    });
    vector<int> cnt(vals.size(), 0), ans(q);
    int cur = 0, lo = 0, hi = -1;
    for (int i : idx) {
        while (hi < R[i]) if (cnt[a[++hi]]++ == 0) cur++;
        while (lo > L[i]) if (cnt[a[--lo]]++ == 0) cur++;
        while (hi > R[i]) if (--cnt[a[hi--]] == 0) cur--;
        while (lo < L[i]) if (--cnt[a[lo++]] == 0) cur--;
        ans[i] = cur;
    }
    for (int x : ans) cout << x << '\n';
}
