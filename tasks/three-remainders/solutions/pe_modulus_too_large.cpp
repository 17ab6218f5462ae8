// Protocol violation: uses moduli 10^6 + 1, 10^6, 10^6 - 1 (the first is above the limit).
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    long long Q, L;
    cin >> T >> Q >> L;
    cout << "? 1000001" << endl;
    long long r;
    cin >> r;
    return 0;
}
