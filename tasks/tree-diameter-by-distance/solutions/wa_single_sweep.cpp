// Wrong: stops after one sweep and answers (1, farthest from 1). Vertex 1 is rarely an endpoint.
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
        int a = 2, best = -1;
        for (int v = 2; v <= n; v++) {
            cout << "? 1 " << v << endl;
            int d;
            cin >> d;
            if (d < 0) return 0;
            if (d > best) best = d, a = v;
        }
        cout << "! 1 " << a << endl;
    }
}
