// Plays a correct knockout bracket but then names the champion's opponent in the final as the
// runner-up, without comparing the other players the champion beat. Within budget, unproved.
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
        for (size_t k = 0; k + 1 < alive.size(); k += 2) {
            int a = alive[k], b = alive[k + 1];
            if (stronger(a, b)) { beaten[a].push_back(b); next.push_back(a); }
            else { beaten[b].push_back(a); next.push_back(b); }
        }
        if (alive.size() % 2) next.push_back(alive.back());
        alive = next;
    }
    cout << "! " << beaten[alive[0]].back() << endl;
}
