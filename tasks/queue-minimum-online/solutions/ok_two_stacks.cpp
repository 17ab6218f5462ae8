// Different approach: a queue made of two stacks, each entry storing the minimum below it;
// scanf/printf with explicit fflush.
#include <bits/stdc++.h>
using namespace std;
struct MinStack {
    vector<pair<long long, long long>> v;  // (value, minimum of this and everything below)
    void push(long long x) { v.push_back({x, v.empty() ? x : min(x, v.back().second)}); }
    long long pop() { long long x = v.back().first; v.pop_back(); return x; }
    bool empty() const { return v.empty(); }
    long long mn() const { return v.back().second; }
};
int main() {
    int q;
    if (scanf("%d", &q) != 1) return 0;
    MinStack in, out;
    char op[16];
    for (int i = 0; i < q; i++) {
        if (scanf("%15s", op) != 1 || strcmp(op, "-1") == 0) return 0;
        if (op[0] == '+') {
            long long x;
            scanf("%lld", &x);
            in.push(x);
        } else if (op[0] == '-') {
            if (out.empty())
                while (!in.empty()) out.push(in.pop());
            out.pop();
        } else {
            long long m = LLONG_MAX;
            if (!in.empty()) m = min(m, in.mn());
            if (!out.empty()) m = min(m, out.mn());
            printf("%lld\n", m);
            fflush(stdout);
        }
    }
}
