// Protocol violation: off-by-one lower bound, asks "? 1" first (moduli must be >= 2).
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    long long Q, L;
    cin >> T >> Q >> L;
    cout << "? 1" << endl;
    long long r;
    cin >> r;
    return 0;
}
