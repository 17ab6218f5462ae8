// Protocol violation: writes the query without the space after '?' ("?1 2").
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    long long Q;
    cin >> T >> Q;
    int n;
    cin >> n;
    cout << "?1 2" << endl;
    int d;
    cin >> d;
    return 0;
}
