// Protocol error: solves every game, then prints one more line after the final answer.
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
        long long lo = max(0LL, k - m), hi = min(k, n);
        long long L = lo, R = hi;
        while (L < R) {
            long long mid = (L + R + 1) / 2;  // mid > lo, so 1 <= k-mid+1 <= m
            if (get('A', mid) <= get('B', k - mid + 1)) L = mid; else R = mid - 1;
        }
        long long ans = LLONG_MIN;
        if (L >= 1) ans = max(ans, get('A', L));
        if (k - L >= 1) ans = max(ans, get('B', k - L));
        cout << "! " << ans << endl;
    }
    cout << "! 0" << endl;  // BUG: output after the final answer
    return 0;
}
