// Tries every subset (2^n): right for n <= 15, hopeless beyond.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n;
    scanf("%d", &n);
    vector<pair<int, int>> e(n - 1);
    for (auto& [u, v] : e) { scanf("%d %d", &u, &v); u--, v--; }
    long long best_mask = 0;
    int best = -1;
    int bits = min(n, 62);
    for (long long mask = 0; mask < (1LL << bits); mask++) {
        bool ok = true;
        for (auto& [u, v] : e)
            if (u < 62 && v < 62 && (mask >> u & 1) && (mask >> v & 1)) { ok = false; break; }
        int c = __builtin_popcountll(mask);
        if (ok && c > best) { best = c; best_mask = mask; }
    }
    printf("%d\n", best);
    for (int v = 0; v < bits; v++) if (best_mask >> v & 1) printf("%d ", v + 1);
    printf("\n");
}
