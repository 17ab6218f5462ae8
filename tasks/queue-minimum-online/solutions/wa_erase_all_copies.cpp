// State-update bug: on '-' it erases every copy of the front value from the multiset.
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
            vals.erase(order.front());  // bug: removes all equal values
            order.pop();
        } else {
            // after the bug the set may be empty; fall back to the front of the queue
            cout << (vals.empty() ? order.front() : *vals.begin()) << endl;
        }
    }
}
