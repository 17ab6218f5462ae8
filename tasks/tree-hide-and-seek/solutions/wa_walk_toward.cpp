// Walks from vertex 1 along the replies (one step per query). Fast on small trees, but it
// stops when the budget is spent and then guesses where it stands: wrong on long paths.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int n, Q;
    cin >> n >> Q;
    for (int i = 0; i + 1 < n; i++) { int a, b; cin >> a >> b; }
    int cur = 1;
    for (int used = 0; used < Q; used++) {
        cout << "? " << cur << endl;
        int r;
        cin >> r;
        if (r < 0) return 0;
        if (r == 0) break;
        cur = r;
    }
    cout << "! " << cur << endl;
}
