// Protocol violation: wins every game, then prints "0 0" once more after the last game.
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
        auto strips = [&]() {
            vector<pair<int, int>> st;
            for (int i = 0; i < n;) {
                if (b[i] == '0') { i++; continue; }
                int j = i;
                while (j < n && b[j] == '1') j++;
                st.push_back({i, j - i});
                i = j;
            }
            return st;
        };
        int x = 0;
        for (auto& p : strips()) x ^= G[p.second];
        bool my_turn = x != 0;
        cout << (my_turn ? "First" : "Second") << endl;
        while (true) {
            if (my_turn) {
                auto st = strips();
                x = 0;
                for (auto& p : st) x ^= G[p.second];
                int ml = -1, mr = -1;
                for (auto& p : st)
                    for (int s : S)
                        for (int i = 0; i + s <= p.second && ml < 0; i++)
                            if ((G[i] ^ G[p.second - s - i]) == (x ^ G[p.second])) ml = p.first + i + 1, mr = p.first + i + s;
                for (int i = ml; i <= mr; i++) b[i - 1] = '0';
                cout << ml << " " << mr << endl;
            }
            int l, r;
            if (!(cin >> l) || l < 0) return 0;
            cin >> r;
            if (l == 0) break;
            for (int i = l; i <= r; i++) b[i - 1] = '0';
            my_turn = true;
        }
    }
    cout << "0 0" << endl;
}
