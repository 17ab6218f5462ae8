// Wrong (early stop of the greedy): picks the first element greedily, then simply takes the k-1
// elements that follow it.
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
        long long v;
        int p;
        cout << "? 1 " << n - k + 1 << endl;
        cin >> v;
        if (v < 0) return 0;
        cin >> p;
        res.push_back(v);
        int first = p;
        for (int i = first + 1; i < first + k; i++) {
            cout << "? " << i << " " << i << endl;
            cin >> v;
            if (v < 0) return 0;
            cin >> p;
            res.push_back(v);
        }
        cout << "!";
        for (long long x : res) cout << " " << x;
        cout << endl;
    }
}
