// Builds x - 1 bit by bit from the highest bit of n - 1 down; skips bits that would leave [1, n].
#include <cstdio>
#include <cstring>
int main() {
    long long T, Q;
    if (scanf("%lld %lld", &T, &Q) != 2) return 0;
    while (T--) {
        long long n;
        if (scanf("%lld", &n) != 1 || n == -1) return 0;
        long long v = 0;  // known low part of x - 1
        int top = 0;
        while ((1LL << (top + 1)) <= n - 1) top++;
        bool found = false;
        for (int b = (n > 1 ? top : -1); b >= 0 && !found; b--) {
            long long y = v + (1LL << b) + 1;  // smallest x with this bit set
            if (y > n) continue;               // the bit must be zero, no query needed
            printf("? %lld\n", y);
            fflush(stdout);
            char r[8];
            if (scanf("%7s", r) != 1 || strcmp(r, "-1") == 0) return 0;
            if (r[0] == '=') { v = y - 1; found = true; }
            else if (r[0] == '>') v += 1LL << b;
        }
        printf("! %lld\n", v + 1);
        fflush(stdout);
    }
    return 0;
}
