// Non-adaptive interactor for tree-hide-and-seek. Case: "n x s", then n-1 edges.
// "? u" is answered with 0 when u = x, else with the neighbour of u on the path to x.
#include "testlib.h"
#include <csignal>
#include <fcntl.h>
#include <unistd.h>
#include <cstdio>
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

// End of the run: flush, then point fd 1 at /dev/null so the solver's stdin reaches EOF (a
// solver still reading exits instead of blocking) while later writes stay harmless.
static void close_solver_input() {
    std::cout.flush();
    std::fflush(stdout);
    int fd = open("/dev/null", O_WRONLY);
    if (fd >= 0) {
        dup2(fd, 1);
        close(fd);
    } else {
        close(1);
    }
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
    if (!ok) finish(_pe, format("expected an integer %s, found \"%s\"", what, s.substr(0, 40).c_str()));
    return std::stoll(s);
}

static int n;
static std::vector<std::pair<int, int>> edges;
static std::vector<std::vector<int>> adj;

// Reads "n x s" and the edges, checks that they form a tree, sets the budget, and sends the tree.
static void read_and_send_tree(int& x, int& seed) {
    n = inf.readInt(1, 100000, "n");
    x = inf.readInt(0, n, "x");
    seed = inf.readInt(0, 1000000000, "s");
    adj.assign(n + 1, {});
    for (int i = 0; i + 1 < n; i++) {
        int a = inf.readInt(1, n, "u"), b = inf.readInt(1, n, "v");
        edges.push_back({a, b});
        adj[a].push_back(b);
        adj[b].push_back(a);
    }
    std::vector<char> seen(n + 1, 0);
    std::vector<int> stack = {1};
    seen[1] = 1;
    int reached = 1;
    while (!stack.empty()) {
        int u = stack.back(); stack.pop_back();
        for (int v : adj[u]) if (!seen[v]) { seen[v] = 1; reached++; stack.push_back(v); }
    }
    ensuref(reached == n, "the hidden case is not a tree");
    int k = 0;
    while ((2LL << k) <= n) k++;
    query_limit = k;  // floor(log2 n)
    log_counts();     // before the first blocking read
    std::string out = format("%d %lld\n", n, query_limit);
    for (auto& e : edges) out += format("%d %d\n", e.first, e.second);
    std::cout << out << std::flush;
}

// After Q + 100 queries the interactor gives up on the run (-1). Up to there it keeps answering,
// so exceeding the budget is judged by the harness (queries > query_limit -> QLE).
static void count_query() {
    queries++;
    log_counts();
    if (queries > query_limit + 100) {
        std::cout << -1 << std::endl;
        finish(_wa, format("stopped after %lld queries (budget %lld)", queries, query_limit));
    }
}

// The answer was right: close the solver's input and make sure nothing follows it.
[[noreturn]] static void accept(const std::string& msg) {
    close_solver_input();
    if (!ouf.seekEof()) finish(_pe, "output after the final answer");
    finish(_ok, msg);
}

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);  // a solver that already exited must not kill the interactor
    int x, seed;
    read_and_send_tree(x, seed);
    ensuref(x >= 1, "non-adaptive case without a hidden vertex");
    // toward[u]: neighbour of u on the path to x (BFS tree rooted at x).
    std::vector<int> toward(n + 1, 0), order = {x};
    std::vector<char> seen(n + 1, 0);
    seen[x] = 1;
    for (size_t k = 0; k < order.size(); k++)
        for (int v : adj[order[k]]) if (!seen[v]) { seen[v] = 1; toward[v] = order[k]; order.push_back(v); }

    while (true) {
        std::string cmd = next_token();
        if (cmd == "?") {
            long long u = read_number("after '?'");
            if (u < 1 || u > n) finish(_pe, format("query %lld is outside [1, %d]", u, n));
            count_query();
            std::cout << (u == x ? 0 : toward[u]) << std::endl;
        } else if (cmd == "!") {
            long long v = read_number("after '!'");
            if (v < 1 || v > n) finish(_pe, format("answer %lld is outside [1, %d]", v, n));
            if (v != x) finish(_wa, format("answered %lld, the hidden vertex is %d", v, x));
            accept(format("found vertex %d with %lld queries (budget %lld)", x, queries, query_limit));
        } else {
            finish(_pe, format("expected '?' or '!', found \"%s\"", cmd.substr(0, 40).c_str()));
        }
    }
}
