"""The text of the files `python -m ibench.tasks new` writes (see :mod:`ibench.tasks.scaffold`).

Each template is a complete, working example, commented for the author who will replace it:
"guess the number" (interactive and grader kinds) and "sum of numbers" (batch). `{name}` and
`{header}` are filled in by the scaffold.
"""

INTERACTIVE_DESC = """\
# Guess the Number

<!-- Template written by `python -m ibench.tasks new {name}`. Replace the example problem
     (find a hidden number with "is it at least y?" questions), but keep the sections: the
     protocol, the query budget and the limits must be stated exactly, since the model sees
     only this file. -->

## Statement

The jury has chosen an integer $x$ with $1 \\le x \\le n$. Find it by asking questions.

## Interaction Protocol

First read a line with one integer $n$ ($1 \\le n \\le 10^9$).

Then ask queries, one per line:

- `? y` with $1 \\le y \\le n$. The jury answers with a line `1` if $x \\ge y$, `0` otherwise.

When you know $x$, print `! x` and exit. This line does not count as a query.

Flush the output after every line you print (`cout << endl` or `fflush(stdout)` in C++,
`sys.stdout.flush()` in Python, `System.out.flush()` in Java). Print nothing else to standard
output.

### Query budget

You may ask at most $\\lceil \\log_2 n \\rceil$ queries. If you ask more, the jury answers `-1`
instead of `0`/`1`; your program must then exit at once (it has failed already).

## Limits

- Time limit: 2 seconds (CPU time).
- Memory limit: 256 MB.

## Example

| you   | jury |
|-------|------|
|       | `8`  |
| `? 5` | `1`  |
| `? 7` | `0`  |
| `? 6` | `1`  |
| `! 6` |      |

Here $x = 6$: three queries, within the budget $\\lceil \\log_2 8 \\rceil = 3$.
"""


GRADER_DESC = """\
# Guess the Number

<!-- Template written by `python -m ibench.tasks new {name} --kind grader`. Replace the example
     problem, but keep the sections: the function interface, the call budget and the limits
     must be stated exactly, since the model sees only this file. -->

## Statement

The jury has chosen an integer $x$ with $1 \\le x \\le n$. Find it by calling `at_least`.

## Implementation details

Do not write `main`, and do not read standard input or write standard output. Include
`{name}.h` and implement

```cpp
long long find_number(long long n);
```

which is called exactly once and must return $x$. It may call

```cpp
bool at_least(long long y);   // 1 <= y <= n; true iff x >= y
```

### Call budget

You may call `at_least` at most $\\lceil \\log_2 n \\rceil$ times. A call beyond the budget
ends the run as failed.

## Limits

- Time limit: 2 seconds (CPU time).
- Memory limit: 256 MB.

## Example

With $n = 8$ and $x = 6$: `at_least(5)` returns `true`, `at_least(7)` returns `false`,
`at_least(6)` returns `true`, and `find_number` returns `6`.
"""


