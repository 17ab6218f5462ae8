// Adaptive interactor for unimodal-peak-search (one game per run).
// Case: "n seed". The array is not fixed in advance. The interactor keeps the queried values and
// the interval of positions that can still be the peak: (A, B) exclusive, where m is the queried
// position with the largest value and A, B are its nearest queried neighbours (or 0 / n+1).
// A query inside (A, B) is answered either above or below a[m], whichever leaves the larger
// interval (ties: seeded coin); a query outside is forced to its side. Every value is the
// midpoint of the open interval of values it may take, so room never runs out within the budget.
// Query q + 1 is answered with -1. At the end the interactor commits to a peak different from the
// answer whenever more than one position is still possible, and checks that a complete array
// consistent with every reply exists.
#include "testlib.h"
#include <csignal>
#include <cstdint>
#include <map>
#include <string>

static long long queries = 0, query_limit = 0;
static const long long TOP = 1000000000000000000LL;  // values lie in [1, 10^18]

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

static uint64_t rng_state;
static uint64_t next_rand() {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// Budget: the worst case of an optimal strategy plus 2. With Fibonacci numbers F_1 = F_2 = 1,
// an optimal strategy needs m - 2 queries for n >= 2, where m is the smallest index with
// F_m >= n + 1, and none for n = 1.
static long long budget(long long n) {
    if (n == 1) return 2;
    long long a = 1, b = 1;  // F_1, F_2
    int m = 2;
    while (b < n + 1) {
        long long c = a + b;
        a = b, b = c, m++;
    }
    return (m - 2) + 2;
}

static long long n;
static std::map<long long, long long> val;  // queried position -> value

// Can a strictly unimodal array with values in [1, TOP] and peak P match every reply?
static bool feasible(long long P) {
    long long prev_pos = 0, prev_val = 0;  // virtual a_0 = 0
    long long peak_val = -1;
    for (auto& [pos, v] : val) {
        if (pos > P) break;
        if (pos == P) { peak_val = v; break; }
        if (v - prev_val < pos - prev_pos) return false;  // strictly increasing integers
        prev_pos = pos, prev_val = v;
    }
    long long left_pos = prev_pos, left_val = prev_val;
    long long next_pos = n + 1, next_val = 0;  // virtual a_{n+1} = 0
    for (auto it = val.rbegin(); it != val.rend(); ++it) {
        long long pos = it->first, v = it->second;
        if (pos <= P) break;
        if (v - next_val < next_pos - pos) return false;  // strictly decreasing integers
        next_pos = pos, next_val = v;
    }
    if (peak_val < 0) peak_val = TOP;  // an unqueried peak takes the largest value
    if (peak_val - left_val < P - left_pos) return false;
    if (peak_val - next_val < next_pos - P) return false;
    return peak_val <= TOP;
}

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);  // a solver that already exited must not turn a verdict into a crash
    n = inf.readLong(1, 1000000, "n");
    rng_state = (uint64_t)inf.readLong(0, 1000000000000000000LL, "seed");
    query_limit = budget(n);
    log_counts();  // before the first blocking read

    long long A = 0, B = n + 1, m = 0;  // peak in (A, B); m = argmax of the queried values
    std::cout << n << " " << query_limit << std::endl;
    while (true) {
        std::string cmd = next_token();
        if (cmd == "?") {
            long long i = read_number("after '?'");
            if (i < 1 || i > n) reject(_pe, format("query position %lld is outside [1, %lld]", i, n));
            queries++;
            log_counts();
            if (queries > query_limit) reject(_wa, format("query budget of %lld exceeded", query_limit));
            auto found = val.find(i);
            if (found != val.end()) {
                std::cout << found->second << std::endl;
                continue;
            }
            long long v;
            auto lower_neighbour = [&](long long p) {  // value of the nearest queried position < p, or 0
                auto it = val.lower_bound(p);
                return it == val.begin() ? 0LL : std::prev(it)->second;
            };
            auto upper_neighbour = [&](long long p) {  // value of the nearest queried position > p, or 0
                auto it = val.upper_bound(p);
                return it == val.end() ? 0LL : it->second;
            };
            if (m == 0) {  // the very first query
                v = TOP / 2;
                m = i;
            } else if (i <= A) {  // forced: increasing side, between its queried neighbours
                v = lower_neighbour(i) + (upper_neighbour(i) - lower_neighbour(i)) / 2;
            } else if (i >= B) {  // forced: decreasing side
                v = upper_neighbour(i) + (lower_neighbour(i) - upper_neighbour(i)) / 2;
            } else {
                long long vm = val[m];
                bool left = i < m;
                // option "new max": peak between i's far neighbour and m; option "below": the rest
                long long size_new_max = left ? m - A - 1 : B - m - 1;
                long long size_below = left ? B - i - 1 : i - A - 1;
                bool new_max = size_new_max > size_below || (size_new_max == size_below && (next_rand() & 1));
                if (new_max) {
                    v = vm + (TOP - vm) / 2;
                    if (left) B = m; else A = m;
                    m = i;
                } else {
                    long long lo = left ? (A == 0 ? 0 : val[A]) : (B == n + 1 ? 0 : val[B]);
                    v = lo + (vm - lo) / 2;
                    if (left) A = i; else B = i;
                }
            }
            ensuref(v >= 1 && v < TOP, "value out of range");
            val[i] = v;
            std::cout << v << std::endl;
        } else if (cmd == "!") {
            long long p = read_number("after '!'");
            if (p < 1 || p > n) reject(_pe, format("answer %lld is outside [1, %lld]", p, n));
            if (p <= A || p >= B)
                reject(_wa, format("answered %lld, but the replies put the peak strictly between %lld and %lld", p, A, B));
            if (B - A - 1 > 1) {
                long long other = A + 1 + (long long)(next_rand() % (uint64_t)(B - A - 2));
                if (other >= p) other++;
                ensuref(feasible(other), "no consistent array with peak %lld (interactor bug)", other);
                reject(_wa, format("answered %lld, but positions %lld..%lld were still possible; the peak was %lld", p,
                                   A + 1, B - 1, other));
            }
            ensuref(feasible(p), "no consistent array with peak %lld (interactor bug)", p);
            break;
        } else {
            reject(_pe, format("expected '?' or '!', found \"%s\"", cmd.substr(0, 40).c_str()));
        }
    }
    // Close the solver's input, then require that it printed nothing after its answer.
    std::cout.flush();
    fclose(stdout);
    if (!ouf.seekEof()) finish(_pe, "output after the final answer");
    finish(_ok, format("peak found with %lld queries (budget %lld)", queries, query_limit));
}
