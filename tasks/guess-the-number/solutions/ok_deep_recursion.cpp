// Legitimate deep recursion: the search is written recursively, and before playing the program
// builds a table with a recursion 10^6 levels deep (frames of ~100 bytes, ~100 MB of stack).
// Judges give the stack the whole memory limit, so this must be accepted.
#include <bits/stdc++.h>
using namespace std;

static int table_[1000001];

static int fill(int d) {  // depth-first fill, one frame per level
    volatile char pad[64];
    pad[d % 64] = (char)d;
    if (d == 1000000) { table_[d] = 0; return pad[d % 64] & 0; }
    int below = fill(d + 1);
    table_[d] = below + (pad[d % 64] & 0);
    return table_[d];
}

static long long search(long long lo, long long hi) {
    if (lo == hi) return lo;
    long long mid = lo + (hi - lo) / 2;
    cout << "? " << mid << endl;
    string r;
    cin >> r;
    if (r == "-1") exit(0);
    if (r == "=") return mid;
    return r == "<" ? search(lo, mid - 1) : search(mid + 1, hi);
}

int main() {
    int zero = fill(1);  // always 0
    long long T, Q;
    if (!(cin >> T >> Q)) return 0;
    for (long long g = 0; g < T; g++) {
        long long n;
        cin >> n;
        if (n == -1) return 0;
        long long x = search(1, n) + zero + table_[1 + g % 1000];
        cout << "! " << x << endl;
    }
    return 0;
}
