// Protocol violation: a correct answer written with commas ("! 5,3,2").
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
        cout << "! ";
        for (size_t i = 0; i < res.size(); i++) cout << res[i] << (i + 1 < res.size() ? "," : "");
        cout << endl;
    }
}
