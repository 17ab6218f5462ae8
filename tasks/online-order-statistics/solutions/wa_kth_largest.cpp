// Wrong (flipped order): reports the k-th largest instead of the k-th smallest.
#include <bits/stdc++.h>
#include <ext/pb_ds/assoc_container.hpp>
#include <ext/pb_ds/tree_policy.hpp>
using namespace std;
using namespace __gnu_pbds;
typedef tree<pair<long long, int>, null_type, less<pair<long long, int>>, rb_tree_tag,
             tree_order_statistics_node_update> ost;
int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int q;
    cin >> q;
    ost s;
    int id = 0;
    for (int i = 0; i < q; i++) {
        string c;
        long long v;
        cin >> c;
        if (c == "-1") return 0;
        cin >> v;
        if (c == "+") s.insert({v, id++});
        else if (c == "-") s.erase(s.lower_bound({v, INT_MIN}));
        else cout << s.find_by_order(s.size() - v)->first << endl;
    }
}
