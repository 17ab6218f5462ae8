// Finds the maximum with a linear scan, then the maximum of the rest: 2n - 3 matches, which is
// more than n + ceil(log2 n) - 2 for n >= 4. The answer is right, the budget is not.
#include <bits/stdc++.h>
using namespace std;
bool stronger(int i, int j) {
    cout << "? " << i << " " << j << endl;
    string r;
    cin >> r;
    if (r != ">" && r != "<") exit(0);
    return r == ">";
}
int main() {
    int n, Q;
    cin >> n >> Q;
    int best = 1;
    for (int i = 2; i <= n; i++) if (stronger(i, best)) best = i;
    int second = best == 1 ? 2 : 1;
    for (int i = 1; i <= n; i++)
        if (i != best && i != second && stronger(i, second)) second = i;
    cout << "! " << second << endl;
}
