// Over budget: binary search on the slope, comparing a[mid] with a[mid+1] (two queries per
// halving, about 2 log2 n in total); exits on -1.
#include <bits/stdc++.h>
using namespace std;
int main() {
    long long n, q;
    cin >> n >> q;
    long long lo = 1, hi = n;
    while (lo < hi) {
        long long mid = (lo + hi) / 2, a, b;
        cout << "? " << mid << endl;
        cin >> a;
        if (a < 0) return 0;
        cout << "? " << mid + 1 << endl;
        cin >> b;
        if (b < 0) return 0;
        if (a < b) lo = mid + 1;
        else hi = mid;
    }
    cout << "! " << lo << endl;
}
