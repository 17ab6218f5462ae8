// State-update bug: keeps one running minimum and only lowers it; popping the minimum does not
// raise it again (it is recomputed only when the queue becomes empty).
#include <bits/stdc++.h>
using namespace std;
int main() {
    int q;
    cin >> q;
    queue<long long> order;
    long long mn = LLONG_MAX;
    for (int i = 0; i < q; i++) {
        string op;
        if (!(cin >> op) || op == "-1") return 0;
        if (op == "+") {
            long long x;
            cin >> x;
            order.push(x);
            mn = min(mn, x);
        } else if (op == "-") {
            order.pop();
            if (order.empty()) mn = LLONG_MAX;
        } else {
            cout << mn << endl;
        }
    }
}
