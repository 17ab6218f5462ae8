// Protocol violation: writes the side in lower case ("first" / "second").
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T, n, k;
    string b;
    cin >> T >> n >> k >> b;
    for (int i = 0; i < k; i++) { int s; cin >> s; }
    cout << "second" << endl;
    int l;
    cin >> l;
    return 0;
}
