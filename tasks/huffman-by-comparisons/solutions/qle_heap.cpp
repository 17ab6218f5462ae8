// Budget overrun: Huffman with a binary heap (std::priority_queue) whose comparator asks the
// interactor: about 2 n log2 n comparisons. The run ends when the budget is exceeded.
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
        auto heavier = [](int a, int b) { return lighter(b, a); };
        priority_queue<int, vector<int>, decltype(heavier)> pq(heavier);
        for (int v = 1; v <= n; v++) pq.push(v);
        int next = n + 1;
        while (pq.size() > 1) {
            int a = pq.top(); pq.pop();
            int b = pq.top(); pq.pop();
            cout << "+ " << a << " " << b << "\n";
            pq.push(next++);
        }
        cout << "!" << endl;
    }
    return 0;
}
