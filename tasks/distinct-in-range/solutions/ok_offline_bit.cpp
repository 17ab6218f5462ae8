// Offline: sweep r from left to right, keep a 1 only at the last occurrence of each value
// (Fenwick tree), answer the queries ending at r with a range sum. O((n + q) log n).
#include <bits/stdc++.h>
using namespace std;
int n, q;
vector<int> fw;
void add(int i, int v) { for (; i <= n; i += i & -i) fw[i] += v; }
int sum(int i) { int s = 0; for (; i > 0; i -= i & -i) s += fw[i]; return s; }
int main() {
    scanf("%d %d", &n, &q);
    vector<int> a(n + 1);
    for (int i = 1; i <= n; i++) scanf("%d", &a[i]);
    vector<vector<pair<int, int>>> at(n + 1);
    for (int i = 0; i < q; i++) {
        int l, r;
        scanf("%d %d", &l, &r);
        at[r].push_back({l, i});
    }
    fw.assign(n + 1, 0);
    unordered_map<int, int> last;
    last.reserve(2 * n);
    vector<int> ans(q);
    for (int r = 1; r <= n; r++) {
        auto it = last.find(a[r]);
        if (it != last.end()) add(it->second, -1);
        last[a[r]] = r;
        add(r, 1);
        for (auto [l, i] : at[r]) ans[i] = sum(r) - sum(l - 1);
    }
    string out;
    for (int x : ans) { out += to_string(x); out += '\n'; }
    fputs(out.c_str(), stdout);
}
