"""Category B: protocol mutants of an accepted C++ solution, each with exactly one violation.

A mutant is the solution's own source with a prelude in front: a constructor that runs before
``main`` puts two pipes between the program and the judge and starts two threads. One forwards
the interactor's lines to the program (and keeps the first tokens of each line, so the card's
expressions such as ``L(1,2)`` can be evaluated); the other forwards the program's lines to the
interactor and makes the one change the mutant stands for. An exit handler drains what the
program wrote before the process ends. The program itself is untouched, so whatever it does
right (flushing, counting, answering) stays right, and the verdict is about the one violation.

Mutants and the label each must get (SPEC §4):

=================  ============================================================  ========
id                 change                                                          required
=================  ============================================================  ========
extra_query        before the first answer, repeat the last query until the run   QLE
                   has asked budget + 1 (the budget from the card's expression)
arg_low/arg_high   the argument of ``args[i]`` set to min - 1 / max + 1            PE (card)
unknown_command    the first query's command word (or the first token of the       PE
                   program's first line) replaced by ``@``
missing_token      the last token of the first query (or answer) line dropped      PE (IDLE
                                                                                   accepted
                                                                                   unless
                                                                                   strict_lines)
extra_token        the first query (or answer) line's last token written twice     PE
after_answer       after the program's last line, that line once more              PE
no_flush           nothing reaches the interactor until the program exits          IDLE
=================  ============================================================  ========

A token-stream interactor that meets a line with a token missing keeps reading into the next
line while the program waits for a reply: both wait and the run ends IDLE. The run is rejected
either way, so IDLE is accepted for missing_token unless the card says ``strict_lines``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .facts import Facts, to_cpp

REQUIRED = {
    "extra_query": ("QLE",),
    "unknown_command": ("PE",),
    "missing_token": ("PE", "IDLE"),
    "extra_token": ("PE",),
    "after_answer": ("PE",),
    "no_flush": ("IDLE",),
}
MODES = {"extra_query": 1, "arg": 2, "unknown_command": 3, "missing_token": 4, "extra_token": 5,
         "after_answer": 6, "no_flush": 7}


@dataclass(frozen=True)
class ProtocolMutant:
    id: str  # "B:<solution>:<kind>"
    kind: str  # extra_query, arg_low[0], ...
    solution: str
    source: str
    required: tuple[str, ...]
    description: str


def _cstr(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


PRELUDE = r"""#include <bits/stdc++.h>
// ---- ibench probe: Category B mutant "@KIND@" (@DESC@) ----
#include <unistd.h>
#include <pthread.h>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <iostream>
namespace ibench_probe_ns {
static const int MODE = @MODE@;
static const char* QUERY = @QUERY@;
static const char* ANSWER = @ANSWER@;
static const char* SAMPLE = @SAMPLE@;
static const int REPLY_LINES = @REPLY_LINES@;
static const char* ARG_ON_WORD = @ARG_ON_WORD@;
static const int ARG_ON_LINE = @ARG_ON_LINE@;
static const int ARG_TOKEN = @ARG_TOKEN@;
static int real_in = -1, real_out = -1, to_prog = -1, from_prog = -1;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
// Allocated in the constructor: a global with a dynamic initializer would run after it (and
// after the reader thread has started) and wipe what that thread recorded.
static std::vector<std::vector<std::string>>* judge_lines_p = nullptr;
#define judge_lines (*judge_lines_p)
static long long swallow = 0;
static bool judge_eof = false, judge_refused = false;
static pthread_t out_thread;
static bool started = false;

static std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> t; size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && isspace((unsigned char)s[i])) i++;
        size_t j = i; while (j < s.size() && !isspace((unsigned char)s[j])) j++;
        if (j > i) t.push_back(s.substr(i, j - i));
        i = j;
    }
    return t;
}
static std::string join(const std::vector<std::string>& t) {
    std::string s; for (size_t i = 0; i < t.size(); i++) { if (i) s += ' '; s += t[i]; } return s;
}
// caller holds mu
static long long ibp_L(long long i, long long j) {
    if (i < 1 || (size_t)i > judge_lines.size()) return 0;
    const std::vector<std::string>& t = judge_lines[i - 1];
    if (j < 1 || (size_t)j > t.size()) return 0;
    return atoll(t[j - 1].c_str());
}
// caller holds mu: token j of the interactor's k-th latest line (P(1, j): the line just before)
static long long ibp_P(long long k, long long j) {
    if (k < 1 || (size_t)k > judge_lines.size()) return 0;
    return ibp_L((long long)judge_lines.size() - k + 1, j);
}
static long long ibp_clog2(long long x) { long long k = 0; while ((1LL << k) < x) k++; return k; }
static long long ibp_flog2(long long x) { long long k = 0; while ((2LL << k) <= x) k++; return k; }
static long long ibp_clog3(long long x) { long long k = 0, p = 1; while (p < x) { p *= 3; k++; } return k; }
static long long ibp_min(long long a, long long b) { return a < b ? a : b; }
static long long ibp_max(long long a, long long b) { return a > b ? a : b; }
static long long budget_value() { return @BUDGET@; }
static long long arg_value() { return @ARG_VALUE@; }

