// State-update bug: the cached segment-tree sums are never lowered after a pick.
#include <bits/stdc++.h>
using namespace std;
static int n;
static vector<long long> sum;
static vector<char> known;
static long long ask(int l, int r) {
    cout << "? " << l << " " << r << endl;
    long long v;
    if (!(cin >> v) || v < 0) exit(0);
    return v;
}
int main() {
    int m;
    long long q;
    if (!(cin >> n >> m >> q)) return 0;
    sum.assign(4 * n + 4, 0);
    known.assign(4 * n + 4, 0);
    for (int e = 0; e < m; e++) {
        int type;
        long long x;
        if (!(cin >> type >> x)) return 0;
        if (type == 2) {  // one more item on shelf x: update the known sums on its path
            int node = 1, l = 1, r = n;
            while (known[node]) {
                sum[node]++;
                if (l == r) break;
                int mid = (l + r) / 2;
                if (x <= mid) node = 2 * node, r = mid; else node = 2 * node + 1, l = mid + 1;
            }
            continue;
        }
        long long k = x;
        if (!known[1]) sum[1] = ask(1, n), known[1] = 1;
        int node = 1, l = 1, r = n;
        vector<int> path = {1};
        while (l < r) {
            int mid = (l + r) / 2, L = 2 * node, R = 2 * node + 1;
            if (!known[L]) sum[L] = ask(l, mid), known[L] = 1;
            sum[R] = sum[node] - sum[L], known[R] = 1;
            if (k <= sum[L]) node = L, r = mid;
            else k -= sum[L], node = R, l = mid + 1;
            path.push_back(node);
        }
        cout << "! " << l << endl;
        (void)path;  // BUG: picked items stay in the cached sums
    }
    return 0;
}
