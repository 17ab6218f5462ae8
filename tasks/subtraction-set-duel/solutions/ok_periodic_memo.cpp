// Different approach: recursive memoised game search with scanf/printf, trying large moves first.
#include <bits/stdc++.h>
using namespace std;
static int k, s[16];
static signed char memo[1005];
static bool wins(int p) {
    if (memo[p] >= 0) return memo[p];
    bool w = false;
    for (int i = k - 1; i >= 0 && !w; i--)
        if (s[i] <= p && !wins(p - s[i])) w = true;
    return memo[p] = w;
}
int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int n;
        scanf("%d %d", &n, &k);
        for (int i = 0; i < k; i++) scanf("%d", &s[i]);
        memset(memo, -1, sizeof memo);
        int pile = n;
        bool my_turn = wins(n);
        printf("%s\n", my_turn ? "First" : "Second");
        fflush(stdout);
        while (true) {
            if (my_turn) {
                int mv = 0;
                for (int i = k - 1; i >= 0; i--)
                    if (s[i] <= pile && !wins(pile - s[i])) { mv = s[i]; break; }
                printf("%d\n", mv);
                fflush(stdout);
                pile -= mv;
            } else {
                int y;
                if (scanf("%d", &y) != 1 || y < 0) return 0;
                if (y == 0) break;
                pile -= y;
            }
            my_turn = !my_turn;
        }
    }
}
