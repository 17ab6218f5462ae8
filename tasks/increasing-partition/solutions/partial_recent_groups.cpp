// Heuristic: only looks at the 40 most recently created groups (best fit among them), opening
// a new group when none fits. Optimal while few groups are needed, wasteful on large answers.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n;
    scanf("%d", &n);
    vector<long long> last;
    vector<int> g(n);
    const int window = 40;
    for (int i = 0; i < n; i++) {
        long long x;
        scanf("%lld", &x);
        int best = -1;
        for (int j = max(0, (int)last.size() - window); j < (int)last.size(); j++)
            if (last[j] < x && (best < 0 || last[j] > last[best])) best = j;
        if (best < 0) { last.push_back(x); best = (int)last.size() - 1; } else last[best] = x;
        g[i] = best + 1;
    }
    printf("%d\n", (int)last.size());
    for (int i = 0; i < n; i++) printf("%d%c", g[i], i + 1 == n ? '\n' : ' ');
}
