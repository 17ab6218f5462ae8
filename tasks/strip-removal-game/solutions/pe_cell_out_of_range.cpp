// Protocol violation: 0-based cell numbers. In the first game that has a legal move it claims the
// first move and plays "0 s-1" (cell 0 is outside [1, N]).
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    cin >> T;
    while (T--) {
        int n, k;
        string b;
        cin >> n;
        if (n < 0) return 0;
        cin >> k >> b;
        vector<int> S(k);
        for (int& s : S) cin >> s;
        int run = 0, longest = 0;
        for (char c : b) run = c == '1' ? run + 1 : 0, longest = max(longest, run);
        if (longest >= S[0]) {
            cout << "First" << endl;
            cout << 0 << " " << S[0] - 1 << endl;
            int l;
            cin >> l;
            return 0;
        }
        cout << "Second" << endl;  // no move for anybody: the interactor answers "0 0"
        int l, r;
        cin >> l >> r;
        if (l < 0) return 0;
    }
}
