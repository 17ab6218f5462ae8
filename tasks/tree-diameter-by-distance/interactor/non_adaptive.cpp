// Interactor for tree-diameter-by-distance (non-adaptive, T trees per run).
// Case: T, then per tree: n and n-1 edges "u v". Budget Q = sum(2 n_i - 2), shared by all trees.
// Queries past the budget are still answered (the harness judges QLE); a runaway solver is
// stopped after 2 Q + 10 queries.
#include "testlib.h"
#include <csignal>
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

// Tell the solver the run is over (-1) and stop with the given verdict.
[[noreturn]] static void reject(TResult r, const std::string& msg) {
    std::cout << -1 << std::endl;
    finish(r, msg);
}

static std::string next_token() {
    if (ouf.seekEof()) reject(_pe, "unexpected end of the solver's output");
    return ouf.readToken();
}

// A plain decimal integer (optional '-', no leading zeros); anything else is a format error.
static long long read_number(const char* what) {
    std::string s = next_token();
    bool ok = !s.empty() && s.size() <= 18;
    size_t start = (ok && s[0] == '-') ? 1 : 0;
    if (start == s.size()) ok = false;
    for (size_t i = start; ok && i < s.size(); i++) ok = s[i] >= '0' && s[i] <= '9';
    if (ok && s.size() - start > 1 && s[start] == '0') ok = false;
    if (!ok) reject(_pe, format("expected an integer %s, found \"%s\"", what, s.substr(0, 40).c_str()));
    return std::stoll(s);
}

struct Tree {
    int n;
    std::vector<std::vector<int>> adj;
    std::vector<std::vector<short>> dist;  // all pairs, by BFS from every vertex
    int diameter = 0;
};

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);  // a solver that already exited must not turn a verdict into a crash
    int T = inf.readInt(1, 100, "T");
    std::vector<Tree> trees(T);
    long long sum_n = 0;
    for (int t = 0; t < T; t++) {
        Tree& tr = trees[t];
        tr.n = inf.readInt(2, 1000, "n");
        sum_n += tr.n;
        tr.adj.assign(tr.n + 1, {});
        for (int i = 0; i + 1 < tr.n; i++) {
            int u = inf.readInt(1, tr.n, "u"), v = inf.readInt(1, tr.n, "v");
            ensuref(u != v, "self-loop in tree %d", t + 1);
            tr.adj[u].push_back(v);
            tr.adj[v].push_back(u);
        }
        tr.dist.assign(tr.n + 1, std::vector<short>(tr.n + 1, -1));
        for (int s = 1; s <= tr.n; s++) {
            std::vector<short>& d = tr.dist[s];
            std::vector<int> q{s};
            d[s] = 0;
            for (size_t h = 0; h < q.size(); h++)
                for (int w : tr.adj[q[h]])
                    if (d[w] < 0) d[w] = d[q[h]] + 1, q.push_back(w);
            ensuref((int)q.size() == tr.n, "tree %d is not connected", t + 1);
            for (int v = 1; v <= tr.n; v++) tr.diameter = std::max<int>(tr.diameter, d[v]);
        }
        query_limit += 2LL * tr.n - 2;
    }
    ensuref(sum_n <= 3000, "sum of n exceeds 3000");
    log_counts();  // before the first blocking read

    std::cout << T << " " << query_limit << std::endl;
    for (int t = 0; t < T; t++) {
        const Tree& tr = trees[t];
        std::cout << tr.n << std::endl;
        while (true) {
            std::string cmd = next_token();
            if (cmd == "?") {
                long long u = read_number("u"), v = read_number("v");
                if (u < 1 || u > tr.n || v < 1 || v > tr.n)
                    reject(_pe, format("tree %d: query (%lld, %lld) has a vertex outside [1, %d]", t + 1, u, v, tr.n));
                if (u == v) reject(_pe, format("tree %d: query (%lld, %lld) asks for two equal vertices", t + 1, u, v));
                queries++;
                if (queries > 2 * query_limit + 10)
                    reject(_wa, format("far past the query budget of %lld; stopped", query_limit));
                if (queries <= query_limit + 1) log_counts();
                std::cout << tr.dist[u][v] << std::endl;
            } else if (cmd == "!") {
                long long a = read_number("a"), b = read_number("b");
                if (a < 1 || a > tr.n || b < 1 || b > tr.n)
                    reject(_pe, format("tree %d: answer (%lld, %lld) has a vertex outside [1, %d]", t + 1, a, b, tr.n));
                if (tr.dist[a][b] != tr.diameter)
                    reject(_wa, format("tree %d: dist(%lld, %lld) = %d, but the diameter is %d", t + 1, a, b,
                                       (int)tr.dist[a][b], tr.diameter));
                break;
            } else {
                reject(_pe, format("tree %d: expected '?' or '!', found \"%s\"", t + 1, cmd.substr(0, 40).c_str()));
            }
        }
    }
    // Close the solver's input, then require that it printed nothing after its last answer.
    std::cout.flush();
    fclose(stdout);
    if (!ouf.seekEof()) finish(_pe, "output after the final answer");
    finish(_ok, format("%d trees solved with %lld queries (budget %lld)", T, queries, query_limit));
}
