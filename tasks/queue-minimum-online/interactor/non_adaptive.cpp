// Interactor for queue-minimum-online (non-adaptive, one stream of operations per run).
// Case: q, then q lines "+ x", "-" or "?". The interactor simulates the queue itself and checks
// each answer; the operation after a '?' is sent only once the answer has been read.
// queries = answers read; query_limit = number of '?' operations.
#include "testlib.h"
#include <csignal>
#include <cstdio>
#include <deque>
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

[[noreturn]] static void reject(TResult r, const std::string& msg) {
    std::cout << -1 << std::endl;
    finish(r, msg);
}

static std::string shorten(const std::string& s) { return s.size() <= 40 ? s : s.substr(0, 40) + "..."; }

static std::string next_token() {
    if (ouf.seekEof()) reject(_pe, "unexpected end of the solver's output");
    return ouf.readToken();
}

static long long read_number(const char* what) {
    std::string s = next_token();
    size_t start = (!s.empty() && s[0] == '-') ? 1 : 0;
    bool ok = start < s.size() && s.size() - start <= 18;
    for (size_t i = start; ok && i < s.size(); i++) ok = s[i] >= '0' && s[i] <= '9';
    if (ok && s.size() - start > 1 && s[start] == '0') ok = false;
    if (ok && s == "-0") ok = false;
    if (!ok) reject(_pe, format("expected an integer %s, found \"%s\"", what, shorten(s).c_str()));
    return std::stoll(s);
}

struct Op { char type; long long x; };

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);  // a solver that already exited must not kill the interactor
    int q = inf.readInt(1, 100000, "q");
    std::vector<Op> ops(q);
    long long size = 0;
    for (auto& op : ops) {
        std::string t = inf.readToken();
        ensuref(t == "+" || t == "-" || t == "?", "bad operation in the case");
        op.type = t[0];
        op.x = 0;
        if (op.type == '+') { op.x = inf.readLong(-1000000000LL, 1000000000LL, "x"); size++; }
        if (op.type == '-') { ensuref(size > 0, "pop from an empty queue in the case"); size--; }
        if (op.type == '?') { ensuref(size > 0, "question on an empty queue in the case"); query_limit++; }
    }
    ensuref(query_limit <= 10000, "too many questions in the case");
    log_counts();  // before the first blocking read

    // Reference: a monotonic deque of (value, index) gives the minimum of the queue.
    std::deque<std::pair<long long, long long>> mono;
    long long pushed = 0, popped = 0;
    std::cout << q << "\n";
    for (int i = 0; i < q; i++) {
        const Op& op = ops[i];
        if (op.type == '+') {
            while (!mono.empty() && mono.back().first > op.x) mono.pop_back();
            mono.push_back({op.x, pushed++});
            std::cout << "+ " << op.x << "\n";
        } else if (op.type == '-') {
            if (!mono.empty() && mono.front().second == popped) mono.pop_front();
            popped++;
            std::cout << "-\n";
        } else {
            std::cout << "?" << std::endl;
            long long a = read_number("(your answer)");
            queries++;
            if (a < -1000000000LL || a > 1000000000LL)
                reject(_pe, format("question %lld: answer %lld is outside [-10^9, 10^9]", queries, a));
            if (a != mono.front().first)
                reject(_wa, format("question %lld (operation %d): answered %lld, the minimum is %lld",
                                   queries, i + 1, a, mono.front().first));
        }
    }
    std::cout.flush();
    fflush(stdout);
    close(1);  // the solver's input ends here: a solver still reading sees EOF
    // Anything the solver printed after its last answer is detected deterministically.
    if (!ouf.seekEof()) finish(_pe, "output after the last operation (or a reply where none was due)");
    finish(_ok, format("%d operations, %lld questions answered", q, queries));
}