# The shared part of both interactors: logging, verdicts and strict reading of the solver.
INTERACTOR_COMMON = """\
#include "testlib.h"
#include <bits/stdc++.h>
using namespace std;

static long long queries = 0;      // queries the solver has asked so far
static long long query_limit = 0;  // the budget stated in desc.md

// SPEC 3: the harness reads the last `queries=` and `query_limit=` lines of tout. Logged once
// the limit is known (before the first blocking read, so a killed run still has the figures),
// after every query, and on every exit path (through finish()).
static void log_metrics() {
    tout << "queries=" << queries << "\\n" << "query_limit=" << query_limit << "\\n";
    tout.flush();
}

// Every verdict goes through here so that it is logged first. Verdicts: _ok, _wa (wrong
// answer), _pe (protocol violation), _fail (a bug in the task itself, never the solver's).
// The harness, not the interactor, turns queries > query_limit into QLE.
static void finish(TResult verdict, const string& message) {
    log_metrics();
    quitf(verdict, "%s", message.c_str());
}

// Reads one token from the solver; its end of output is a protocol violation (PE).
static string read_token() {
    if (ouf.seekEof()) finish(_pe, "unexpected end of the solver's output");
    return ouf.readToken();
}

// After the final answer the solver's output must end: anything more (a second answer, a stray
// query) is a protocol violation (PE), never accepted. Blocks until the solver exits.
static void expect_end() {
    if (!ouf.seekEof()) finish(_pe, format("output after the final answer: \\"%s\\"", ouf.readToken().c_str()));
}

// Reads an integer in [lo, hi]; anything else is a protocol violation, logged via finish().
static long long read_number(long long lo, long long hi, const char* what) {
    string token = read_token();
    size_t digits = (!token.empty() && token[0] == '-') ? 1 : 0;
    bool ok = token.size() > digits && token.size() <= 18;
    for (size_t i = digits; ok && i < token.size(); i++) ok = isdigit((unsigned char)token[i]);
    if (!ok) finish(_pe, format("expected %s, found \\"%s\\"", what, token.c_str()));
    long long v = stoll(token);
    if (v < lo || v > hi) finish(_pe, format("%s = %lld is outside [%lld, %lld]", what, v, lo, hi));
    return v;
}

// Counts a query; past the budget answers -1 (as desc.md promises) and stops the run.
static void count_query() {
    queries++;
    if (queries > query_limit) {
        cout << -1 << endl;
        finish(_wa, format("query limit %lld exceeded", query_limit));
    }
}

static long long budget_for(long long n) {  // ceil(log2 n): what binary search needs
    long long k = 0;
    while ((1LL << k) < n) k++;
    return k;
}
"""


NON_ADAPTIVE_INTERACTOR = """\
// Non-adaptive interactor (serves cases 001-100): the hidden number is fixed by the case file.
//
// Contract (SPEC 3, docs/CONVENTIONS.md): run as `interactor <case.in> <tout>`. It reads the
// hidden case with `inf`, the solver's output with `ouf`, answers on stdout (flushed: endl),
// and logs queries/query_limit to `tout`. Exit codes: 0 OK, 1 WA, 2 PE, 3 FAIL.
// Case format (generator/gen_cases.cpp --mode non): "n x".
""" + INTERACTOR_COMMON + """
int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    // A bad case file makes testlib exit with FAIL: a task bug, reported as a judge error.
    long long n = inf.readLong(1, 1000000000LL, "n");
    long long x = inf.readLong(1, n, "x");
    query_limit = budget_for(n);
    log_metrics();  // before the first blocking read

    cout << n << endl;
    while (true) {
        string command = read_token();
        if (command == "?") {
            long long y = read_number(1, n, "y");
            count_query();
            cout << (x >= y ? 1 : 0) << endl;
            log_metrics();  // cheap at this budget; with 1e5+ queries log every k queries instead
        } else if (command == "!") {
            long long answer = read_number(1, n, "the answer");
            if (answer != x) finish(_wa, format("answered %lld, the hidden number is %lld", answer, x));
            expect_end();
            finish(_ok, format("found %lld with %lld queries", x, queries));
        } else {
            finish(_pe, format("expected \\"?\\" or \\"!\\", found \\"%s\\"", command.c_str()));
        }
    }
}
"""


