// Over budget: asks for every pair of vertices (n(n-1)/2 queries per tree).
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    long long Q;
    cin >> T >> Q;
    while (T--) {
        int n;
        cin >> n;
        if (n < 0) return 0;
        int a = 1, b = 2, best = -1;
        for (int u = 1; u <= n; u++)
            for (int v = u + 1; v <= n; v++) {
                cout << "? " << u << " " << v << endl;
                int d;
                cin >> d;
                if (d < 0) return 0;
                if (d > best) best = d, a = u, b = v;
            }
        cout << "! " << a << " " << b << endl;
    }
}
