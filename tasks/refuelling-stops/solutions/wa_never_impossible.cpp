// Forgets the -1 case: when stuck it just reports the stops made so far.
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
        if (passed.empty()) break;  // should print -1
        reach += passed.top();
        passed.pop();
        stops++;
    }
    printf("%d\n", stops);
}
