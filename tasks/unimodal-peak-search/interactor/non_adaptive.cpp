// Non-adaptive interactor for unimodal-peak-search (one game per run).
// Case: "n p seed shape": the array is built from these by a fixed procedure before the game:
// strictly increasing on 1..p, strictly decreasing on p..n, values in [1, 10^18].
//   shape: random (steps in [1, 10^9]), ones (every step 1), wild (steps 1 or up to 10^11),
//          skew (steps 1 left of the peak, up to 10^11 right of it)
// Query q + 1 is answered with -1.
#include "testlib.h"
#include <csignal>
#include <cstdint>
#include <vector>
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

static long long step(const std::string& shape, bool left) {
    if (shape == "ones") return 1;
    if (shape == "random") return 1 + (long long)(next_rand() % 1000000000ULL);
    if (shape == "wild") return (next_rand() & 1) ? 1 : 1 + (long long)(next_rand() % 100000000000ULL);
    return left ? 1 : 1 + (long long)(next_rand() % 100000000000ULL);  // skew
}

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);  // a solver that already exited must not turn a verdict into a crash
    const long long n = inf.readLong(1, 1000000, "n");
    const long long p = inf.readLong(1, n, "p");
    rng_state = (uint64_t)inf.readLong(0, 1000000000000000000LL, "seed");
    const std::string shape = inf.readToken();
    ensuref(shape == "random" || shape == "ones" || shape == "wild" || shape == "skew", "unknown shape");
    std::vector<long long> a(n + 2, 0);
    a[1] = step(shape, true);
    for (long long j = 2; j < p; j++) a[j] = a[j - 1] + step(shape, true);
    if (p < n) a[n] = step(shape, false);
    for (long long j = n - 1; j > p; j--) a[j] = a[j + 1] + step(shape, false);
    a[p] = std::max(p > 1 ? a[p - 1] : 0LL, p < n ? a[p + 1] : 0LL) + step(shape, p > 1);
    for (long long j = 1; j <= n; j++) {
        ensuref(1 <= a[j] && a[j] <= TOP, "value out of range");
        if (j < p) ensuref(a[j] < a[j + 1], "not increasing");
        if (j > p) ensuref(a[j] < a[j - 1], "not decreasing");
    }
    query_limit = budget(n);
    log_counts();  // before the first blocking read

    std::cout << n << " " << query_limit << std::endl;
    while (true) {
        std::string cmd = next_token();
        if (cmd == "?") {
            long long i = read_number("after '?'");
            if (i < 1 || i > n) reject(_pe, format("query position %lld is outside [1, %lld]", i, n));
            queries++;
            log_counts();
            if (queries > query_limit) reject(_wa, format("query budget of %lld exceeded", query_limit));
            std::cout << a[i] << std::endl;
        } else if (cmd == "!") {
            long long g = read_number("after '!'");
            if (g < 1 || g > n) reject(_pe, format("answer %lld is outside [1, %lld]", g, n));
            if (g != p) reject(_wa, format("answered %lld, which is not the peak", g));
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