ADAPTIVE_INTERACTOR = """\
// Adaptive interactor (serves cases 101-200): no number is fixed in advance. The interactor
// keeps the set of numbers still consistent with its replies, an interval [lo, hi], and
// answers so that the larger part survives; a guess is right only once a single number is
// left. Adaptivity must stay within what desc.md allows (here: any x consistent so far).
//
// Contract (SPEC 3, docs/CONVENTIONS.md): run as `interactor <case.in> <tout>`. It reads the
// case with `inf`, the solver's output with `ouf`, answers on stdout (flushed: endl), and logs
// queries/query_limit to `tout`. Exit codes: 0 OK, 1 WA, 2 PE, 3 FAIL.
// Case format (generator/gen_cases.cpp --mode adp): "n".
""" + INTERACTOR_COMMON + """
int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    long long n = inf.readLong(1, 1000000000LL, "n");
    long long lo = 1, hi = n;  // the numbers still consistent with every reply
    query_limit = budget_for(n);
    log_metrics();  // before the first blocking read

    cout << n << endl;
    while (true) {
        string command = read_token();
        if (command == "?") {
            long long y = read_number(1, n, "y");
            count_query();
            // Keep the larger of {x >= y} and {x < y} (ties: x >= y).
            bool reply = (y <= lo) || (y <= hi && hi - y + 1 >= y - lo);
            if (reply) lo = max(lo, y); else hi = min(hi, y - 1);
            cout << (reply ? 1 : 0) << endl;
            log_metrics();
        } else if (command == "!") {
            long long answer = read_number(1, n, "the answer");
            if (lo != hi || answer != lo) {
                long long other = answer != lo ? lo : hi;  // a number the replies still allow
                finish(_wa, format("answered %lld, but %lld is consistent with the replies", answer, other));
            }
            expect_end();
            finish(_ok, format("found %lld with %lld queries", answer, queries));
        } else {
            finish(_pe, format("expected \\"?\\" or \\"!\\", found \\"%s\\"", command.c_str()));
        }
    }
}
"""


GUESS_GENERATOR = """\
// Case generator: `gen_cases <seed> [--mode non|adp] [--n N]` prints one case on stdout.
//
// registerGen seeds `rnd` from all the arguments, so the output is a pure function of the
// command line: `python -m ibench.tasks validate` reruns each line of generator/cases.txt and
// compares bytes with the shipped case. Never use rand(), time, addresses or unordered
// iteration order. --mode non: "n x" for the non-adaptive interactor; --mode adp: "n" only,
// the adaptive interactor chooses as the game goes.
#include "testlib.h"
#include <bits/stdc++.h>
using namespace std;

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    string mode = opt<string>("mode", "non");
    long long n = opt<long long>("n", 1000);
    if (n < 1 || n > 1000000000LL) quitf(_fail, "--n must be in [1, 1e9], got %lld", n);
    if (mode == "non") {
        long long x = rnd.next(1LL, n);
        printf("%lld %lld\\n", n, x);
    } else if (mode == "adp") {
        printf("%lld\\n", n);
    } else {
        quitf(_fail, "unknown --mode %s; expected non or adp", mode.c_str());
    }
    return 0;
}
"""


INTERACTIVE_SOLUTION = """\
// Accepted reference: binary search on x with "? y" (reply 1 iff x >= y). Each query halves
// the candidates, so it needs ceil(log2 n) queries, exactly the budget.
#include <bits/stdc++.h>
using namespace std;

int main() {
    long long n;
    if (!(cin >> n)) return 0;
    long long lo = 1, hi = n;  // x is in [lo, hi]
    while (lo < hi) {
        long long mid = lo + (hi - lo + 1) / 2;
        cout << "? " << mid << endl;  // endl flushes
        int reply;
        if (!(cin >> reply) || reply == -1) return 0;  // budget spent: exit at once
        if (reply == 1) lo = mid; else hi = mid - 1;
    }
    cout << "! " << lo << endl;
    return 0;
}
"""


INTERACTIVE_PROBE = """\
// Known-bad probe (expected QLE): asks one query more than the budget, then exits on -1.
// Probes show that the task's judging rejects what it must; see solutions/expected.json.
#include <bits/stdc++.h>
using namespace std;

int main() {
    long long n;
    if (!(cin >> n)) return 0;
    long long budget = 0;
    while ((1LL << budget) < n) budget++;
    for (long long i = 0; i <= budget; i++) {
        cout << "? 1" << endl;
        int reply;
        if (!(cin >> reply) || reply == -1) return 0;
    }
    cout << "! 1" << endl;
    return 0;
}
"""


GRADER_HEADER = """\
// The interface between the solution and the grader (see desc.md). The solution includes this
// file and implements find_number; grader/stub.cpp implements at_least and owns main.
#pragma once

// Implemented by the grader: true iff the hidden number is >= y (1 <= y <= n). One query.
bool at_least(long long y);

// Implemented by the solution: returns the hidden number, in [1, n].
long long find_number(long long n);
"""


