// Interactor for deadline-job-dispatch (non-adaptive, T scenarios per run).
// Case: T; per scenario: m, then m lines "c k d_1 .. d_k" (capacity of the slot and the deadlines
// of the jobs released in it; jobs are numbered consecutively in release order).
// The optimum is computed offline by earliest-deadline-first over the slots, which is optimal
// for unit jobs with release times and deadlines (exchange argument).
// queries = slot replies read; query_limit = total number of slots.
#include "testlib.h"
#include <csignal>
#include <cstdio>
#include <functional>
#include <queue>
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

struct Slot { int c; std::vector<int> deadlines; };
struct Scenario { int m; std::vector<Slot> slots; int jobs = 0; long long best = 0; };

static long long edf_optimum(const Scenario& sc) {
    std::priority_queue<int, std::vector<int>, std::greater<int>> pending;  // deadlines
    long long done = 0;
    for (int t = 1; t <= sc.m; t++) {
        for (int d : sc.slots[t - 1].deadlines) pending.push(d);
        while (!pending.empty() && pending.top() < t) pending.pop();
        for (int i = 0; i < sc.slots[t - 1].c && !pending.empty(); i++) {
            pending.pop();
            done++;
        }
    }
    return done;
}

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);  // a solver that already exited must not kill the interactor
    int T = inf.readInt(1, 10, "T");
    std::vector<Scenario> sc(T);
    long long total_m = 0;
    for (auto& s : sc) {
        s.m = inf.readInt(1, 2000, "m");
        s.slots.resize(s.m);
        for (int t = 1; t <= s.m; t++) {
            Slot& sl = s.slots[t - 1];
            sl.c = inf.readInt(0, 5, "c");
            int k = inf.readInt(0, 6, "k");
            for (int i = 0; i < k; i++) sl.deadlines.push_back(inf.readInt(t, s.m, "d"));
            s.jobs += k;
        }
        s.best = edf_optimum(s);
        total_m += s.m;
    }
    ensuref(total_m <= 6000, "sum of m exceeds 6000");
    query_limit = total_m;
    log_counts();  // before the first blocking read

    std::cout << T << std::endl;
    for (int si = 0; si < T; si++) {
        const Scenario& s = sc[si];
        std::vector<int> deadline(s.jobs + 1), released_at(s.jobs + 1);
        std::vector<char> executed(s.jobs + 1, 0);
        std::vector<int> seen_in_slot(s.jobs + 1, 0);
        int released = 0;
        long long done = 0;
        std::cout << s.m << "\n";
        for (int t = 1; t <= s.m; t++) {
            const Slot& sl = s.slots[t - 1];
            std::cout << sl.c << " " << sl.deadlines.size();
            for (int d : sl.deadlines) {
                released++;
                deadline[released] = d;
                released_at[released] = t;
                std::cout << " " << released << " " << d;
            }
            std::cout << std::endl;

            long long r = read_number("(number of jobs to execute)");
            queries++;
            if (r < 0) reject(_pe, format("scenario %d, slot %d: negative job count %lld", si + 1, t, r));
            if (r > sl.c)
                reject(_wa, format("scenario %d, slot %d: %lld jobs but the capacity is %d", si + 1, t, r, sl.c));
            for (long long i = 0; i < r; i++) {
                long long j = read_number("(job number)");
                if (j < 1 || j > s.jobs)
                    reject(_wa, format("scenario %d, slot %d: there is no job %lld", si + 1, t, j));
                if (j > released)
                    reject(_wa, format("scenario %d, slot %d: job %lld is not released yet", si + 1, t, j));
                if (executed[j]) {
                    if (seen_in_slot[j] == t)
                        reject(_wa, format("scenario %d, slot %d: job %lld listed twice", si + 1, t, j));
                    reject(_wa, format("scenario %d, slot %d: job %lld was already executed", si + 1, t, j));
                }
                if (deadline[j] < t)
                    reject(_wa, format("scenario %d, slot %d: job %lld expired at slot %d", si + 1, t, j, deadline[j]));
                executed[j] = 1;
                seen_in_slot[j] = t;
                done++;
            }
            log_counts();
        }
        if (done < s.best)
            reject(_wa, format("scenario %d: executed %lld of %d jobs, but %lld was possible", si + 1, done, s.jobs, s.best));
    }
    std::cout.flush();
    fflush(stdout);
    close(1);  // the solver's input ends here: a solver still reading sees EOF
    // Anything the solver printed after its last answer is detected deterministically.
    if (!ouf.seekEof()) finish(_pe, "output after the final slot");
    finish(_ok, format("%d scenarios, every one at its optimum", T));
}
