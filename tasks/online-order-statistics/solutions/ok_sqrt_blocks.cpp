// Sorted blocks of about sqrt(n) values: insert/erase touch one block, k-th walks block sizes.
// Blocks are split when they grow past 2B.
#include <bits/stdc++.h>
using namespace std;
const size_t B = 600;
vector<vector<long long>> blocks;
void insert_value(long long v) {
    if (blocks.empty()) { blocks.push_back({v}); return; }
    size_t b = 0;
    while (b + 1 < blocks.size() && blocks[b].back() < v) b++;
    auto& bl = blocks[b];
    bl.insert(upper_bound(bl.begin(), bl.end(), v), v);
    if (bl.size() > 2 * B) {
        vector<long long> right(bl.begin() + B, bl.end());
        bl.resize(B);
        blocks.insert(blocks.begin() + b + 1, right);
    }
}
void erase_value(long long v) {
    for (size_t b = 0; b < blocks.size(); b++) {
        auto& bl = blocks[b];
        if (bl.back() < v) continue;
        auto it = lower_bound(bl.begin(), bl.end(), v);
        bl.erase(it);  // v is present, so it is here
        if (bl.empty()) blocks.erase(blocks.begin() + b);
        return;
    }
}
long long kth(long long k) {
    for (auto& bl : blocks) {
        if (k <= (long long)bl.size()) return bl[k - 1];
        k -= bl.size();
    }
    return -1;
}
int main() {
    int q;
    if (scanf("%d", &q) != 1) return 0;
    char c[8];
    long long v;
    for (int i = 0; i < q; i++) {
        if (scanf("%7s", c) != 1) return 0;
        if (c[0] == '-' && c[1] == '1') return 0;
        scanf("%lld", &v);
        if (c[0] == '+') insert_value(v);
        else if (c[0] == '-') erase_value(v);
        else { printf("%lld\n", kth(v)); fflush(stdout); }
    }
}
