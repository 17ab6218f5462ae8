// Sorts each range and counts distinct values: fine for n, q <= 1000, O(q n log n) otherwise.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n, q;
    scanf("%d %d", &n, &q);
    vector<int> a(n + 1);
    for (int i = 1; i <= n; i++) scanf("%d", &a[i]);
    vector<int> buf;
    while (q--) {
        int l, r;
        scanf("%d %d", &l, &r);
        buf.assign(a.begin() + l, a.begin() + r + 1);
        sort(buf.begin(), buf.end());
        printf("%d\n", (int)(unique(buf.begin(), buf.end()) - buf.begin()));
    }
}
