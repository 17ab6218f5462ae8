// Memoised search over multisets: tokens of equal value are interchangeable, so a state is how
// many tokens of each distinct value are taken (mixed-radix index, at most 2^m states, usually
// far fewer). Top-down with early exit. scanf/printf with fflush.
#include <cstdio>
#include <map>
#include <vector>
using namespace std;
static vector<long long> val;   // distinct values
static vector<int> cnt, radix;  // how many tokens of each value; mixed-radix weights
static vector<signed char> memo;
static long long S;
static bool wins(int idx, long long total, vector<int>& taken) {
    if (memo[idx] >= 0) return memo[idx];
    bool w = false;
    for (size_t j = 0; j < val.size() && !w; j++) {
        if (taken[j] == cnt[j] || total + val[j] > S) continue;
        taken[j]++;
        if (!wins(idx + radix[j], total + val[j], taken)) w = true;
        taken[j]--;
    }
    memo[idx] = w;
    return w;
}
int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int m;
        scanf("%d %lld", &m, &S);
        vector<long long> v(m);
        map<long long, int> groups;
        for (auto& x : v) { scanf("%lld", &x); groups[x]++; }
        val.clear(), cnt.clear(), radix.clear();
        int states = 1;
        for (auto& [value, c] : groups) {
            val.push_back(value), cnt.push_back(c), radix.push_back(states);
            states *= c + 1;
        }
        memo.assign(states, -1);
        vector<int> taken(val.size(), 0);
        vector<char> used(m, 0);
        int idx = 0;
        long long total = 0;
        bool myTurn = wins(0, 0, taken);
        printf("%s\n", myTurn ? "First" : "Second");
        fflush(stdout);
        while (true) {
            if (myTurn) {
                int best = -1, any = -1;
                for (size_t j = 0; j < val.size(); j++) {
                    if (taken[j] == cnt[j] || total + val[j] > S) continue;
                    if (any < 0) any = (int)j;
                    taken[j]++;
                    bool oppWins = wins(idx + radix[j], total + val[j], taken);
                    taken[j]--;
                    if (!oppWins) { best = (int)j; break; }
                }
                int j = best >= 0 ? best : any;
                if (j < 0) return 0;
                int token = -1;
                for (int i = 0; i < m && token < 0; i++)
                    if (!used[i] && v[i] == val[j]) token = i;
                used[token] = 1, taken[j]++, idx += radix[j], total += val[j];
                printf("%d\n", token + 1);
                fflush(stdout);
            } else {
                int t = -1;
                if (scanf("%d", &t) != 1 || t <= 0) {
                    if (t == 0) break;
                    return 0;
                }
                used[t - 1] = 1;
                size_t j = 0;
                while (val[j] != v[t - 1]) j++;
                taken[j]++, idx += radix[j], total += v[t - 1];
            }
            myTurn = !myTurn;
        }
    }
    return 0;
}
