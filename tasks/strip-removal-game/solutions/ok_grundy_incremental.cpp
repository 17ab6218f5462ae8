// Same theory, different bookkeeping: the strips live in a std::map (start -> length) updated by
// each move, and the nim-sum is maintained incrementally instead of being recomputed.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int n, k;
        if (scanf("%d", &n) != 1 || n < 0) return 0;
        scanf("%d", &k);
        static char buf[4096];
        scanf("%s", buf);
        string b = buf;
        vector<int> S(k);
        for (int& s : S) scanf("%d", &s);
        // mex <= number of options <= 6 * 2000, so every value and every xor is < 2^15
        vector<int> G(n + 1, 0), stamp(1 << 15, 0);
        for (int L = 1; L <= n; L++) {
            for (int s : S)
                for (int i = 0; i + s <= L; i++) stamp[G[i] ^ G[L - s - i]] = L;
            int m = 0;
            while (stamp[m] == L) m++;
            G[L] = m;
        }
        map<int, int> strip;  // 1-based start -> length
        for (int i = 0; i < n;) {
            if (b[i] == '0') { i++; continue; }
            int j = i;
            while (j < n && b[j] == '1') j++;
            strip[i + 1] = j - i;
            i = j;
        }
        int x = 0;
        for (auto& p : strip) x ^= G[p.second];
        auto remove = [&](int l, int r) {  // cells l..r lie inside one strip
            auto it = prev(strip.upper_bound(l));
            int st = it->first, len = it->second;
            x ^= G[len];
            strip.erase(it);
            if (l > st) strip[st] = l - st, x ^= G[l - st];
            if (r < st + len - 1) strip[r + 1] = st + len - 1 - r, x ^= G[st + len - 1 - r];
        };
        bool my_turn = x != 0;
        printf("%s\n", my_turn ? "First" : "Second");
        fflush(stdout);
        while (true) {
            if (my_turn) {
                int ml = -1, mr = -1;
                for (auto& p : strip) {
                    int L = p.second, t = x ^ G[L];
                    for (int s : S) {
                        for (int i = 0; i + s <= L && ml < 0; i++)
                            if ((G[i] ^ G[L - s - i]) == t) ml = p.first + i, mr = p.first + i + s - 1;
                        if (ml >= 0) break;
                    }
                    if (ml >= 0) break;
                }
                remove(ml, mr);
                printf("%d %d\n", ml, mr);
                fflush(stdout);
            }
            int l, r;
            if (scanf("%d", &l) != 1 || l < 0) return 0;
            scanf("%d", &r);
            if (l == 0) break;
            remove(l, r);
            my_turn = true;
        }
    }
}
