// Plays perfectly, then prints "gg" after the last game.
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
        bool mine = win[n];
        cout << (mine ? "First" : "Second") << endl;
        while (true) {
            if (mine) {
                int mv = -1;
                for (int x : s)
                    if (x <= pile && !win[pile - x]) { mv = x; break; }
                if (mv < 0) return 0;
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
    cout << "gg" << endl;
}
