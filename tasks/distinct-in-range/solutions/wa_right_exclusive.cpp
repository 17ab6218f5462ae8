// Off by one: treats r as exclusive (answers for [l, r - 1], and 0 for l = r).
#include <bits/stdc++.h>
using namespace std;
int n;
vector<int> fw;
void add(int i, int v) { for (; i <= n; i += i & -i) fw[i] += v; }
int sum(int i) { int s = 0; for (; i > 0; i -= i & -i) s += fw[i]; return s; }
int main() {
    int q;
    scanf("%d %d", &n, &q);
    vector<int> a(n + 1);
    for (int i = 1; i <= n; i++) scanf("%d", &a[i]);
    vector<vector<pair<int, int>>> at(n + 1);
    vector<int> ans(q, 0);
    for (int i = 0; i < q; i++) {
        int l, r;
        scanf("%d %d", &l, &r);
        if (r - 1 >= l) at[r - 1].push_back({l, i});
    }
    fw.assign(n + 1, 0);
    map<int, int> last;
    for (int r = 1; r <= n; r++) {
        if (last.count(a[r])) add(last[a[r]], -1);
        last[a[r]] = r;
        add(r, 1);
        for (auto [l, i] : at[r]) ans[i] = sum(r) - sum(l - 1);
    }
    for (int x : ans) printf("%d\n", x);
}
