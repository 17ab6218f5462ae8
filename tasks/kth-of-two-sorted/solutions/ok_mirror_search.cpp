// Mirror of the split search, on j = how many values come from B: Q(j) = (j == jlo ||
// B[j] <= A[k-j+1]) is true then false on [jlo, jhi]; half-open binary search for its last
// true j, then answer max(B[j], A[k-j]). Values are remembered in small arrays per game;
// scanf/printf with fflush.
#include <cstdio>
#include <climits>
#include <cstdlib>
#include <unordered_map>
using namespace std;
static unordered_map<long long, long long> seenA, seenB;
static long long ask(char a, long long i) {
    auto& memo = a == 'A' ? seenA : seenB;
    auto it = memo.find(i);
    if (it != memo.end()) return it->second;
    printf("? %c %lld\n", a, i);
    fflush(stdout);
    long long v;
    if (scanf("%lld", &v) != 1 || v == -1) exit(0);
    return memo[i] = v;
}
int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        long long n, m, k, q;
        if (scanf("%lld", &n) != 1 || n == -1) return 0;
        scanf("%lld %lld %lld", &m, &k, &q);
        seenA.clear();
        seenB.clear();
        long long jlo = k - n > 0 ? k - n : 0, jhi = k < m ? k : m;
        long long lo = jlo + 1, hi = jhi + 1;  // first false j lies in [jlo+1, jhi+1]
        while (lo < hi) {
            long long mid = lo + (hi - lo) / 2;
            if (ask('B', mid) <= ask('A', k - mid + 1)) lo = mid + 1; else hi = mid;
        }
        long long j = lo - 1, ans = LLONG_MIN;
        if (j >= 1) { long long v = ask('B', j); if (v > ans) ans = v; }
        if (k - j >= 1) { long long v = ask('A', k - j); if (v > ans) ans = v; }
        printf("! %lld\n", ans);
        fflush(stdout);
    }
    return 0;
}
