// Monotonic deque: keeps the increasing minima candidates; O(1) amortised per operation.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int q;
    cin >> q;
    deque<pair<long long, long long>> mono;  // (value, index)
    long long pushed = 0, popped = 0;
    for (int i = 0; i < q; i++) {
        string op;
        if (!(cin >> op) || op == "-1") return 0;
        if (op == "+") {
            long long x;
            cin >> x;
            while (!mono.empty() && mono.back().first > x) mono.pop_back();
            mono.push_back({x, pushed++});
        } else if (op == "-") {
            if (!mono.empty() && mono.front().second == popped) mono.pop_front();
            popped++;
        } else {
            cout << mono.front().first << endl;
        }
    }
}
