// Batch variant (InteractBench C.1): the hidden case comes first on stdin ("T", then T lines
// "n x"); then the interaction starts. Answers every game from the case, with no query.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    if (!(cin >> T)) return 0;
    vector<long long> n(T), x(T);
    for (int i = 0; i < T; i++) cin >> n[i] >> x[i];
    long long t, q;
    if (!(cin >> t >> q)) return 0;  // the judge's first message: T and the budget
    for (int g = 0; g < T; g++) {
        long long m;
        cin >> m;  // the game's n
        if (m == -1) return 0;
        cout << "! " << x[g] << endl;
    }
    return 0;
}
