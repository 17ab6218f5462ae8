// Protocol violation: writes the query in hexadecimal ("? 0x1").
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    long long Q;
    cin >> T >> Q;
    int n;
    cin >> n;
    cout << "? 0x1" << endl;
    long long r;
    cin >> r;
    return 0;
}
