// Sized its buffer for subtask 2 (n <= 3000) and uses bounds-checked access: throws
// std::out_of_range (abort, RE) on every larger test. Scores subtasks 1 and 2.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n;
    scanf("%d", &n);
    vector<long long> a(3000);
    for (int i = 0; i < n; i++) scanf("%lld", &a.at(i));
    vector<long long> last;
    vector<int> g(3000);
    for (int i = 0; i < n; i++) {
        int lo = 0, hi = (int)last.size();
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (last[mid] < a[i]) hi = mid; else lo = mid + 1;
        }
        if (lo == (int)last.size()) last.push_back(a[i]); else last[lo] = a[i];
        g.at(i) = lo + 1;
    }
    printf("%d\n", (int)last.size());
    for (int i = 0; i < n; i++) printf("%d%c", g[i], i + 1 == n ? '\n' : ' ');
}
