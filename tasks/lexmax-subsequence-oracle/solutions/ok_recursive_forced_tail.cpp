// Recursive formulation: best(l, need) = leftmost max m of a[l .. n-need+1], then best(m+1, need-1).
// When the remaining suffix is exactly as long as `need`, it is taken whole, element by element.
#include <bits/stdc++.h>
using namespace std;
int n, k;
vector<long long> out;
pair<long long, int> ask(int l, int r) {
    printf("? %d %d\n", l, r);
    fflush(stdout);
    long long v;
    int p;
    if (scanf("%lld", &v) != 1 || v < 0) exit(0);
    scanf("%d", &p);
    return {v, p};
}
void best(int l, int need) {
    if (need == 0) return;
    if (n - l + 1 == need) {  // forced: the whole suffix
        for (int i = l; i <= n; i++) out.push_back(ask(i, i).first);
        return;
    }
    auto [v, p] = ask(l, n - need + 1);
    out.push_back(v);
    best(p + 1, need - 1);
}
int main() {
    int T;
    long long Q;
    if (scanf("%d %lld", &T, &Q) != 2) return 0;
    while (T--) {
        if (scanf("%d", &n) != 1 || n < 0) return 0;
        scanf("%d", &k);
        out.clear();
        best(1, k);
        printf("!");
        for (long long v : out) printf(" %lld", v);
        printf("\n");
        fflush(stdout);
    }
}
