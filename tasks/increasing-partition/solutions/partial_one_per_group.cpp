// Valid but lazy: every position gets its own group (k = n). Optimal only when the sequence
// never increases; otherwise the checker gives 0.5 or 0.2 per test.
#include <cstdio>
int main() {
    int n;
    if (scanf("%d", &n) != 1) return 0;
    printf("%d\n", n);
    for (int i = 1; i <= n; i++) printf("%d%c", i, i == n ? '\n' : ' ');
}
