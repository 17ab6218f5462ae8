// Wrong greedy: whenever it is stuck it stops at the farthest unused depot it can reach (the
// latest possible stop) instead of the depot with the most fuel. Linear time, wrong answers.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n;
    long long D, F;
    scanf("%d %lld %lld", &n, &D, &F);
    vector<long long> x(n), f(n);
    for (int i = 0; i < n; i++) scanf("%lld %lld", &x[i], &f[i]);
    vector<int> reachable;  // unused depots within reach, farthest on top
    long long reach = F;
    int stops = 0, i = 0;
    while (reach < D) {
        while (i < n && x[i] <= reach) reachable.push_back(i++);
        if (reachable.empty()) { puts("-1"); return 0; }
        reach += f[reachable.back()];
        reachable.pop_back();
        stops++;
    }
    printf("%d\n", stops);
}
