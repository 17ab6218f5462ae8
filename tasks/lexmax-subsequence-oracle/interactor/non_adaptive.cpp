// Interactor for lexmax-subsequence-oracle (non-adaptive, T tests per run).
// Case: T, then per test "n k" and the array a_1..a_n. Budget Q = sum(k_i), shared by all tests.
// Query "? l r" -> "v p": v = max(a_l..a_r), p = smallest index in [l, r] with a_p = v.
// Query Q + 1 is answered with -1 and ends the run.
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
static long long parse_number(const std::string& s, const char* what) {
    bool ok = !s.empty() && s.size() <= 18;
    size_t start = (ok && s[0] == '-') ? 1 : 0;
    if (start == s.size()) ok = false;
    for (size_t i = start; ok && i < s.size(); i++) ok = s[i] >= '0' && s[i] <= '9';
    if (ok && s.size() - start > 1 && s[start] == '0') ok = false;
    if (!ok) reject(_pe, format("expected an integer %s, found \"%s\"", what, s.substr(0, 40).c_str()));
    return std::stoll(s);
}

static long long read_number(const char* what) { return parse_number(next_token(), what); }

struct Test {
    int n, k;
    std::vector<long long> a;           // 1-based
    std::vector<std::vector<int>> sp;   // sparse table of argmax (leftmost on ties)
    std::vector<long long> answer;      // lexicographically largest subsequence of length k

    int better(int i, int j) const { return (a[j] > a[i] || (a[j] == a[i] && j < i)) ? j : i; }
    void build() {
        int lg = 1;
        while ((1 << lg) <= n) lg++;
        sp.assign(lg, std::vector<int>(n + 1));
        for (int i = 1; i <= n; i++) sp[0][i] = i;
        for (int j = 1; j < lg; j++)
            for (int i = 1; i + (1 << j) - 1 <= n; i++)
                sp[j][i] = better(sp[j - 1][i], sp[j - 1][i + (1 << (j - 1))]);
        int pos = 0;
        for (int j = 1; j <= k; j++) {
            int p = argmax(pos + 1, n - k + j);
            answer.push_back(a[p]);
            pos = p;
        }
    }
    int argmax(int l, int r) const {
        int j = 31 - __builtin_clz(r - l + 1);
        return better(sp[j][l], sp[j][r - (1 << j) + 1]);
    }
};

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);  // a solver that already exited must not turn a verdict into a crash
    int T = inf.readInt(1, 100, "T");
    std::vector<Test> tests(T);
    long long sum_n = 0;
    for (int t = 0; t < T; t++) {
        Test& ts = tests[t];
        ts.n = inf.readInt(1, 20000, "n");
        ts.k = inf.readInt(1, ts.n, "k");
        ts.a.assign(ts.n + 1, 0);
        for (int i = 1; i <= ts.n; i++) ts.a[i] = inf.readLong(1, 1000000000LL, "a_i");
        sum_n += ts.n;
        query_limit += ts.k;
        ts.build();
    }
    ensuref(sum_n <= 20000 && query_limit <= 10000, "case exceeds the limits on sum n / sum k");
    log_counts();  // before the first blocking read

    std::cout << T << " " << query_limit << std::endl;
    for (int t = 0; t < T; t++) {
        const Test& ts = tests[t];
        std::cout << ts.n << " " << ts.k << std::endl;
        while (true) {
            std::string cmd = next_token();
            if (cmd == "?") {
                long long l = read_number("l"), r = read_number("r");
                if (l < 1 || r > ts.n || l > r)
                    reject(_pe, format("test %d: query range [%lld, %lld] is not within 1 <= l <= r <= %d", t + 1, l, r, ts.n));
                queries++;
                log_counts();
                if (queries > query_limit) reject(_wa, format("query budget of %lld exceeded", query_limit));
                int p = ts.argmax((int)l, (int)r);
                std::cout << ts.a[p] << " " << p << std::endl;
            } else if (cmd == "!") {
                // The answer is the rest of this line: exactly k values (a short line is a format
                // error at once, not a wait for more values).
                std::string line = ouf.readLine();
                std::vector<std::string> tok;
                for (size_t i = 0; i < line.size();) {
                    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) i++;
                    size_t j = i;
                    while (j < line.size() && !(line[j] == ' ' || line[j] == '\t' || line[j] == '\r')) j++;
                    if (j > i) tok.push_back(line.substr(i, j - i));
                    i = j;
                }
                if ((int)tok.size() != ts.k)
                    reject(_pe, format("test %d: the answer line has %d values, expected k = %d", t + 1, (int)tok.size(), ts.k));
                int bad = -1;
                for (int j = 0; j < ts.k; j++) {
                    long long v = parse_number(tok[j], "in the answer");
                    if (v < 1 || v > 1000000000LL)
                        reject(_pe, format("test %d: answer value %lld is outside [1, 10^9]", t + 1, v));
                    if (bad < 0 && v != ts.answer[j]) bad = j;
                }
                if (bad >= 0)
                    reject(_wa, format("test %d: element %d of the answer is wrong", t + 1, bad + 1));
                break;
            } else {
                reject(_pe, format("test %d: expected '?' or '!', found \"%s\"", t + 1, cmd.substr(0, 40).c_str()));
            }
        }
    }
    // Close the solver's input, then require that it printed nothing after its last answer.
    std::cout.flush();
    fclose(stdout);
    if (!ouf.seekEof()) finish(_pe, "output after the final answer");
    finish(_ok, format("%d tests solved with %lld queries (budget %lld)", T, queries, query_limit));
}
