// Adaptive interactor for tree-hide-and-seek. Case: "n 0 s", then n-1 edges; s seeds tie-breaks.
// It keeps the set S of vertices consistent with every reply so far (always a connected
// subtree). For "? u": if S = {u} it answers 0; if u is not in S it answers the neighbour of u
// toward S (no information); otherwise it answers toward the largest component of S - u
// (ties broken at random) and S becomes that component. The answer v is accepted only if
// S = {v}, i.e. the replies prove that v is the hidden vertex.
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
    rnd.setSeed(seed);
    std::vector<char> in_s(n + 1, 1);
    int s_size = n;
    std::vector<int> mark(n + 1, 0), from(n + 1, 0), queue;
    int stamp = 0;

    while (true) {
        std::string cmd = next_token();
        if (cmd == "?") {
            long long uq = read_number("after '?'");
            if (uq < 1 || uq > n) finish(_pe, format("query %lld is outside [1, %d]", uq, n));
            count_query();
            int u = (int)uq, reply;
            if (in_s[u] && s_size == 1) {
                reply = 0;
            } else if (!in_s[u]) {
                // BFS from u until S is reached; reply with the first step of that path.
                stamp++;
                queue.assign(1, u);
                mark[u] = stamp;
                from[u] = 0;
                reply = 0;
                for (size_t k = 0; k < queue.size() && !reply; k++) {
                    int a = queue[k];
                    for (int b : adj[a]) {
                        if (mark[b] == stamp) continue;
                        mark[b] = stamp;
                        from[b] = a == u ? b : from[a];
                        if (in_s[b]) { reply = from[b]; break; }
                        queue.push_back(b);
                    }
                }
                ensuref(reply != 0, "S is not reachable");
            } else {
                // Components of S - u, one per neighbour of u inside S.
                int best = -1, best_size = -1, ties = 0;
                std::vector<int> best_nodes, nodes;
                for (int w : adj[u]) {
                    if (!in_s[w]) continue;
                    stamp++;
                    mark[u] = stamp;
                    nodes.assign(1, w);
                    mark[w] = stamp;
                    for (size_t k = 0; k < nodes.size(); k++)
                        for (int b : adj[nodes[k]])
                            if (in_s[b] && mark[b] != stamp) { mark[b] = stamp; nodes.push_back(b); }
                    int size = (int)nodes.size();
                    if (size > best_size) {
                        best = w; best_size = size; best_nodes = nodes; ties = 1;
                    } else if (size == best_size && rnd.next(++ties) == 0) {
                        best = w; best_nodes = nodes;  // uniform among the tied components
                    }
                }
                for (int v = 1; v <= n; v++) in_s[v] = 0;
                for (int v : best_nodes) in_s[v] = 1;
                s_size = best_size;
                reply = best;
            }
            std::cout << reply << std::endl;
        } else if (cmd == "!") {
            long long v = read_number("after '!'");
            if (v < 1 || v > n) finish(_pe, format("answer %lld is outside [1, %d]", v, n));
            if (!in_s[v]) finish(_wa, format("answered %lld, which contradicts the replies given", v));
            if (s_size > 1)
                finish(_wa, format("answered %lld, but %d vertices are still consistent with the replies", v, s_size));
            accept(format("found vertex %lld with %lld queries (budget %lld)", v, queries, query_limit));
        } else {
            finish(_pe, format("expected '?' or '!', found \"%s\"", cmd.substr(0, 40).c_str()));
        }
    }
}
