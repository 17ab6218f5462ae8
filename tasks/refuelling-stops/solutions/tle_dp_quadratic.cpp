// DP over depots: best[k] = farthest reach with k stops. O(n^2): subtasks 1 and 2 only.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n;
    long long D, F;
    scanf("%d %lld %lld", &n, &D, &F);
    vector<long long> best(n + 1, -1);
    best[0] = F;
    for (int i = 0; i < n; i++) {
        long long x, f;
        scanf("%lld %lld", &x, &f);
        for (int k = i; k >= 0; k--)
            if (best[k] >= x) best[k + 1] = max(best[k + 1], best[k] + f);
    }
    for (int k = 0; k <= n; k++) if (best[k] >= D) { printf("%d\n", k); return 0; }
    puts("-1");
}
