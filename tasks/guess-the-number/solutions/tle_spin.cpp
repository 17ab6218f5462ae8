// Reads the first game and then burns CPU forever before asking anything.
#include <bits/stdc++.h>
using namespace std;
int main() {
    long long T, Q, n;
    cin >> T >> Q >> n;
    volatile unsigned long long s = 0;
    while (true) s = s * 6364136223846793005ULL + 1442695040888963407ULL;
}
