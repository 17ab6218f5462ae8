// Wrong side choice: always moves first, then plays the table move when one exists.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    cin >> T;
    while (T--) {
        int n, k;
        cin >> n >> k;
        vector<int> s(k);
        for (auto& v : s) cin >> v;
        vector<char> win(n + 1, 0);
        for (int p = 0; p <= n; p++)
            for (int x : s)
                if (x <= p && !win[p - x]) win[p] = 1;
        int pile = n;
        bool mine = true;
        cout << "First" << endl;
        while (true) {
            if (mine) {
                int mv = -1;
                for (int x : s)
                    if (x <= pile && !win[pile - x]) { mv = x; break; }
                if (mv < 0) mv = s[0];
                cout << mv << endl;
                pile -= mv;
            } else {
                int y;
                if (!(cin >> y) || y < 0) return 0;
                if (y == 0) break;
                pile -= y;
            }
            mine = !mine;
        }
    }
}
