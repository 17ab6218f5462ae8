// Protocol error: solves every game correctly, then prints one more line after the final answer.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    if (!(cin >> T)) return 0;
    long long last = 0;
    for (int g = 0; g < T; g++) {
        long long n;
        cin >> n;
        if (n == -1) return 0;
        vector<int> cand(n);
        iota(cand.begin(), cand.end(), 1);
        long long r = 0;
        for (int j = 0;; j++) {
            long long mod = 1LL << j;
            if ((n - r) / mod + 1 <= 1) break;
            vector<int> ones, zeros;
            for (int i : cand) {
                cout << "? " << i << " " << j << endl;
                int b;
                cin >> b;
                if (b == -1) return 0;
                (b ? ones : zeros).push_back(i);
            }
            long long cnt1 = r + mod <= n ? (n - r - mod) / (2 * mod) + 1 : 0;
            if ((long long)ones.size() < cnt1) r += mod, cand.swap(ones);
            else cand.swap(zeros);
        }
        cout << "! " << r << endl;
        last = r;
    }
    cout << "! " << last << endl;  // BUG: output after the final answer
    return 0;
}
