// Adaptive interactor for xor-popcount-guess (T games per run).
// Case: "T seed", then n_1 .. n_T. Budget Q = sum(n_i), shared by all games.
// The hidden x is not fixed in advance: the interactor keeps every x in [0, 2^n) that is
// consistent with its previous replies and answers each query "? y" with the value of
// popcount(x xor y) shared by the largest number of those candidates (ties broken by a seeded
// generator). A final answer is accepted only if it is the single remaining candidate; otherwise
// the interactor commits to another consistent x and the answer is wrong.
// Query Q + 1 is answered with -1 and ends the run.
#include "testlib.h"
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

// splitmix64: the tie-breaking source, seeded from the case (testlib's rnd is for generators).
static uint64_t rng_state;
static uint64_t next_rand() {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    signal(SIGPIPE, SIG_IGN);  // a solver that already exited must not turn a verdict into a crash
    int T = inf.readInt(1, 100, "T");
    rng_state = (uint64_t)inf.readLong(0, 1000000000000000000LL, "seed");
    std::vector<int> ns(T);
    long long work = 0;
    for (int g = 0; g < T; g++) {
        ns[g] = inf.readInt(1, 20, "n");
        query_limit += ns[g];
        work += 1LL << ns[g];
    }
    ensuref(work <= (4LL << 20), "sum of 2^n exceeds 4 * 2^20");
    log_counts();  // before the first blocking read

    std::cout << T << " " << query_limit << std::endl;
    std::vector<uint32_t> cand, keep;
    for (int g = 0; g < T; g++) {
        const int n = ns[g];
        const long long full = 1LL << n;
        cand.resize(full);
        for (long long v = 0; v < full; v++) cand[v] = (uint32_t)v;
        std::cout << n << std::endl;
        while (true) {
            std::string cmd = next_token();
            if (cmd == "?") {
                long long y = read_number("after '?'");
                if (y < 0 || y >= full)
                    reject(_pe, format("game %d: query %lld is outside [0, 2^%d - 1]", g + 1, y, n));
                queries++;
                log_counts();
                if (queries > query_limit) reject(_wa, format("query budget of %lld exceeded", query_limit));
                long long cnt[21] = {0};
                for (uint32_t c : cand) cnt[__builtin_popcount(c ^ (uint32_t)y)]++;
                int best = -1, ties = 0;
                for (int d = 0; d <= n; d++) {
                    if (cnt[d] == 0) continue;
                    if (best < 0 || cnt[d] > cnt[best]) best = d, ties = 1;
                    else if (cnt[d] == cnt[best] && next_rand() % (++ties) == 0) best = d;
                }
                keep.clear();
                for (uint32_t c : cand)
                    if (__builtin_popcount(c ^ (uint32_t)y) == best) keep.push_back(c);
                cand.swap(keep);
                std::cout << best << std::endl;
            } else if (cmd == "!") {
                long long guess = read_number("after '!'");
                if (guess < 0 || guess >= full)
                    reject(_pe, format("game %d: answer %lld is outside [0, 2^%d - 1]", g + 1, guess, n));
                bool present = false;
                for (uint32_t c : cand) present |= (c == (uint64_t)guess);
                if (!present)
                    reject(_wa, format("game %d: %lld contradicts the replies given", g + 1, guess));
                if (cand.size() > 1) {
                    size_t r = next_rand() % cand.size();
                    if (cand[r] == (uint64_t)guess) r = (r + 1) % cand.size();
                    uint32_t other = cand[r];
                    reject(_wa, format("game %d: %zu values were still possible; the hidden number was %u, not %lld",
                                       g + 1, cand.size(), other, guess));
                }
                break;
            } else {
                reject(_pe, format("game %d: expected '?' or '!', found \"%s\"", g + 1, cmd.substr(0, 40).c_str()));
            }
        }
    }
    // Close the solver's input, then require that it printed nothing after its last answer.
    std::cout.flush();
    fclose(stdout);
    if (!ouf.seekEof()) finish(_pe, "output after the final answer");
    finish(_ok, format("%d games solved with %lld queries (budget %lld)", T, queries, query_limit));
}
