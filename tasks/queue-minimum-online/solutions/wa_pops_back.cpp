// Wrong structure: treats '-' as removing the most recently added element (a stack).
#include <bits/stdc++.h>
using namespace std;
int main() {
    int q;
    cin >> q;
    vector<long long> st;
    multiset<long long> vals;
    for (int i = 0; i < q; i++) {
        string op;
        if (!(cin >> op) || op == "-1") return 0;
        if (op == "+") {
            long long x;
            cin >> x;
            st.push_back(x);
            vals.insert(x);
        } else if (op == "-") {
            vals.erase(vals.find(st.back()));
            st.pop_back();
        } else {
            cout << *vals.begin() << endl;
        }
    }
}