GRADER_STUB = """\
// Grader stub, compiled and linked with the solution (g++ solution.cpp grader/*.cpp -I grader).
// It owns main and forwards every call over stdin/stdout to the manager (interactor/*.cpp),
// which counts queries and alone decides the verdict: nothing the solution prints can fake it.
// The wire protocol is the interactive one: "? y" -> "1"/"0"/"-1", then "! x".
#include "{header}"
#include <cstdio>
#include <cstdlib>

bool at_least(long long y) {
    printf("? %lld\\n", y);
    fflush(stdout);
    int reply;
    if (scanf("%d", &reply) != 1 || reply == -1) exit(0);  // the manager has ended the run
    return reply == 1;
}

int main() {
    long long n;
    if (scanf("%lld", &n) != 1) return 0;
    long long x = find_number(n);
    printf("! %lld\\n", x);
    fflush(stdout);
    return 0;
}
"""


GRADER_SOLUTION = """\
// Accepted reference: binary search with at_least(y); ceil(log2 n) calls, exactly the budget.
#include "{header}"

long long find_number(long long n) {
    long long lo = 1, hi = n;  // the number is in [lo, hi]
    while (lo < hi) {
        long long mid = lo + (hi - lo + 1) / 2;
        if (at_least(mid)) lo = mid; else hi = mid - 1;
    }
    return lo;
}
"""


GRADER_PROBE = """\
// Known-bad probe (expected QLE): calls at_least once more than the budget allows.
#include "{header}"

long long find_number(long long n) {
    long long budget = 0;
    while ((1LL << budget) < n) budget++;
    for (long long i = 0; i <= budget; i++) at_least(1);
    return 1;
}
"""


BATCH_DESC = """\
# Sum of Numbers

<!-- Template written by `python -m ibench.tasks new {name} --kind batch`. Replace the example
     problem, but keep the sections: input, output, constraints, subtasks and limits must be
     stated exactly, since the model sees only this file. -->

## Statement

Given $n$ integers, print their sum.

## Input

The first line holds $n$ ($1 \\le n \\le 10$). The second line holds $n$ integers
$a_1, \\dots, a_n$ ($1 \\le a_i \\le 1000$), separated by spaces.

## Output

Print one integer: $a_1 + \\dots + a_n$.

## Subtasks

| subtask | points | constraints |
|---------|--------|-------------|
| 1       | 100    | none        |

## Limits

- Time limit: 1 second (CPU time).
- Memory limit: 256 MB.

## Example

Input:

```
3
1 2 3
```

Output:

```
6
```
"""


SUM_GENERATOR = """\
// Test generator: `gen_cases <seed>` prints one input on stdout.
//
// registerGen seeds `rnd` from all the arguments, so the output is a pure function of the
// command line: `python -m ibench.tasks validate` reruns each line of generator/cases.txt and
// compares bytes with tests/<name>.in. Never use rand(), time or addresses. Keep one rnd call
// per statement: C++ leaves the order of evaluation inside an expression unspecified.
#include "testlib.h"
#include <bits/stdc++.h>
using namespace std;

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    int n = rnd.next(1, 10);
    printf("%d\\n", n);
    for (int i = 0; i < n; i++) {
        int a = rnd.next(1, 1000);
        printf(i ? " %d" : "%d", a);
    }
    printf("\\n");
    return 0;
}
"""


SUM_SOLUTION = """\
// Accepted reference: read n numbers, print their sum (64-bit to be safe).
#include <bits/stdc++.h>
using namespace std;

int main() {
    int n;
    cin >> n;
    long long sum = 0;
    for (int i = 0; i < n; i++) {
        long long a;
        cin >> a;
        sum += a;
    }
    cout << sum << "\\n";
    return 0;
}
"""


SUM_PROBE = """\
// Known-bad probe (expected WA, score 0): off by one on every test.
#include <bits/stdc++.h>
using namespace std;

int main() {
    int n;
    cin >> n;
    long long sum = 0;
    for (int i = 0; i < n; i++) {
        long long a;
        cin >> a;
        sum += a;
    }
    cout << sum + 1 << "\\n";
    return 0;
}
"""
