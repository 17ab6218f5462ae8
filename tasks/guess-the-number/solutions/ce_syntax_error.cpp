// Does not compile: missing semicolon and an undeclared variable.
#include <bits/stdc++.h>
using namespace std;
int main() {
    long long T, Q
    cin >> T >> Q;
    cout << "! " << answer << endl;
}
