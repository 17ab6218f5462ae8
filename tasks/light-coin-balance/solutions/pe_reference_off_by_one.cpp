// Protocol error: believes the reference coin is number n+1 (not 0) and always puts it on the
// right pan, so the first weighing names coin n+1, outside [0, n].
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
            if ((long long)R.size() == a) R.pop_back();
            R.push_back(n + 1);  // BUG: the reference coin is 0, not n+1
            for (int c = 1; (long long)R.size() < a; c++)
                if (!alive[c]) R.push_back(c);
            cout << "? " << a;
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
