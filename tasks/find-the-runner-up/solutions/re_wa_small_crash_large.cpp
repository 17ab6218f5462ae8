// Fails in two ways: for n <= 64 it names the champion (the strongest, not the runner-up): WA on
// the early, small cases; for n > 64 it overruns a fixed-size array and crashes: RE on the later,
// large cases. The sample label must be RE (most severe), not the WA of the first failing case.
#include <bits/stdc++.h>
using namespace std;
bool stronger(int i, int j) {
    cout << "? " << i << " " << j << endl;
    string r;
    cin >> r;
    if (r != ">" && r != "<") exit(0);
    return r == ">";
}
int* volatile sink = nullptr;
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
    if (n > 64) *sink = n;  // "the table only has 64 slots": crashes (SIGSEGV)
    cout << "! " << alive[0] << endl;
}
