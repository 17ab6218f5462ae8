// Greedy: the j-th element is the leftmost maximum of a[pos+1 .. n-k+j] (enough elements must
// remain after it). Exactly k queries per test.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    long long Q;
    cin >> T >> Q;
    while (T--) {
        int n, k;
        cin >> n;
        if (n < 0) return 0;
        cin >> k;
        vector<long long> res;
        int pos = 0;
        for (int j = 1; j <= k; j++) {
            cout << "? " << pos + 1 << " " << n - k + j << endl;
            long long v;
            int p;
            cin >> v;
            if (v < 0) return 0;
            cin >> p;
            res.push_back(v);
            pos = p;
        }
        cout << "!";
        for (long long v : res) cout << " " << v;
        cout << endl;
    }
}
