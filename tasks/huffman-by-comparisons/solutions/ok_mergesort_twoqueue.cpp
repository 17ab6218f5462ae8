// Huffman's greedy with comparisons only. Sort the leaves with top-down merge sort
// (at most n*ceil(log2 n) - 2^ceil(log2 n) + 1 comparisons), then the classic two-queue method:
// merged nodes are created in non-decreasing order, so the two lightest nodes are always among
// the fronts of the sorted leaf queue and the merged-node queue; picking each one costs at most
// one comparison, 2(n-1) in all.
#include <bits/stdc++.h>
using namespace std;
static bool lighter(int a, int b) {  // w(a) < w(b)?  (ties: false)
    cout << "? " << a << " " << b << endl;
    string r;
    if (!(cin >> r) || (r != "<" && r != "=" && r != ">")) exit(0);
    return r == "<";
}
static void msort(vector<int>& v, int l, int r, vector<int>& tmp) {  // [l, r)
    if (r - l < 2) return;
    int mid = (l + r + 1) / 2;
    msort(v, l, mid, tmp);
    msort(v, mid, r, tmp);
    int i = l, j = mid, k = l;
    while (i < mid && j < r) tmp[k++] = lighter(v[j], v[i]) ? v[j++] : v[i++];
    while (i < mid) tmp[k++] = v[i++];
    while (j < r) tmp[k++] = v[j++];
    for (int t = l; t < r; t++) v[t] = tmp[t];
}
int main() {
    int T;
    if (!(cin >> T)) return 0;
    while (T--) {
        int n;
        long long q;
        cin >> n >> q;
        vector<int> leaves(n), tmp(n);
        iota(leaves.begin(), leaves.end(), 1);
        msort(leaves, 0, n, tmp);
        deque<int> A(leaves.begin(), leaves.end()), B;  // A: sorted leaves, B: merged nodes
        int next = n + 1;
        auto take = [&]() {
            int x;
            if (B.empty() || (!A.empty() && !lighter(B.front(), A.front()))) x = A.front(), A.pop_front();
            else x = B.front(), B.pop_front();
            return x;
        };
        for (int m = 0; m < n - 1; m++) {
            int a = take(), b = take();
            cout << "+ " << a << " " << b << "\n";
            B.push_back(next++);
        }
        cout << "!" << endl;
    }
    return 0;
}
