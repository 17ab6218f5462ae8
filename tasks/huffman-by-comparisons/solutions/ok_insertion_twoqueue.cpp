// Binary insertion sort of the leaves (sum of ceil(log2(i+1)) comparisons), then Huffman's
// greedy with two queues, written as a merge of two sorted streams. scanf/printf with fflush.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
using namespace std;
static int cmp(int a, int b) {  // -1, 0, 1 for w(a) <, =, > w(b)
    printf("? %d %d\n", a, b);
    fflush(stdout);
    char r[4];
    if (scanf("%3s", r) != 1) exit(0);
    if (r[0] == '<') return -1;
    if (r[0] == '=') return 0;
    if (r[0] == '>') return 1;
    exit(0);
}
int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int n;
        long long q;
        if (scanf("%d %lld", &n, &q) != 2) return 0;
        vector<int> s;  // sorted leaves
        for (int v = 1; v <= n; v++) {
            int lo = 0, hi = (int)s.size();  // insert before the first element heavier than v
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (cmp(v, s[mid]) < 0) hi = mid; else lo = mid + 1;
            }
            s.insert(s.begin() + lo, v);
        }
        vector<int> merged;
        size_t i = 0, j = 0;
        int next = n + 1;
        for (int m = 0; m < n - 1; m++) {
            int pick[2];
            for (int t = 0; t < 2; t++) {
                bool fromLeaves;
                if (i == s.size()) fromLeaves = false;
                else if (j == merged.size()) fromLeaves = true;
                else fromLeaves = cmp(s[i], merged[j]) <= 0;
                pick[t] = fromLeaves ? s[i++] : merged[j++];
            }
            printf("+ %d %d\n", pick[0], pick[1]);
            merged.push_back(next++);
        }
        printf("!\n");
        fflush(stdout);
    }
    return 0;
}
