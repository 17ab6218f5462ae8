// Wrong: always claims the first move; plays the winning move when one exists, otherwise removes
// the leftmost legal block. Loses every game whose starting nim-sum is 0.
#include <bits/stdc++.h>
using namespace std;
int n;
string b;
vector<int> S, G;
int main() {
    int T;
    cin >> T;
    while (T--) {
        int k;
        cin >> n;
        if (n < 0) return 0;
        cin >> k >> b;
        S.assign(k, 0);
        for (int& s : S) cin >> s;
        G.assign(n + 1, 0);
        vector<int> stamp(1 << 15, 0);
        for (int L = 1; L <= n; L++) {
            for (int s : S)
                for (int i = 0; i + s <= L; i++) stamp[G[i] ^ G[L - s - i]] = L;
            int m = 0;
            while (stamp[m] == L) m++;
            G[L] = m;
        }
        cout << "First" << endl;
        while (true) {
            vector<pair<int, int>> st;
            for (int i = 0; i < n;) {
                if (b[i] == '0') { i++; continue; }
                int j = i;
                while (j < n && b[j] == '1') j++;
                st.push_back({i, j - i});
                i = j;
            }
            int x = 0;
            for (auto& p : st) x ^= G[p.second];
            int ml = -1, mr = -1;
            for (auto& p : st)
                for (int s : S)
                    for (int i = 0; i + s <= p.second; i++) {
                        bool win = (G[i] ^ G[p.second - s - i]) == (x ^ G[p.second]);
                        if (ml < 0 || (win && x != 0)) {
                            ml = p.first + i + 1, mr = p.first + i + s;
                            if (win && x != 0) goto found;
                        }
                    }
        found:
            if (ml < 0) return 0;  // no move at all: lost (the interactor says so)
            for (int i = ml; i <= mr; i++) b[i - 1] = '0';
            cout << ml << " " << mr << endl;
            int l, r;
            if (!(cin >> l) || l < 0) return 0;
            cin >> r;
            if (l == 0) break;
            for (int i = l; i <= r; i++) b[i - 1] = '0';
        }
    }
}
