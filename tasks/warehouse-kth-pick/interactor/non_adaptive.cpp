// Interactor for warehouse-kth-pick (non-adaptive, one long run of events, -1 on budget).
// Case: "n m", the n initial counts a_1..a_n, then m events "1 k" (pick the k-th item; the
// solver answers with its shelf, then that item is removed) or "2 p" (an item is added to
// shelf p; no answer). The last event is a pick. Queries "? l r" return a_l + ... + a_r.
// Budget: q = 1 + sum_{d=0}^{D} min(2^d, r), D = ceil(log2 n), r = number of picks: one level
// more than a lazily learned segment tree can ever use (1 + sum_{d<D} min(2^d, r)).
#include "testlib.h"
#include <fcntl.h>
#include <unistd.h>
#include <algorithm>
#include <csignal>
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

[[noreturn]] static void reject(TResult r, const std::string& msg) {
    std::cout << -1 << std::endl;
    finish(r, msg);
}

static std::string next_token() {
    if (ouf.seekEof()) reject(_pe, "unexpected end of the solver's output");
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
    if (!ok) reject(_pe, format("expected an integer %s, found \"%s\"", what, s.substr(0, 40).c_str()));
    return std::stoll(s);
}

struct Fenwick {
    int n;
    std::vector<long long> t;
    explicit Fenwick(int n_) : n(n_), t(n_ + 1, 0) {}
    void add(int i, long long d) {
        for (; i <= n; i += i & -i) t[i] += d;
    }
    long long prefix(int i) const {
        long long s = 0;
        for (; i > 0; i -= i & -i) s += t[i];
        return s;
    }
    int kth(long long k) const {  // smallest p with prefix(p) >= k (1 <= k <= total)
        int pos = 0, step = 1;
        while (step * 2 <= n) step *= 2;
        for (; step > 0; step /= 2)
            if (pos + step <= n && t[pos + step] < k) pos += step, k -= t[pos];
        return pos + 1;
    }
};

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
    int n = inf.readInt(1, 100000, "n");
    int m = inf.readInt(1, 20000, "m");
    Fenwick fw(n);
    long long total = 0;
    for (int i = 1; i <= n; i++) {
        long long a = inf.readLong(0, 1000000, "a_i");
        fw.add(i, a);
        total += a;
    }
    std::vector<std::pair<int, long long>> ev(m);
    long long picks = 0;
    {
        long long run = total;  // validate the events against the evolving total
        for (auto& [type, x] : ev) {
            type = inf.readInt(1, 2, "event type");
            if (type == 1) {
                x = inf.readLong(1, run, "k");
                run--, picks++;
            } else {
                x = inf.readInt(1, n, "p");
                run++;
            }
        }
        ensuref(ev.back().first == 1, "the last event must be a pick");
    }
    int D = 0;
    while ((1LL << D) < n) D++;
    query_limit = 1;
    for (int d = 0; d <= D; d++) query_limit += std::min(1LL << d, picks);
    log_counts();

    std::cout << n << " " << m << " " << query_limit << std::endl;
    for (int e = 0; e < m; e++) {
        auto [type, x] = ev[e];
        if (type == 2) {
            fw.add((int)x, 1);
            std::cout << "2 " << x << "\n";
            continue;
        }
        std::cout << "1 " << x << std::endl;
        const int want = fw.kth(x);
        while (true) {
            std::string cmd = next_token();
            if (cmd == "?") {
                long long l = read_number("l after '?'");
                long long r = read_number("r after '?'");
                if (l < 1 || r > n || l > r)
                    reject(_pe, format("event %d: query [%lld, %lld] is not a range inside [1, %d]", e + 1, l, r, n));
                queries++;
                if (queries > query_limit) reject(_wa, format("more than q = %lld queries", query_limit));
                log_counts();
                std::cout << fw.prefix((int)r) - fw.prefix((int)l - 1) << std::endl;
            } else if (cmd == "!") {
                long long p = read_number("after '!'");
                if (p < 1 || p > n) reject(_pe, format("event %d: shelf %lld is outside [1, %d]", e + 1, p, n));
                if (p != want)
                    reject(_wa, format("event %d: item %lld is on shelf %d, not %lld", e + 1, x, want, p));
                fw.add(want, -1);
                break;
            } else {
                reject(_pe, format("event %d: expected '?' or '!', found \"%s\"", e + 1, cmd.substr(0, 40).c_str()));
            }
        }
    }
    close_solver_input();
    if (!ouf.seekEof()) finish(_pe, "output after the final answer");
    finish(_ok, format("%lld picks answered with %lld queries (budget %lld)", picks, queries, query_limit));
}
