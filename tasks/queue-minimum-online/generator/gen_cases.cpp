// Generator for queue-minimum-online: gen <seed> [--mode non] [--type T] [--ops Q] [--questions K] [--vmax V]
// Prints q, then q operations ("+ x", "-", "?"); the queue is never empty at '-' or '?'.
// Types: random (balanced), inc / dec (pushed values increase / decrease), dup (values in
// [-vmax, vmax] with vmax small: many equal values), drain (fill, then empty completely, repeat),
// frontmin (the minimum is usually at the front and then popped), big (a long queue with many
// questions), tiny (a handful of operations), extreme (values at +-10^9).
#include "testlib.h"
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "non");
    std::string type = opt<std::string>("type", "random");
    int q = opt<int>("ops", 1000);
    int kmax = opt<int>("questions", 300);
    long long vmax = opt<long long>("vmax", 1000000000LL);
    ensuref(mode == "non", "queue-minimum-online has only non-adaptive cases");
    ensuref(2 <= q && q <= 100000 && 1 <= kmax && kmax <= 10000 && 0 <= vmax && vmax <= 1000000000LL, "bad options");

    std::vector<std::string> ops;
    long long size = 0, asked = 0, counter = 0;
    bool filling = true;
    long long target = 0;
    auto value = [&]() -> long long {
        counter++;
        if (type == "inc") return std::min(vmax, -vmax + counter * std::max(1LL, (2 * vmax) / q) + rnd.next(0LL, 2LL));
        if (type == "dec") return std::max(-vmax, vmax - counter * std::max(1LL, (2 * vmax) / q) - rnd.next(0LL, 2LL));
        if (type == "extreme") return rnd.next(2) ? vmax : -vmax;
        return rnd.next(-vmax, vmax);
    };
    for (int i = 0; i < q; i++) {
        int remaining = q - i;
        char op;
        if (remaining == 1 && asked < kmax && size > 0) op = '?';
        else if (size == 0) op = '+';
        else {
            // weights for '+', '-', '?'
            int wp = 4, wm = 3, wq = 3;
            if (type == "big") { wp = size < 50000 ? 6 : 3; wm = 3; wq = 2; }
            if (type == "drain") {
                if (filling && size >= target) filling = false;
                if (!filling && size == 0) filling = true;
                if (filling) { wp = 8; wm = 1; } else { wp = 1; wm = 8; }
                wq = 3;
            }
            if (type == "frontmin") { wp = 3; wm = 4; wq = 3; }
            if (asked >= kmax) wq = 0;
            int r = rnd.next(wp + wm + wq);
            op = r < wp ? '+' : r < wp + wm ? '-' : '?';
        }
        if (op == '+') {
            long long x = value();
            if (type == "frontmin" && size == 0) x = -vmax + rnd.next(0LL, 3LL);
            ops.push_back(format("+ %lld", x));
            size++;
            if (type == "drain" && filling && target == 0) target = rnd.next(1, 40);
        } else if (op == '-') {
            ops.push_back("-");
            size--;
            if (type == "drain" && size == 0) target = rnd.next(1, 40);
        } else {
            ops.push_back("?");
            asked++;
        }
    }
    if (asked == 0) {  // make sure there is at least one question
        if (size == 0) ops.push_back("+ 0");
        ops.push_back("?");
    }
    printf("%d\n", (int)ops.size());
    for (auto& s : ops) printf("%s\n", s.c_str());
    return 0;
}
