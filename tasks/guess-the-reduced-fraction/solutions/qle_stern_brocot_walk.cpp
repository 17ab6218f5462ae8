// Naive: walks down the Stern-Brocot tree one mediant per query. Correct, but a fraction such as
// 1/N needs N queries.
#include <bits/stdc++.h>
using namespace std;
typedef long long ll;
int main() {
    int T; ll Q;
    cin >> T >> Q;
    while (T--) {
        ll N;
        cin >> N;
        ll a = 0, b = 1, c = 1, d = 0;
        while (true) {
            ll x = a + c, y = b + d;
            cout << "? " << x << " " << y << endl;
            string s;
            if (!(cin >> s) || s == "-1") return 0;
            if (s == "=") { cout << "! " << x << " " << y << endl; break; }
            if (s == ">") { a = x; b = y; } else { c = x; d = y; }
        }
    }
}
