// Budget overrun: the textbook "discard k/2 elements" recursion costs about 2*log2(k) queries,
// far more than 2*ceil(log2 w) + 2 when one array is short and k is large. Exits on -1.
#include <bits/stdc++.h>
using namespace std;
static map<pair<char, long long>, long long> cache;
static long long get(char a, long long i) {
    auto key = make_pair(a, i);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    cout << "? " << a << " " << i << endl;
    string s;
    cin >> s;
    if (s == "-1") exit(0);
    long long v = stoll(s);
    cache[key] = v;
    return v;
}
int main() {
    int T;
    if (!(cin >> T)) return 0;
    while (T--) {
        long long n, m, k, q;
        cin >> n;
        if (n == -1) return 0;
        cin >> m >> k >> q;
        cache.clear();
        long long a0 = 0, b0 = 0, kk = k, ans;  // a0, b0: elements already discarded
        while (true) {
            if (a0 == n) { ans = get('B', b0 + kk); break; }
            if (b0 == m) { ans = get('A', a0 + kk); break; }
            if (kk == 1) { ans = min(get('A', a0 + 1), get('B', b0 + 1)); break; }
            long long ta = min(n - a0, kk / 2), tb = min(m - b0, kk / 2);
            if (get('A', a0 + ta) <= get('B', b0 + tb)) a0 += ta, kk -= ta;
            else b0 += tb, kk -= tb;
        }
        cout << "! " << ans << endl;
    }
    return 0;
}
