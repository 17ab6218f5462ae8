// Classic greedy: drive as far as the fuel allows, remembering every depot passed; whenever the
// next target is out of reach, take the largest remembered depot (max-heap). O(n log n).
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n;
    long long D, F;
    scanf("%d %lld %lld", &n, &D, &F);
    vector<long long> x(n), f(n);
    for (int i = 0; i < n; i++) scanf("%lld %lld", &x[i], &f[i]);
    priority_queue<long long> passed;
    long long reach = F;
    int stops = 0, i = 0;
    while (reach < D) {
        while (i < n && x[i] <= reach) passed.push(f[i++]);
        if (passed.empty()) { puts("-1"); return 0; }
        reach += passed.top();
        passed.pop();
        stops++;
    }
    printf("%d\n", stops);
}
