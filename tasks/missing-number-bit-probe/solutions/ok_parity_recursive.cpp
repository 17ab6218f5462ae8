// Recursive variant with parities: bit j of the missing number is the parity of
// (expected ones in its residue class) xor (observed ones among the surviving indices).
// Uses scanf/printf with explicit fflush.
#include <cstdio>
#include <vector>
using namespace std;

static long long n;
static bool dead = false;

static long long solve(vector<int>& cand, int j, long long r) {
    long long mod = 1LL << j;
    if ((n - r) / mod + 1 <= 1) return r;
    vector<int> part[2];
    for (int i : cand) {
        printf("? %d %d\n", i, j);
        fflush(stdout);
        int b;
        if (scanf("%d", &b) != 1 || b == -1) { dead = true; return 0; }
        part[b].push_back(i);
    }
    long long cnt1 = r + mod <= n ? (n - r - mod) / (2 * mod) + 1 : 0;
    int bit = (int)((cnt1 ^ (long long)part[1].size()) & 1);
    cand.clear();
    cand.shrink_to_fit();
    return solve(part[bit], j + 1, r + (bit ? mod : 0));
}

int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        if (scanf("%lld", &n) != 1 || n == -1) return 0;
        vector<int> cand;
        for (int i = 1; i <= n; i++) cand.push_back(i);
        long long m = solve(cand, 0, 0);
        if (dead) return 0;
        printf("! %lld\n", m);
        fflush(stdout);
    }
    return 0;
}
