// Capacity filling: with r weighings left each outcome may keep at most 3^(r-1) hypotheses.
// Fill the left pan with up to that many candidates (never more than half of all coins, coin 0
// included), the right pan with up to as many, pad with known-genuine coins, and leave the rest
// (plus "no light coin") off the scale. Candidates are tracked in a boolean array.
#include <cstdio>
#include <vector>
using namespace std;
int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int n, q;
        if (scanf("%d", &n) != 1 || n == -1) return 0;
        scanf("%d", &q);
        vector<char> alive(n + 1, 1);
        alive[0] = 0;
        bool none = true;
        long long real = n;
        int left = q;
        while (real + none > 1) {
            long long cap = 1;
            for (int i = 1; i < left; i++) cap *= 3;
            long long a = min<long long>(min<long long>(cap, real), (n + 1) / 2);
            long long b = min(a, real - a);
            vector<int> L, R, G;
            for (int c = 1; c <= n; c++) {
                if (!alive[c]) continue;
                if ((long long)L.size() < a) L.push_back(c);
                else if ((long long)R.size() < b) R.push_back(c);
            }
            for (int c = 0; c <= n && (long long)(R.size() + G.size()) < a; c++)
                if (!alive[c]) G.push_back(c);
            printf("? %lld", a);
            for (int c : L) printf(" %d", c);
            for (int c : R) printf(" %d", c);
            for (int c : G) printf(" %d", c);
            printf("\n");
            fflush(stdout);
            char res[8];
            if (scanf("%7s", res) != 1 || res[0] == '-') return 0;
            left--;
            vector<char> keep(n + 1, 0);
            if (res[0] == '<') { for (int c : L) keep[c] = 1; none = false; }
            else if (res[0] == '>') { for (int c : R) keep[c] = 1; none = false; }
            else {
                for (int c = 1; c <= n; c++) keep[c] = alive[c];
                for (int c : L) keep[c] = 0;
                for (int c : R) keep[c] = 0;
            }
            alive.swap(keep);
            real = 0;
            for (int c = 1; c <= n; c++) real += alive[c];
        }
        int ans = 0;
        for (int c = 1; c <= n; c++) if (alive[c]) ans = c;
        printf("! %d\n", ans);
        fflush(stdout);
    }
    return 0;
}
