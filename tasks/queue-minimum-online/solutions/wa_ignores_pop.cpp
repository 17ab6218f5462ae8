// Dropped operation class: never removes anything, so it answers the minimum of all values
// ever pushed.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int q;
    cin >> q;
    long long mn = LLONG_MAX;
    for (int i = 0; i < q; i++) {
        string op;
        if (!(cin >> op) || op == "-1") return 0;
        if (op == "+") {
            long long x;
            cin >> x;
            mn = min(mn, x);
        } else if (op == "?") {
            cout << mn << endl;
        }
    }
}
