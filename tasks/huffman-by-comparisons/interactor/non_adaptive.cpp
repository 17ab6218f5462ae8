// Interactor for huffman-by-comparisons (non-adaptive, T games per run).
// Case: T, then per game a line "n" and a line with the n hidden weights. Leaves are nodes
// 1..n; the solver's j-th merge "+ a b" creates node n + j with weight w(a) + w(b) (no reply).
// "? a b" compares two existing nodes ("<", "=", ">"). "!" ends the game: exactly n - 1 merges
// must have been made and the total weight of the merged nodes must equal the optimal (Huffman)
// cost. Budget per game: n * ceil(log2 n) + 2n comparisons. On comparison budget + 1 the run
// ends at once (no reply); the figures in tout then read as an overrun (Query Limit Exceeded).
#include "testlib.h"
#include <fcntl.h>
#include <unistd.h>
#include <csignal>
#include <cstdio>
#include <functional>
#include <queue>
#include <string>
#include <vector>

static long long queries = 0, query_limit = 0;

static void log_counts() {
    tout << "queries=" << queries << "\n" << "query_limit=" << query_limit << std::endl;
}

[[noreturn]] static void finish(TResult r, const std::string& msg) {
    log_counts();
    quitf(r, "%s", msg.c_str());
}

static std::string next_token() {
    if (ouf.seekEof()) finish(_pe, "unexpected end of the solver's output");
    return ouf.readToken();
}

static long long read_number(const char* what) {
    std::string s = next_token();
    bool ok = !s.empty() && s.size() <= 18;
    size_t start = (ok && s[0] == '-') ? 1 : 0;
    if (start == s.size()) ok = false;
    for (size_t i = start; ok && i < s.size(); i++) ok = s[i] >= '0' && s[i] <= '9';
    if (ok && s.size() - start > 1 && s[start] == '0') ok = false;
    if (ok && s == "-0") ok = false;
    if (!ok) finish(_pe, format("expected an integer %s, found \"%s\"", what, s.substr(0, 40).c_str()));
    return std::stoll(s);
}

static long long budget_for(long long n) {
    int c = 0;
    while ((1LL << c) < n) c++;
    return n * c + 2 * n;
}

static long long huffman_cost(const std::vector<long long>& w) {
    std::priority_queue<long long, std::vector<long long>, std::greater<long long>> pq(w.begin(), w.end());
    long long cost = 0;
    while (pq.size() > 1) {
        long long a = pq.top(); pq.pop();
        long long b = pq.top(); pq.pop();
        cost += a + b;
        pq.push(a + b);
    }
    return cost;
}

// End of the run: close the solver's input (it sees EOF if it still reads) without fclose() on
// the C stream: ibench's testlib may have replaced stdout by a recording stream that must stay
// valid until exit, so only file descriptor 1 is swapped for /dev/null.
static void close_solver_input() {
    std::cout.flush();
    std::fflush(stdout);
    int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (devnull >= 0) {
        dup2(devnull, 1);
        close(devnull);
    } else {
        close(1);
    }
}

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);
    int T = inf.readInt(1, 20, "T");
    std::vector<std::vector<long long>> W(T);
    long long total = 0;
    for (int g = 0; g < T; g++) {
        int n = inf.readInt(1, 1000, "n");
        W[g].resize(n);
        for (auto& x : W[g]) x = inf.readLong(1, 1000000, "w");
        query_limit += budget_for(n);
        total += n;
    }
    ensuref(total <= 5000, "total n too large");
    log_counts();

    std::cout << T << std::endl;
    long long used_before = 0;
    for (int g = 0; g < T; g++) {
        const int n = (int)W[g].size();
        const long long budget = budget_for(n);
        const long long best = huffman_cost(W[g]);
        std::vector<long long> weight(W[g].begin(), W[g].end());
        weight.insert(weight.begin(), 0);  // 1-based node ids
        std::vector<char> merged(n + 1, 0);
        int merges = 0;
        long long cost = 0;
        std::cout << n << " " << budget << std::endl;
        while (true) {
            std::string cmd = next_token();
            int nodes = n + merges;
            if (cmd == "?") {
                long long a = read_number("node after '?'");
                long long b = read_number("node after '?'");
                if (a < 1 || a > nodes || b < 1 || b > nodes)
                    finish(_pe, format("game %d: \"? %lld %lld\" names a node outside [1, %d]", g + 1, a, b, nodes));
                queries++;
                if (queries - used_before > budget) {
                    query_limit = used_before + budget;
                    finish(_wa, format("game %d: more than n*ceil(log2 n)+2n = %lld comparisons", g + 1, budget));
                }
                log_counts();
                std::cout << (weight[a] < weight[b] ? "<" : weight[a] > weight[b] ? ">" : "=") << std::endl;
            } else if (cmd == "+") {
                long long a = read_number("node after '+'");
                long long b = read_number("node after '+'");
                if (a < 1 || a > nodes || b < 1 || b > nodes)
                    finish(_pe, format("game %d: \"+ %lld %lld\" names a node outside [1, %d]", g + 1, a, b, nodes));
                if (a == b) finish(_wa, format("game %d: cannot merge node %lld with itself", g + 1, a));
                if (merged[a] || merged[b])
                    finish(_wa, format("game %d: node %lld was already merged", g + 1, merged[a] ? a : b));
                merged[a] = merged[b] = 1;
                weight.push_back(weight[a] + weight[b]);
                merged.push_back(0);
                cost += weight.back();
                merges++;
            } else if (cmd == "!") {
                if (merges != n - 1)
                    finish(_wa, format("game %d: %d merges made, a tree on %d leaves needs %d", g + 1, merges, n, n - 1));
                if (cost != best)
                    finish(_wa, format("game %d: the tree costs %lld, the optimum is %lld", g + 1, cost, best));
                break;
            } else {
                finish(_pe, format("game %d: expected '?', '+' or '!', found \"%s\"", g + 1, cmd.substr(0, 40).c_str()));
            }
        }
        used_before = queries;
    }
    close_solver_input();
    if (!ouf.seekEof()) finish(_pe, "output after the final answer");
    finish(_ok, format("%d optimal trees with %lld comparisons (budget %lld in all)", T, queries, query_limit));
}
