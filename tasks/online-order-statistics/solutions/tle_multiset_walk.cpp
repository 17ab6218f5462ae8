// Too slow: std::multiset and std::next(begin, k - 1), O(k) per query.
#include <bits/stdc++.h>
using namespace std;
int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int q;
    cin >> q;
    multiset<long long> s;
    for (int i = 0; i < q; i++) {
        string c;
        long long v;
        cin >> c;
        if (c == "-1") return 0;
        cin >> v;
        if (c == "+") s.insert(v);
        else if (c == "-") s.erase(s.find(v));
        else cout << *next(s.begin(), v - 1) << endl;
    }
}
