// Knockout bracket played in rounds (byes when odd), then a linear maximum over the players the
// champion beat directly. The champion plays at most ceil(log2 n) matches, so the total is
// (n - 1) + (ceil(log2 n) - 1).
#include <bits/stdc++.h>
using namespace std;
int n, Q;
bool stronger(int i, int j) {
    cout << "? " << i << " " << j << endl;
    string r;
    cin >> r;
    if (r != ">" && r != "<") exit(0);
    return r == ">";
}
int main() {
    cin >> n >> Q;
    vector<vector<int>> beaten(n + 1);
    vector<int> alive(n);
    iota(alive.begin(), alive.end(), 1);
    while (alive.size() > 1) {
        vector<int> next;
        for (size_t k = 0; k + 1 < alive.size(); k += 2) {
            int a = alive[k], b = alive[k + 1];
            if (stronger(a, b)) { beaten[a].push_back(b); next.push_back(a); }
            else { beaten[b].push_back(a); next.push_back(b); }
        }
        if (alive.size() % 2) next.push_back(alive.back());
        alive = next;
    }
    int champ = alive[0];
    int best = beaten[champ][0];
    for (size_t k = 1; k < beaten[champ].size(); k++)
        if (stronger(beaten[champ][k], best)) best = beaten[champ][k];
    cout << "! " << best << endl;
}
