// Same greedy rule, different bookkeeping: jobs are kept in buckets by deadline and a pointer
// walks forward to the earliest non-empty bucket that is not expired; stdio with fflush.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int m;
        if (scanf("%d", &m) != 1 || m == -1) return 0;
        vector<vector<int>> bucket(m + 2);
        for (int t = 1; t <= m; t++) {
            int c, k;
            if (scanf("%d", &c) != 1 || c == -1) return 0;
            scanf("%d", &k);
            for (int i = 0; i < k; i++) {
                int id, d;
                scanf("%d %d", &id, &d);
                bucket[d].push_back(id);
            }
            vector<int> run;
            for (int d = t; d <= m && (int)run.size() < c; d++)
                while (!bucket[d].empty() && (int)run.size() < c) {
                    run.push_back(bucket[d].back());
                    bucket[d].pop_back();
                }
            printf("%d", (int)run.size());
            for (int j : run) printf(" %d", j);
            printf("\n");
            fflush(stdout);
        }
    }
}
