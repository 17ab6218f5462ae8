// Different approach: top-down merge sort of the vertices with "u -> v" as the comparison.
// Merging two Hamiltonian paths by their heads keeps every consecutive pair a checked edge even
// though the relation is not transitive. Worst case = that of merge sort = B(n).
#include <bits/stdc++.h>
using namespace std;
static int ask(int u, int v) {
    printf("? %d %d\n", u, v);
    fflush(stdout);
    int r;
    if (scanf("%d", &r) != 1 || r == -1) exit(0);
    return r;
}
static vector<int> sortPath(const vector<int>& a) {
    if (a.size() <= 1) return a;
    size_t h = a.size() / 2;
    vector<int> L = sortPath(vector<int>(a.begin(), a.begin() + h));
    vector<int> R = sortPath(vector<int>(a.begin() + h, a.end()));
    vector<int> out;
    size_t i = 0, j = 0;
    while (i < L.size() && j < R.size()) {
        if (ask(L[i], R[j])) out.push_back(L[i++]);
        else out.push_back(R[j++]);
    }
    while (i < L.size()) out.push_back(L[i++]);
    while (j < R.size()) out.push_back(R[j++]);
    return out;
}
int main() {
    int T; long long Q;
    if (scanf("%d %lld", &T, &Q) != 2) return 0;
    while (T--) {
        int n;
        if (scanf("%d", &n) != 1 || n == -1) return 0;
        vector<int> v(n);
        iota(v.begin(), v.end(), 1);
        vector<int> p = sortPath(v);
        printf("!");
        for (int x : p) printf(" %d", x);
        printf("\n");
        fflush(stdout);
    }
}
