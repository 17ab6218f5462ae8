// Interactor for online-order-statistics (non-adaptive).
// Case: one line "q nq seed type vmax kmode": the operation sequence is expanded from these
// parameters by a fixed splitmix64 procedure (below), so it never depends on the solver.
// The operations are streamed; after each "? k" the interactor flushes and waits for the answer
// before it reveals anything else. queries = answers received, query_limit = nq.
//   type:  random | churn | grow | sawtooth | incr | decr | dups (value pattern / op mix)
//   kmode: random | extremes | middle | mixed
#include "testlib.h"
#include <algorithm>
#include <csignal>
#include <cstdint>
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

static uint64_t rng_state;
static uint64_t next_rand() {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static long long rand_in(long long lo, long long hi) { return lo + (long long)(next_rand() % (uint64_t)(hi - lo + 1)); }

struct Op {
    char c;       // '+', '-', '?'
    long long v;  // value for +/-, k for ?
};

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);  // a solver that already exited must not turn a verdict into a crash
    const int q = inf.readInt(1, 300000, "q");
    ensuref(q >= 2, "q must be at least 2");
    const int nq = inf.readInt(1, std::min(q - 1, 10000), "nq");
    rng_state = (uint64_t)inf.readLong(0, 1000000000000000000LL, "seed");
    const std::string type = inf.readToken();
    const long long vmax = inf.readLong(1, 1000000000LL, "vmax");
    const std::string kmode = inf.readToken();
    ensuref(type == "random" || type == "churn" || type == "grow" || type == "sawtooth" || type == "incr" ||
                type == "decr" || type == "dups",
            "unknown type %s", type.c_str());
    ensuref(kmode == "random" || kmode == "extremes" || kmode == "middle" || kmode == "mixed", "unknown kmode");

    // ---- expand the operation sequence ----
    std::vector<Op> ops;
    ops.reserve(q);
    std::vector<long long> present;  // current multiset, unordered (for picking deletions)
    long long ramp = 0;              // incr / decr value cursor
    int queries_left = nq;
    int sawtooth_phase_left = 0;
    bool sawtooth_inserting = false;  // the first run inserts
    for (int i = 0; i < q; i++) {
        int ops_left = q - i;
        bool is_query;
        if (present.empty()) is_query = false;
        else if (queries_left == ops_left) is_query = true;
        else is_query = queries_left > 0 && (long long)(next_rand() % ops_left) < queries_left;
        if (is_query) {
            long long sz = (long long)present.size(), k;
            std::string km = kmode;
            if (km == "mixed") km = (next_rand() % 3 == 0) ? "extremes" : (next_rand() % 2 ? "middle" : "random");
            if (km == "extremes") k = (next_rand() % 2) ? 1 : sz;
            else if (km == "middle") k = std::max(1LL, std::min(sz, sz / 2 + rand_in(-2, 2)));
            else k = rand_in(1, sz);
            ops.push_back({'?', k});
            queries_left--;
            continue;
        }
        bool insert;
        if (present.size() <= 1) insert = true;  // keep the multiset non-empty once started
        else if (type == "grow" || type == "incr" || type == "decr") insert = next_rand() % 10 < 9;
        else if (type == "churn") insert = next_rand() % 2 == 0;
        else if (type == "sawtooth") {  // alternating runs of inserts and of deletes
            if (sawtooth_phase_left == 0) {
                sawtooth_inserting = !sawtooth_inserting;
                long long len = rand_in(1, std::max(1, q / 6));
                if (!sawtooth_inserting) len = std::min<long long>(len, (long long)present.size() - 1);
                sawtooth_phase_left = (int)len;  // >= 1: here present.size() >= 2
            }
            insert = sawtooth_inserting;
            sawtooth_phase_left--;
        } else insert = next_rand() % 10 < 6;  // random, dups
        if (insert) {
            long long v;
            if (type == "incr") v = std::min(vmax, 1 + (ramp += rand_in(0, std::max(1LL, vmax / q))));
            else if (type == "decr") v = std::max(1LL, vmax - (ramp += rand_in(0, std::max(1LL, vmax / q))));
            else v = rand_in(1, vmax);
            present.push_back(v);
            ops.push_back({'+', v});
        } else {
            size_t j = next_rand() % present.size();
            long long v = present[j];
            present[j] = present.back();
            present.pop_back();
            ops.push_back({'-', v});
        }
    }
    ensuref(queries_left == 0 && (int)ops.size() == q, "expansion failed");

    // ---- answers offline: Fenwick tree over compressed values ----
    std::vector<long long> vals;
    for (const Op& o : ops)
        if (o.c == '+') vals.push_back(o.v);
    std::sort(vals.begin(), vals.end());
    vals.erase(std::unique(vals.begin(), vals.end()), vals.end());
    const int m = (int)vals.size();
    std::vector<int> fen(m + 1, 0);
    int LOG = 1;
    while ((1 << LOG) <= m) LOG++;
    std::vector<long long> expected;
    expected.reserve(nq);
    long long size = 0;
    for (const Op& o : ops) {
        if (o.c == '?') {
            ensuref(1 <= o.v && o.v <= size, "bad k");
            int pos = 0;
            long long rem = o.v;
            for (int b = LOG; b >= 0; b--) {
                int nxt = pos + (1 << b);
                if (nxt <= m && fen[nxt] < rem) pos = nxt, rem -= fen[nxt];
            }
            expected.push_back(vals[pos]);  // pos + 1 is the 1-based index of the answer
        } else {
            int idx = (int)(std::lower_bound(vals.begin(), vals.end(), o.v) - vals.begin()) + 1;
            int d = o.c == '+' ? 1 : -1;
            size += d;
            for (int i = idx; i <= m; i += i & -i) fen[i] += d;
        }
    }

    query_limit = nq;
    log_counts();  // before the first blocking read

    // ---- the interaction ----
    std::string buf;
    buf.reserve(1 << 16);
    buf += std::to_string(q);
    buf += '\n';
    size_t qi = 0;
    for (const Op& o : ops) {
        buf += o.c;
        buf += ' ';
        buf += std::to_string(o.v);
        buf += '\n';
        if (o.c != '?') {
            if (buf.size() >= (1 << 15)) std::cout << buf, buf.clear();
            continue;
        }
        std::cout << buf << std::flush;
        buf.clear();
        long long a = read_number("as an answer");
        if (a < 1 || a > 1000000000LL) reject(_pe, format("answer %lld to query %zu is outside [1, 10^9]", a, qi + 1));
        queries++;
        if (queries % 1024 == 0) log_counts();
        if (a != expected[qi]) reject(_wa, format("query %zu (k = %lld): wrong answer %lld", qi + 1, o.v, a));
        qi++;
    }
    std::cout << buf << std::flush;
    // Close the solver's input, then require that it printed nothing after its last answer.
    fclose(stdout);
    if (!ouf.seekEof()) finish(_pe, "output after the final answer");
    finish(_ok, format("%d operations, %lld queries answered correctly", q, queries));
}
