// Earliest deadline first with a min-heap: drop expired jobs, then execute up to c pending jobs
// with the smallest deadlines. Optimal for unit jobs (exchange argument), and online.
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T;
    cin >> T;
    while (T--) {
        int m;
        if (!(cin >> m) || m == -1) return 0;
        priority_queue<pair<int, int>, vector<pair<int, int>>, greater<>> pq;  // (deadline, id)
        for (int t = 1; t <= m; t++) {
            int c, k;
            if (!(cin >> c) || c == -1) return 0;
            cin >> k;
            for (int i = 0; i < k; i++) {
                int id, d;
                cin >> id >> d;
                pq.push({d, id});
            }
            while (!pq.empty() && pq.top().first < t) pq.pop();
            vector<int> run;
            while ((int)run.size() < c && !pq.empty()) {
                run.push_back(pq.top().second);
                pq.pop();
            }
            cout << run.size();
            for (int j : run) cout << " " << j;
            cout << endl;
        }
    }
}
