// Manager for sort-the-boxes (grader-linked). Case: n, then the weights w_1..w_n (distinct).
// It talks to the grader stub linked into the solution: "n B" first, then answers "? i j" with
// -1 / 1 and checks the final "! p_1 ... p_n". It alone decides the verdict.
#include "testlib.h"
#include <csignal>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

static long long queries = 0, query_limit = 0;

static void log_counts() {
    tout << "queries=" << queries << "\n" << "query_limit=" << query_limit << std::endl;
}

[[noreturn]] static void finish(TResult r, const std::string& msg) {
    log_counts();
    quitf(r, "%s", msg.c_str());
}

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
    if (ouf.seekEof()) finish(_pe, "unexpected end of the solution's output");
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

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);  // a solution that already exited must not kill the manager
    int n = inf.readInt(1, 1000, "n");
    std::vector<int> w(n + 1);
    for (int i = 1; i <= n; i++) w[i] = inf.readInt(1, 1000000000, "w");
    for (int k = 1; k <= n; k++) {
        int c = 0;
        while ((1 << c) < k) c++;
        query_limit += c;
    }
    log_counts();  // before the first blocking read
    const long long hard_cap = 20 * query_limit + 1000;  // then the run is stopped (reply 0)

    std::cout << n << " " << query_limit << std::endl;
    while (true) {
        std::string cmd = next_token();
        if (cmd == "?") {
            long long i = read_number("after '?'"), j = read_number("after '?'");
            if (i < 1 || i > n || j < 1 || j > n)
                finish(_pe, format("compare(%lld, %lld): index outside [1, %d]", i, j, n));
            if (i == j) finish(_pe, format("compare(%lld, %lld): a box cannot be compared with itself", i, j));
            queries++;
            log_counts();
            if (queries > hard_cap) {
                std::cout << 0 << std::endl;
                finish(_wa, format("stopped after %lld comparisons (budget %lld)", queries, query_limit));
            }
            std::cout << (w[i] < w[j] ? -1 : 1) << std::endl;
        } else if (cmd == "!") {
            std::vector<int> p(n), seen(n + 1, 0);
            for (int k = 0; k < n; k++) {
                long long v = read_number("in the returned order");
                if (v < 1 || v > n) finish(_pe, format("returned box %lld is outside [1, %d]", v, n));
                p[k] = (int)v;
            }
            for (int k = 0; k < n; k++) {
                if (seen[p[k]]) finish(_wa, format("box %d is returned twice", p[k]));
                seen[p[k]] = 1;
            }
            for (int k = 0; k + 1 < n; k++)
                if (w[p[k]] > w[p[k + 1]])
                    finish(_wa, format("box %d (position %d) is heavier than box %d after it", p[k], k + 1, p[k + 1]));
            close_solver_input();
            if (!ouf.seekEof()) finish(_pe, "output after the returned order");
            finish(_ok, format("sorted %d boxes with %lld comparisons (budget %lld)", n, queries, query_limit));
        } else {
            finish(_pe, format("expected '?' or '!', found \"%s\"", cmd.substr(0, 40).c_str()));
        }
    }
}
