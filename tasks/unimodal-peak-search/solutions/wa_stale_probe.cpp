// Wrong (state-update bug): Fibonacci search that carries the two probe values in variables and,
// after moving right, keeps the old left value instead of the surviving probe's value.
#include <bits/stdc++.h>
using namespace std;
long long n, q;
long long ask(long long i) {
    if (i > n) return LLONG_MIN;
    cout << "? " << i << endl;
    long long v;
    if (!(cin >> v) || v < 0) exit(0);
    return v;
}
int main() {
    cin >> n >> q;
    vector<long long> F = {0, 1, 1};
    while (F.back() < n + 1) F.push_back(F[F.size() - 1] + F[F.size() - 2]);
    int m = (int)F.size() - 1;
    long long lo = 0;
    if (m > 3) {
        long long x1 = lo + F[m - 2], x2 = lo + F[m - 1];
        long long v1 = ask(x1), v2 = ask(x2);
        while (true) {
            if (v1 < v2) {
                lo = x1;
                m--;
                if (m <= 3) break;
                x1 = x2;  // the surviving probe becomes the left one...
                // ...but v1 is not updated to v2 (bug)
                x2 = lo + F[m - 1];
                v2 = ask(x2);
            } else {
                m--;
                if (m <= 3) break;
                x2 = x1, v2 = v1;
                x1 = lo + F[m - 2];
                v1 = ask(x1);
            }
        }
    }
    cout << "! " << lo + 1 << endl;
}
