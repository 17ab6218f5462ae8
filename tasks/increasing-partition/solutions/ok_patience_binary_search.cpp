// Greedy: put each value into the group whose last value is the largest one below it (a new
// group if none). Group ends stay non-increasing in creation order, so the right group is found
// by binary search. The count equals the longest non-increasing subsequence (Dilworth): optimal.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n;
    scanf("%d", &n);
    vector<long long> a(n);
    for (auto& x : a) scanf("%lld", &x);
    vector<long long> last;  // non-increasing
    vector<int> g(n);
    for (int i = 0; i < n; i++) {
        // first index j with last[j] < a[i]
        int lo = 0, hi = (int)last.size();
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (last[mid] < a[i]) hi = mid; else lo = mid + 1;
        }
        if (lo == (int)last.size()) last.push_back(a[i]); else last[lo] = a[i];
        g[i] = lo + 1;
    }
    printf("%d\n", (int)last.size());
    for (int i = 0; i < n; i++) printf("%d%c", g[i], i + 1 == n ? '\n' : ' ');
}
