// Asks 1, 2, 3, ... in turn. Runs past the budget; the interactor answers -1 and this exits.
// The interactor's verdict is WA, but queries > query_limit, so the label is QLE.
#include <bits/stdc++.h>
using namespace std;
int main() {
    long long T, Q;
    cin >> T >> Q;
    for (long long g = 0; g < T; g++) {
        long long n;
        cin >> n;
        if (n == -1) return 0;
        long long y = 1;
        for (; y < n; y++) {
            cout << "? " << y << endl;
            string r;
            cin >> r;
            if (r == "-1") return 0;
            if (r == "=") break;
        }
        cout << "! " << y << endl;
    }
}
