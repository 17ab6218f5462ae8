// Batch variant: reads the hidden case, then prints the answer without the "!" marker: PE.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    if (!(cin >> T)) return 0;
    vector<long long> n(T), x(T);
    for (int i = 0; i < T; i++) cin >> n[i] >> x[i];
    long long t, q;
    if (!(cin >> t >> q)) return 0;
    long long m;
    cin >> m;
    cout << x[0] << endl;
    string r;
    cin >> r;
    return 0;
}
