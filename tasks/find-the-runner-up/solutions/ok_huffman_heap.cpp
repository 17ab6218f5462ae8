// Always lets the two undefeated players with the smallest "bracket size" (players eliminated
// under them, plus one) meet, like Huffman merging with equal weights; then the runner-up is the
// best of the champion's direct victims, found by a second small heap-free tournament.
#include <cstdio>
#include <queue>
#include <vector>
#include <functional>
using namespace std;
static int ask(int i, int j) {  // returns the winner
    printf("? %d %d\n", i, j);
    fflush(stdout);
    char r[4];
    if (scanf("%3s", r) != 1 || (r[0] != '>' && r[0] != '<')) exit(0);
    return r[0] == '>' ? i : j;
}
int main() {
    int n, Q;
    if (scanf("%d %d", &n, &Q) != 2) return 0;
    vector<vector<int>> victims(n + 1);
    vector<int> size(n + 1, 1);
    priority_queue<pair<int, int>, vector<pair<int, int>>, greater<pair<int, int>>> pq;
    for (int i = 1; i <= n; i++) pq.push({1, i});
    while (pq.size() > 1) {
        int a = pq.top().second; pq.pop();
        int b = pq.top().second; pq.pop();
        int w = ask(a, b), l = w == a ? b : a;
        victims[w].push_back(l);
        size[w] += size[l];
        pq.push({size[w], w});
    }
    int champ = pq.top().second;
    // Candidates meet pairwise until one is left: k - 1 matches for k candidates.
    vector<int> cand = victims[champ];
    while (cand.size() > 1) {
        vector<int> next;
        for (size_t k = 0; k + 1 < cand.size(); k += 2) next.push_back(ask(cand[k], cand[k + 1]));
        if (cand.size() % 2) next.push_back(cand.back());
        cand = next;
    }
    printf("! %d\n", cand[0]);
    fflush(stdout);
    return 0;
}
