// Budget overrun: reads every bit of every value and xors everything (n * bitlength(n) queries,
// more than 2n once n >= 4). Exits when the interactor answers -1.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    if (!(cin >> T)) return 0;
    while (T--) {
        long long n;
        cin >> n;
        if (n == -1) return 0;
        int B = 0;
        while ((1LL << B) <= n) B++;
        long long x = 0;
        for (long long v = 0; v <= n; v++) x ^= v;
        for (int i = 1; i <= n; i++)
            for (int j = 0; j < B; j++) {
                cout << "? " << i << " " << j << endl;
                int b;
                cin >> b;
                if (b == -1) return 0;
                x ^= (long long)b << j;
            }
        cout << "! " << x << endl;
    }
    return 0;
}
