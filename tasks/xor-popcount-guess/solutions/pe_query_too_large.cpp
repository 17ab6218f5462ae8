// Protocol violation: off-by-one, asks y = 2^n (outside [0, 2^n - 1]) as its first query.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    long long Q;
    cin >> T >> Q;
    int n;
    cin >> n;
    cout << "? " << (1LL << n) << endl;
    long long r;
    cin >> r;
    return 0;
}
