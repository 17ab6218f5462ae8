// Off-by-one in the pairing loop: the last player of an odd round is paired with itself.
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
    vector<vector<int>> beaten(n + 1);
    vector<int> alive(n);
    iota(alive.begin(), alive.end(), 1);
    while (alive.size() > 1) {
        vector<int> next;
        for (size_t k = 0; k < alive.size(); k += 2) {
            int a = alive[k], b = alive[min(k + 1, alive.size() - 1)];  // b == a for a bye
            if (stronger(a, b)) { beaten[a].push_back(b); next.push_back(a); }
            else { beaten[b].push_back(a); next.push_back(b); }
        }
        alive = next;
    }
    int champ = alive[0];
    int best = beaten[champ][0];
    for (size_t k = 1; k < beaten[champ].size(); k++)
        if (stronger(beaten[champ][k], best)) best = beaten[champ][k];
    cout << "! " << best << endl;
}
