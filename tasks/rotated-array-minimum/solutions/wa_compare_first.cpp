// Bug: searches for the first value below a_1 without checking whether the array is already
// sorted, so an unrotated array (m = 1) gets answer n.
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
        long long lo = 1;
        if (n > 1) {
            long long first = ask(1);
            lo = 2;
            long long hi = n;
            while (lo < hi) {
                long long mid = (lo + hi) / 2;
                if (ask(mid) < first) hi = mid; else lo = mid + 1;
            }
        }
        cout << "! " << lo << endl;
    }
}
