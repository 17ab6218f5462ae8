// Allocates 1 GB and touches every page before playing (limit 256 MB).
#include <bits/stdc++.h>
using namespace std;
int main() {
    const size_t size = 1ULL << 30;
    char* big = (char*)malloc(size);
    if (big) memset(big, 1, size);
    long long T, Q;
    cin >> T >> Q;
    for (long long g = 0; g < T; g++) {
        long long n;
        cin >> n;
        if (n == -1) return 0;
        long long lo = 1, hi = n;
        while (lo < hi) {
            long long mid = lo + (hi - lo) / 2;
            cout << "? " << mid << endl;
            string r;
            cin >> r;
            if (r == "-1") return 0;
            if (r == "=") { lo = hi = mid; break; }
            if (r == "<") hi = mid - 1; else lo = mid + 1;
        }
        cout << "! " << lo + (big ? big[g] - 1 : 0) << endl;
    }
}