static void write_all(int fd, const std::string& s) {
    size_t off = 0;
    while (off < s.size()) {
        ssize_t w = write(fd, s.data() + off, s.size() - off);
        if (w <= 0) return;
        off += (size_t)w;
    }
}
static void* in_loop(void*) {
    std::string buf; char chunk[65536];
    for (;;) {
        ssize_t r = read(real_in, chunk, sizeof chunk);
        if (r <= 0) break;
        buf.append(chunk, (size_t)r);
        size_t nl;
        while ((nl = buf.find('\n')) != std::string::npos) {
            std::string line = buf.substr(0, nl + 1);
            buf.erase(0, nl + 1);
            bool drop = false;
            pthread_mutex_lock(&mu);
            if (judge_lines.size() < 4096) {
                std::vector<std::string> t = split(line.size() > 4096 ? line.substr(0, 4096) : line);
                if (t.size() > 64) t.resize(64);
                judge_lines.push_back(t);
            }
            if (swallow > 0) {
                drop = true; swallow--;
                std::vector<std::string> t = split(line);
                if (t.size() == 1 && t[0] == "-1") { judge_refused = true; swallow = 0; }
                pthread_cond_broadcast(&cv);
            }
            pthread_mutex_unlock(&mu);
            if (!drop) write_all(to_prog, line);
        }
    }
    if (!buf.empty()) write_all(to_prog, buf);
    pthread_mutex_lock(&mu);
    judge_eof = true;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    close(to_prog);
    return nullptr;
}
static bool starts(const std::vector<std::string>& t, const char* w) { return w[0] && !t.empty() && t[0] == w; }
// Send one injected query and drop its reply; false when the judge refused or closed.
static bool inject(const std::string& q) {
    pthread_mutex_lock(&mu);
    swallow = REPLY_LINES;
    pthread_mutex_unlock(&mu);
    write_all(real_out, q + "\n");
    pthread_mutex_lock(&mu);
    while (swallow > 0 && !judge_eof) pthread_cond_wait(&cv, &mu);
    bool ok = !judge_refused && !judge_eof;
    pthread_mutex_unlock(&mu);
    return ok;
}
static void* out_loop(void*) {
    std::string buf, held, last, last_query; char chunk[65536];
    long long lines = 0, queries = 0; bool done = false;
    for (;;) {
        ssize_t r = read(from_prog, chunk, sizeof chunk);
        if (r <= 0) break;
        buf.append(chunk, (size_t)r);
        size_t nl;
        while ((nl = buf.find('\n')) != std::string::npos) {
            std::string line = buf.substr(0, nl);
            buf.erase(0, nl + 1);
            std::vector<std::string> t = split(line);
            lines++;
            bool is_query = starts(t, QUERY), is_answer = starts(t, ANSWER);
            std::string out = line;
            if (!done) {
                if (MODE == 1 && is_answer) {
                    done = true;
                    std::string q = !last_query.empty() ? last_query : std::string(SAMPLE);
                    if (!q.empty()) {
                        pthread_mutex_lock(&mu);
                        long long need = budget_value() - queries + 1;
                        pthread_mutex_unlock(&mu);
                        if (need < 1) need = 1;
                        for (long long k = 0; k < need; k++)
                            if (!inject(q)) _exit(0);  // the judge answered -1: stop, as told
                    }
                } else if (MODE == 2 && ((ARG_ON_WORD[0] && starts(t, ARG_ON_WORD)) || (!ARG_ON_WORD[0] && lines == ARG_ON_LINE))
                           && (int)t.size() >= ARG_TOKEN) {
                    done = true;
                    pthread_mutex_lock(&mu);
                    long long v = arg_value();
                    pthread_mutex_unlock(&mu);
                    t[ARG_TOKEN - 1] = std::to_string(v);
                    out = join(t);
                } else if (MODE == 3 && (QUERY[0] ? is_query : lines == 1) && !t.empty()) {
                    done = true; t[0] = "@"; out = join(t);
                } else if (MODE == 4 && (QUERY[0] ? is_query : is_answer) && t.size() >= 2) {
                    done = true; t.pop_back(); out = join(t);
                } else if (MODE == 5 && (QUERY[0] ? is_query : is_answer) && t.size() >= 2) {
                    done = true; t.push_back(t.back()); out = join(t);
                }
            }
            if (is_query) { queries++; last_query = line; }
            last = out;
            if (MODE == 7) held += out + "\n";
            else write_all(real_out, out + "\n");
        }
    }
    if (!buf.empty()) { if (MODE == 7) held += buf; else write_all(real_out, buf); }
    if (MODE == 7 && !held.empty()) write_all(real_out, held);
    if (MODE == 6 && lines > 0) write_all(real_out, last + "\n");
    return nullptr;
}
static void at_exit() {
    if (!started) return;
    std::cout.flush();
    fflush(stdout);
    close(1);
    pthread_join(out_thread, nullptr);
}
__attribute__((constructor(101))) static void start() {
    int a[2], b[2];
    real_in = dup(0); real_out = dup(1);
    if (real_in < 0 || real_out < 0 || pipe(a) != 0 || pipe(b) != 0) return;
    dup2(a[0], 0); close(a[0]); to_prog = a[1];
    dup2(b[1], 1); close(b[1]); from_prog = b[0];
    judge_lines_p = new std::vector<std::vector<std::string>>();
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 1 << 20);  // not the stack limit (a judge may set it to the memory limit)
    pthread_t t;
    if (pthread_create(&t, &attr, in_loop, nullptr) != 0) return;
    pthread_detach(t);
    if (pthread_create(&out_thread, &attr, out_loop, nullptr) != 0) return;
    started = true;
    atexit(at_exit);
}
}  // namespace ibench_probe_ns
#undef judge_lines
// ---- end of the probe's prelude; the accepted solution follows unchanged ----
"""


def _prelude(kind: str, desc: str, facts: Facts, mode: int, budget: str = "0LL", arg_value: str = "0LL",
             arg_on: str | int = "", arg_token: int = 1) -> str:
    subs = {
        "@KIND@": kind, "@DESC@": desc.replace("\n", " "), "@MODE@": str(mode),
        "@QUERY@": _cstr(facts.query), "@ANSWER@": _cstr(facts.answer),
        "@SAMPLE@": _cstr(facts.sample_query or ""), "@REPLY_LINES@": str(facts.reply_lines),
        "@ARG_ON_WORD@": _cstr(arg_on if isinstance(arg_on, str) else ""),
        "@ARG_ON_LINE@": str(arg_on if isinstance(arg_on, int) else 0), "@ARG_TOKEN@": str(arg_token),
        "@BUDGET@": budget, "@ARG_VALUE@": arg_value,
    }
    text = PRELUDE
    for k, v in subs.items():
        text = text.replace(k, v)
    return text


def protocol_mutants(solution_name: str, source: str, facts: Facts) -> list[ProtocolMutant]:
    """Every Category B mutant the facts allow for one accepted C++ solution."""
    out: list[ProtocolMutant] = []

    def add(kind: str, required: tuple[str, ...], desc: str, **kw) -> None:
        mode = MODES["arg" if kind.startswith("arg_") else kind]
        text = _prelude(kind, desc, facts, mode, **kw) + "#line 1\n" + source
        out.append(ProtocolMutant(f"B:{solution_name}:{kind}", kind, solution_name, text, required, desc))

    if facts.budget and facts.query:
        add("extra_query", REQUIRED["extra_query"],
            f"repeat the last query before the first answer until the run has asked budget + 1 = {facts.budget} + 1",
            budget=to_cpp(facts.budget, "probe.budget"))
    for i, a in enumerate(facts.args):
        suffix = f"[{i}]" if len(facts.args) > 1 else ""
        for end, expr, delta in (("low", a.min, "- 1"), ("high", a.max, "+ 1")):
            if expr is None:
                continue
            value = f"({to_cpp(expr, 'probe.args')} {delta}LL)"
            where = f"the first '{a.on}' line" if isinstance(a.on, str) else f"the program's line {a.on}"
            add(f"arg_{end}{suffix}", (a.label,), f"token {a.token} of {where} set to {expr} {delta}",
                arg_value=value, arg_on=a.on, arg_token=a.token)
    first = f"the first '{facts.query}' line" if facts.query else "the program's first line"
    add("unknown_command", REQUIRED["unknown_command"], f"the first token of {first} replaced by '@'")
    target = facts.query or facts.answer
    if target:
        where = f"the first '{target}' line"
        add("missing_token", ("PE",) if facts.strict_lines else REQUIRED["missing_token"],
            f"the last token of {where} dropped")
        add("extra_token", REQUIRED["extra_token"], f"the last token of {where} written twice")
    add("after_answer", REQUIRED["after_answer"], "the program's last line written once more after it")
    add("no_flush", REQUIRED["no_flush"], "nothing reaches the interactor until the program exits")
    return out
