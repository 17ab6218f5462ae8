// Correct first-fit greedy, but it scans all groups for every value: O(n * k). Fine for
// n <= 3000, far too slow when the answer is large (strictly decreasing input of 10^5).
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n;
    scanf("%d", &n);
    vector<long long> last;
    vector<int> g(n);
    for (int i = 0; i < n; i++) {
        long long x;
        scanf("%lld", &x);
        int j = 0;
        while (j < (int)last.size() && last[j] >= x) j++;
        if (j == (int)last.size()) last.push_back(x); else last[j] = x;
        g[i] = j + 1;
    }
    printf("%d\n", (int)last.size());
    for (int i = 0; i < n; i++) printf("%d%c", g[i], i + 1 == n ? '\n' : ' ');
}
