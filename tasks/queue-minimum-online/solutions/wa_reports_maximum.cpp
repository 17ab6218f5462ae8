// Flipped: answers the maximum of the queue instead of the minimum.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int q;
    cin >> q;
    queue<long long> order;
    multiset<long long> vals;
    for (int i = 0; i < q; i++) {
        string op;
        if (!(cin >> op) || op == "-1") return 0;
        if (op == "+") {
            long long x;
            cin >> x;
            order.push(x);
            vals.insert(x);
        } else if (op == "-") {
            vals.erase(vals.find(order.front()));
            order.pop();
        } else {
            cout << *vals.rbegin() << endl;
        }
    }
}
