// Misreads "strictly": lets equal values share a group (last <= x). Fewer groups, but invalid
// as soon as the input repeats a value.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n;
    scanf("%d", &n);
    vector<long long> last;  // non-increasing
    vector<int> g(n);
    for (int i = 0; i < n; i++) {
        long long x;
        scanf("%lld", &x);
        int lo = 0, hi = (int)last.size();
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (last[mid] <= x) hi = mid; else lo = mid + 1;
        }
        if (lo == (int)last.size()) last.push_back(x); else last[lo] = x;
        g[i] = lo + 1;
    }
    printf("%d\n", (int)last.size());
    for (int i = 0; i < n; i++) printf("%d%c", g[i], i + 1 == n ? '\n' : ' ');
}
