// Wrong (dropped move class): computes Grundy values as if blocks could only be taken from the
// end of a strip (a subtraction game), ignoring moves that split a strip in two.
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
        for (int L = 1; L <= n; L++) {
            set<int> o;
            for (int s : S)
                if (s <= L) o.insert(G[L - s]);
            int m = 0;
            while (o.count(m)) m++;
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
                        if (s <= p.second && ml < 0 && (G[p.second - s] == (x ^ G[p.second]) || x == 0))
                            ml = p.first + p.second - s + 1, mr = p.first + p.second;
                if (ml < 0)
                    for (auto& p : st)
                        for (int s : S)
                            if (s <= p.second && ml < 0) ml = p.first + 1, mr = p.first + s;
                if (ml < 0) return 0;
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
}
