// Batch variant (InteractBench C.1): the hidden case comes first on stdin ("T", then T lines
// "L x"); then the interaction. Answers each game's x from the case, with no query.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    if (!(cin >> T)) return 0;
    vector<long long> L(T), x(T);
    for (int g = 0; g < T; g++) cin >> L[g] >> x[g];
    long long t, q;
    if (!(cin >> t >> q)) return 0;  // the judge's first message: T and the budget
    for (int g = 0; g < T; g++) {
        long long l;
        if (!(cin >> l) || l == -1) return 0;  // the game's L
        cout << "! " << x[g] << endl;
    }
    return 0;
}
