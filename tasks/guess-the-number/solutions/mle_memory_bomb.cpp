// Memory bomb: keeps allocating and touching 16 MB blocks until something stops it.
#include <bits/stdc++.h>
using namespace std;
int main() {
    long long T, Q;
    cin >> T >> Q;
    vector<char*> keep;
    while (true) {
        char* p = (char*)malloc(16 << 20);
        if (!p) continue;  // keep trying
        memset(p, 7, 16 << 20);
        keep.push_back(p);
    }
}
