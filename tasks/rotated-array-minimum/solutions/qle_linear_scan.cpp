// Naive: walks from position 1 until the value drops. Far over the budget on large games.
#include <bits/stdc++.h>
using namespace std;
long long ask(long long i) {
    cout << "? " << i << endl;
    long long v;
    if (!(cin >> v) || v == -1) exit(0);
    return v;
}
int main() {
    int T; long long Q;
    cin >> T >> Q;
    while (T--) {
        long long n;
        cin >> n;
        long long ans = 1;
        if (n > 1) {
            long long prev = ask(1);
            for (long long i = 2; i <= n; i++) {
                long long v = ask(i);
                if (v < prev) { ans = i; break; }
                prev = v;
            }
        }
        cout << "! " << ans << endl;
    }
}
