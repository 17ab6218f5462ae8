// Protocol violation: the second sweep starts at v = 1 and, when a == 1, asks "? 1 1" (u = v).
// To make it certain, the first query of the run is "? 1 1".
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    long long Q;
    cin >> T >> Q;
    int n;
    cin >> n;
    cout << "? 1 1" << endl;
    int d;
    cin >> d;
    return 0;
}
