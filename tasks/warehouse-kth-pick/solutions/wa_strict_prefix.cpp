// Off-by-one comparison: looks for the first prefix sum > k instead of >= k (within budget).
#include <cstdio>
#include <cstdlib>
#include <vector>
using namespace std;
static int n;
static vector<long long> fen;
static void change(int i, long long d) { for (; i <= n; i += i & -i) fen[i] += d; }
static long long changes(int i) { long long s = 0; for (; i > 0; i -= i & -i) s += fen[i]; return s; }
int main() {
    int m;
    long long q;
    if (scanf("%d %d %lld", &n, &m, &q) != 3) return 0;
    fen.assign(n + 1, 0);
    vector<long long> val(n + 1, 0), base(n + 1, 0);
    vector<char> have(n + 1, 0);
    auto P = [&](int x) -> long long {
        if (!have[x]) {
            printf("? 1 %d\n", x);
            fflush(stdout);
            long long v;
            if (scanf("%lld", &v) != 1 || v < 0) exit(0);
            val[x] = v, base[x] = changes(x), have[x] = 1;
        }
        return val[x] + changes(x) - base[x];
    };
    for (int e = 0; e < m; e++) {
        int type;
        long long x;
        if (scanf("%d %lld", &type, &x) != 2) return 0;
        if (type == 2) { change((int)x, 1); continue; }
        int lo = 1, hi = n;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (P(mid) > x) hi = mid; else lo = mid + 1;  // BUG
        }
        printf("! %d\n", lo);
        fflush(stdout);
        change(lo, -1);
    }
    return 0;
}
