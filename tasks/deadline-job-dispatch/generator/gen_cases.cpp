// Generator for deadline-job-dispatch:
//   gen <seed> [--mode non] [--scen S] [--m M] [--cmin A] [--cmax C] [--kmax K] [--slack L] [--tight P] [--pattern X]
// Prints T = S scenarios; each: m, then m lines "c k d_1 .. d_k".
// Per slot: capacity uniform in [cmin, cmax], k uniform in [0, kmax]; a job's deadline is
// t + slack, slack in [0, 2] with probability P% ("tight" jobs), else in [0, L] (capped at m).
// Patterns: random (as above); bursts (capacity 0 for stretches, then a burst of capacity 5);
// trap (each slot releases one long job (deadline m) before one tight job: first-come-first-
// served loses, so does newest-first in the next slot); none (no jobs at all).
#include "testlib.h"
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "non");
    int S = opt<int>("scen", 3);
    int M = opt<int>("m", 100);
    int cmin = opt<int>("cmin", 0);
    int cmax = opt<int>("cmax", 2);
    int kmax = opt<int>("kmax", 3);
    int slack = opt<int>("slack", 20);
    int tight = opt<int>("tight", 30);
    std::string pattern = opt<std::string>("pattern", "random");
    ensuref(mode == "non", "deadline-job-dispatch has only non-adaptive cases");
    ensuref(1 <= S && S <= 10 && 1 <= M && M <= 2000 && (long long)S * M <= 6000, "bad sizes");
    ensuref(0 <= cmin && cmin <= cmax && cmax <= 5 && 0 <= kmax && kmax <= 6, "bad options");

    printf("%d\n", S);
    for (int s = 0; s < S; s++) {
        int m = M;
        printf("%d\n", m);
        int burst_left = 0;
        for (int t = 1; t <= m; t++) {
            int c = rnd.next(cmin, cmax);
            std::vector<int> ds;
            if (pattern == "none") {
                ds.clear();
            } else if (pattern == "trap") {
                c = 1;
                ds.push_back(m);                               // long job, released first
                ds.push_back(std::min(m, t + rnd.next(0, 1)));  // tight job
                if (rnd.next(3) == 0) ds.push_back(std::min(m, t + rnd.next(0, slack)));
            } else {
                if (pattern == "bursts") {
                    if (burst_left == 0) burst_left = rnd.next(1, 6) * (rnd.next(2) ? 1 : -1);
                    c = burst_left > 0 ? 5 : 0;
                    burst_left += burst_left > 0 ? -1 : 1;
                }
                int k = rnd.next(0, kmax);
                for (int i = 0; i < k; i++) {
                    int sl = rnd.next(100) < tight ? rnd.next(0, 2) : rnd.next(0, slack);
                    ds.push_back(std::min(m, t + sl));
                }
            }
            printf("%d %d", c, (int)ds.size());
            for (int d : ds) printf(" %d", d);
            printf("\n");
        }
    }
    return 0;
}
