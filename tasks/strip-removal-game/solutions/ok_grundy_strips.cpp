// Sprague-Grundy: a strip of length L has value G[L] = mex{ G[i] xor G[L-s-i] }; the position is
// lost for the player to move iff the xor of all strips is 0. Choose the side accordingly and
// always answer with a move that restores xor 0.
#include <bits/stdc++.h>
using namespace std;
int n;
string b;
vector<int> S, G;
void grundy() {
    G.assign(n + 1, 0);
    vector<int> seen;
    int cap = 1;
    for (int L = 1; L <= n; L++) {
        if ((int)seen.size() < 2 * cap) seen.resize(2 * cap, -1);
        for (int s : S)
            for (int i = 0; i + s <= L; i++) seen[G[i] ^ G[L - s - i]] = L;
        int m = 0;
        while (m < (int)seen.size() && seen[m] == L) m++;
        G[L] = m;
        while (cap <= m) cap *= 2;
    }
}
vector<pair<int, int>> strips() {  // (0-based start, length)
    vector<pair<int, int>> st;
    for (int i = 0; i < n;) {
        if (b[i] == '0') { i++; continue; }
        int j = i;
        while (j < n && b[j] == '1') j++;
        st.push_back({i, j - i});
        i = j;
    }
    return st;
}
pair<int, int> winning_move() {
    auto st = strips();
    int x = 0;
    for (auto& p : st) x ^= G[p.second];
    for (auto& p : st) {
        int L = p.second, t = x ^ G[L];
        for (int s : S)
            for (int i = 0; i + s <= L; i++)
                if ((G[i] ^ G[L - s - i]) == t) return {p.first + i + 1, p.first + i + s};
    }
    return {-1, -1};
}
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
        grundy();
        int x = 0;
        for (auto& p : strips()) x ^= G[p.second];
        bool my_turn = x != 0;
        cout << (my_turn ? "First" : "Second") << endl;
        while (true) {
            if (my_turn) {
                auto [l, r] = winning_move();
                for (int i = l; i <= r; i++) b[i - 1] = '0';
                cout << l << " " << r << endl;
            }
            int l, r;
            if (!(cin >> l) || l < 0) return 0;
            cin >> r;
            if (l == 0) break;  // the opponent cannot move: game won
            for (int i = l; i <= r; i++) b[i - 1] = '0';
            my_turn = true;
        }
    }
}
