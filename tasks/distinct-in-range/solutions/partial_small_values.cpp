// Prefix counts per value when all values are <= 20 (subtask 2), brute force otherwise.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n, q;
    scanf("%d %d", &n, &q);
    vector<int> a(n + 1);
    int mx = 0;
    for (int i = 1; i <= n; i++) { scanf("%d", &a[i]); mx = max(mx, a[i]); }
    if (mx <= 20) {
        vector<array<int, 21>> pre(n + 1);
        pre[0].fill(0);
        for (int i = 1; i <= n; i++) { pre[i] = pre[i - 1]; pre[i][a[i]]++; }
        while (q--) {
            int l, r, c = 0;
            scanf("%d %d", &l, &r);
            for (int v = 1; v <= 20; v++) c += pre[r][v] > pre[l - 1][v];
            printf("%d\n", c);
        }
        return 0;
    }
    vector<int> buf;
    while (q--) {
        int l, r;
        scanf("%d %d", &l, &r);
        buf.assign(a.begin() + l, a.begin() + r + 1);
        sort(buf.begin(), buf.end());
        printf("%d\n", (int)(unique(buf.begin(), buf.end()) - buf.begin()));
    }
}
