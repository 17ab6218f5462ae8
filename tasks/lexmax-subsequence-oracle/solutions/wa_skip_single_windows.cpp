// Wrong (dropped query class): when the window is a single element it does not ask and repeats
// the previous value instead.
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
            int l = pos + 1, r = n - k + j;
            if (l == r && !res.empty()) {
                res.push_back(res.back());
                pos = l;
                continue;
            }
            cout << "? " << l << " " << r << endl;
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
