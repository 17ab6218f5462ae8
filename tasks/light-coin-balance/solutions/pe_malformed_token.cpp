// Protocol error: writes "weigh" instead of "?".
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    if (!(cin >> T)) return 0;
    while (T--) {
        int n, q;
        cin >> n;
        if (n == -1) return 0;
        cin >> q;
        vector<int> cand(n);
        iota(cand.begin(), cand.end(), 1);
        bool none = true;
        vector<char> alive(n + 1, 1);
        alive[0] = 0;
        while ((long long)cand.size() + none > 1) {
            long long s = cand.size() + none;
            long long a = (s + 2) / 3;
            a = min<long long>(a, cand.size());
            long long b = min<long long>(a, (long long)cand.size() - a);
            vector<int> L(cand.begin(), cand.begin() + a), R(cand.begin() + a, cand.begin() + a + b);
            for (int c = 0; (long long)R.size() < a; c++)  // pad with genuine coins
                if (!alive[c]) R.push_back(c);
            cout << "weigh " << a;  // BUG
            for (int c : L) cout << " " << c;
            for (int c : R) cout << " " << c;
            cout << endl;
            string res;
            cin >> res;
            if (res == "-1") return 0;
            vector<int> next;
            if (res == "<") next.assign(L.begin(), L.end()), none = false;
            else if (res == ">") next.assign(cand.begin() + a, cand.begin() + a + b), none = false;
            else next.assign(cand.begin() + a + b, cand.end());
            for (int c : cand) alive[c] = 0;
            for (int c : next) alive[c] = 1;
            cand.swap(next);
        }
        cout << "! " << (cand.empty() ? 0 : cand[0]) << endl;
    }
    return 0;
}
