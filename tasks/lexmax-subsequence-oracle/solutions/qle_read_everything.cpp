// Naive: reads every element with "? i i" and solves offline. Runs out of budget (n > k) and
// exits on -1.
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
        vector<long long> a(n + 1);
        for (int i = 1; i <= n; i++) {
            cout << "? " << i << " " << i << endl;
            int p;
            cin >> a[i];
            if (a[i] < 0) return 0;
            cin >> p;
        }
        vector<long long> res;
        int pos = 0;
        for (int j = 1; j <= k; j++) {
            int best = pos + 1;
            for (int i = pos + 1; i <= n - k + j; i++)
                if (a[i] > a[best]) best = i;
            res.push_back(a[best]);
            pos = best;
        }
        cout << "!";
        for (long long v : res) cout << " " << v;
        cout << endl;
    }
}
