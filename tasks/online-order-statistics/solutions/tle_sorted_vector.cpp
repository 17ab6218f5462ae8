// Too slow: one sorted vector, O(n) memmove per insert and erase.
#include <bits/stdc++.h>
using namespace std;
int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int q;
    cin >> q;
    vector<long long> s;
    for (int i = 0; i < q; i++) {
        string c;
        long long v;
        cin >> c;
        if (c == "-1") return 0;
        cin >> v;
        if (c == "+") s.insert(upper_bound(s.begin(), s.end(), v), v);
        else if (c == "-") s.erase(lower_bound(s.begin(), s.end(), v));
        else cout << s[v - 1] << endl;
    }
}
