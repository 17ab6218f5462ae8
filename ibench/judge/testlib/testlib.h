/*
 * ibench testlib.h -- a testlib-compatible header written from scratch for ibench.
 *
 * It follows the behaviour of testlib 0.9.45 (checkers, interactors, validators, generators):
 * the same stream API, verdicts, exit codes and stderr messages, and a bit-exact `rnd`.
 * Behavioural reference: shared/TESTLIB_FACTS.md.  C++17, single header, glibc/libstdc++ first.
 *
 * ibench extension -- interactor transcripts.  When registerInteraction() runs with the
 * environment variable IBENCH_TRANSCRIPT naming a file, the header records the exchange as
 * turns, in the order the interactor read and wrote:
 *   solver turn: bytes the interactor read from its stdin (ouf, std::cin, scanf, ...);
 *   judge turn:  bytes it wrote to its stdout (std::cout, printf, puts, putchar, ...);
 * consecutive reads (or writes) make one turn, timed in microseconds since registerInteraction().
 * stdin/stdout are replaced by glibc fopencookie() streams that forward to fds 0/1 and record
 * whole chunks (no syscall per byte; buffering mode as for the original streams), and
 * std::cin/std::cout are re-pointed at them, so C and C++ output stay in one ordered log.
 * IBENCH_TRANSCRIPT_BYTES (default 16384; at least 64, or 0: no turns) bounds it: the first half is kept as it
 * came, the last half keeps the latest turns, and what fell between is counted; every turn
 * costs its bytes plus 16.  At every exit path (quit*, return from main, exit(),
 * SIGTERM/SIGSEGV/SIGABRT/...) the file is written as length-prefixed records (see
 * dumpTranscriptRaw), so which side wrote which bytes is never read from the bytes themselves:
 * a solver cannot make its text read back as a judge turn.  The file also holds the last
 * IBENCH_TRANSCRIPT_TAIL_BYTES bytes (default 2048) of each direction, whatever the bound cut.
 * Without IBENCH_TRANSCRIPT nothing of this is active.
 *
 * Also (all interactors): SIGPIPE is ignored when it is at its default, so a solver that exits
 * mid-protocol yields the next read's verdict (PE) instead of a timing-dependent SIGPIPE death.
 */
#ifndef IBENCH_TESTLIB_H_
#define IBENCH_TESTLIB_H_
#ifndef _TESTLIB_H_
#define _TESTLIB_H_
#endif

#define TESTLIB_VERSION "0.9.45-ibench"

#include <algorithm>
#include <array>
#include <bitset>
#include <cassert>
#include <cctype>
#include <cerrno>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <complex>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <numeric>
#include <queue>
#include <random>
#include <set>
#include <sstream>
#include <stack>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <signal.h>
#include <sys/types.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>
#define IBENCH_TL_POSIX 1
#endif

#if defined(__GLIBC__) && defined(__GLIBCXX__) && defined(IBENCH_TL_POSIX)
#include <ext/stdio_sync_filebuf.h>
#define IBENCH_TL_TRANSCRIPT 1
#endif

#if defined(__GNUC__)
#define IBENCH_TL_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define IBENCH_TL_PRINTF(f, a)
#endif

/* ------------------------------------------------------------------------------------------
 * Exit codes
 * ---------------------------------------------------------------------------------------- */
#ifndef OK_EXIT_CODE
#ifdef CONTESTER
#define OK_EXIT_CODE 0xAC
#else
#define OK_EXIT_CODE 0
#endif
#endif

#ifndef WA_EXIT_CODE
#if defined(EJUDGE)
#define WA_EXIT_CODE 5
#elif defined(CONTESTER)
#define WA_EXIT_CODE 0xAB
#else
#define WA_EXIT_CODE 1
#endif
#endif

#ifndef PE_EXIT_CODE
#if defined(EJUDGE)
#define PE_EXIT_CODE 4
#elif defined(CONTESTER)
#define PE_EXIT_CODE 0xAA
#else
#define PE_EXIT_CODE 2
#endif
#endif

#ifndef FAIL_EXIT_CODE
#if defined(EJUDGE)
#define FAIL_EXIT_CODE 6
#elif defined(CONTESTER)
#define FAIL_EXIT_CODE 0xA3
#else
#define FAIL_EXIT_CODE 3
#endif
#endif

#ifndef DIRT_EXIT_CODE
#define DIRT_EXIT_CODE PE_EXIT_CODE
#endif

#ifndef POINTS_EXIT_CODE
#define POINTS_EXIT_CODE 7
#endif

#ifndef UNEXPECTED_EOF_EXIT_CODE
#define UNEXPECTED_EOF_EXIT_CODE 8
#endif

#ifndef PC_BASE_EXIT_CODE
#ifdef TESTSYS
#define PC_BASE_EXIT_CODE 50
#else
#define PC_BASE_EXIT_CODE 0
#endif
#endif

#define I64 "%lld"
#define U64 "%llu"

#define __TESTLIB_LONGLONG_MAX 9223372036854775807LL
#define __TESTLIB_MAX_TEST_CASE 1073741823

constexpr char LF = '\n';
constexpr char CR = '\r';
constexpr char SPACE = ' ';
constexpr char TAB = '\t';
constexpr char EOFC = char(-1);

enum TMode { _input, _output, _answer };

enum TResult {
    _ok = 0,
    _wa = 1,
    _pe = 2,
    _fail = 3,
    _dirt = 4,
    _points = 5,
    _unexpected_eof = 8,
    _partially = 16
};

enum TTestlibMode { _unknown, _checker, _validator, _generator, _interactor, _scorer };

#define _pc(exitCode) (TResult(_partially + (exitCode)))

class InStream;
class random_t;

/* ------------------------------------------------------------------------------------------
 * Small string helpers (public, as in testlib)
 * ---------------------------------------------------------------------------------------- */
inline std::string format(const char* fmt, ...) IBENCH_TL_PRINTF(1, 2);

namespace ibench_tl {

inline std::string vformat(const char* fmt, va_list ap) {
    if (fmt == nullptr) return std::string();
    char small[512];
    va_list cp;
    va_copy(cp, ap);
    int n = std::vsnprintf(small, sizeof small, fmt, cp);
    va_end(cp);
    if (n < 0) return std::string();
    if (size_t(n) < sizeof small) return std::string(small, size_t(n));
    std::string out(size_t(n) + 1, '\0');
    va_copy(cp, ap);
    std::vsnprintf(&out[0], out.size(), fmt, cp);
    va_end(cp);
    out.resize(size_t(n));
    return out;
}

inline bool isBlank(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

template <class T> struct always_false : std::false_type {};

}  // namespace ibench_tl

inline std::string format(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::string s = ibench_tl::vformat(fmt, ap);
    va_end(ap);
    return s;
}

template <typename C> inline bool isEof(C c) { return c == EOFC; }
template <typename C> inline bool isEoln(C c) { return c == LF || c == CR; }
template <typename C> inline bool isBlanks(C c) { return c == LF || c == CR || c == SPACE || c == TAB; }

inline std::string trim(const std::string& s) {
    size_t l = 0, r = s.size();
    while (l < r && ibench_tl::isBlank((unsigned char)s[l])) l++;
    while (r > l && ibench_tl::isBlank((unsigned char)s[r - 1])) r--;
    return s.substr(l, r - l);
}

inline std::string upperCase(std::string s) {
    for (char& c : s) c = char(std::toupper((unsigned char)c));
    return s;
}

inline std::string lowerCase(std::string s) {
    for (char& c : s) c = char(std::tolower((unsigned char)c));
    return s;
}

/* Long strings in messages: the first 30 and the last 31 characters around "...". */
inline std::string __testlib_part(const std::string& s) {
    std::string t;
    t.reserve(s.size());
    for (char c : s) t += (c == '\0' ? '~' : c);
    if (t.size() <= 64) return t;
    return t.substr(0, 30) + "..." + t.substr(t.size() - 31, 31);
}

inline std::string compress(const std::string& s) { return __testlib_part(s); }

template <typename T> inline std::string vtos(const T& t) {
    if constexpr (std::is_same<T, bool>::value) {
        return t ? "true" : "false";
    } else if constexpr (std::is_integral<T>::value) {
        return std::to_string(t);
    } else {
        std::ostringstream ss;
        ss << t;
        return ss.str();
    }
}

template <typename T> inline std::string toString(const T& t) { return vtos(t); }

/* Integers with >= 7 trailing zeros print as 10^k, c*10^k (used in range messages). */
template <typename T> inline std::string toHumanReadableString(const T& n) {
    if (n == 0) return vtos(n);
    int zeros = 0;
    T m = n;
    while (m % 10 == 0) m /= 10, zeros++;
    if (zeros >= 7) {
        if (m == 1) return "10^" + vtos(zeros);
        if constexpr (std::is_signed<T>::value) {
            if (m == -1) return "-10^" + vtos(zeros);
        }
        return vtos(m) + "*10^" + vtos(zeros);
    }
    return vtos(n);
}

inline std::string englishEnding(int x) {
    x %= 100;
    if (x < 0) x = -x;
    if (x / 10 == 1) return "th";
    if (x % 10 == 1) return "st";
    if (x % 10 == 2) return "nd";
    if (x % 10 == 3) return "rd";
    return "th";
}

inline std::string removeDoubleTrailingZeroes(std::string value) {
    if (value.find('.') == std::string::npos) return value;
    while (value.size() > 2 && value.back() == '0' && value[value.size() - 2] != '.') value.pop_back();
    return value;
}

inline std::vector<std::string> split(const std::string& s, const std::string& separators) {
    std::vector<std::string> out;
    std::string item;
    for (char c : s) {
        if (separators.find(c) != std::string::npos) {
            out.push_back(item);
            item.clear();
        } else {
            item += c;
        }
    }
    out.push_back(item);
    return out;
}

inline std::vector<std::string> split(const std::string& s, char separator) {
    return split(s, std::string(1, separator));
}

inline std::vector<std::string> tokenize(const std::string& s, const std::string& separators) {
    std::vector<std::string> out;
    for (auto& item : split(s, separators))
        if (!item.empty()) out.push_back(item);
    return out;
}

inline std::vector<std::string> tokenize(const std::string& s, char separator) {
    return tokenize(s, std::string(1, separator));
}

namespace ibench_tl {
template <class T, class = void> struct is_iterator : std::false_type {};
template <class T>
struct is_iterator<T, std::void_t<typename std::iterator_traits<T>::iterator_category>>
    : std::integral_constant<bool, !std::is_same<std::decay_t<T>, char*>::value &&
                                       !std::is_same<std::decay_t<T>, const char*>::value> {};

template <class T, class = void> struct is_iterable : std::false_type {};
template <class T>
struct is_iterable<T, std::void_t<decltype(std::begin(std::declval<const T&>())),
                                  decltype(std::end(std::declval<const T&>()))>> : std::true_type {};

template <class T>
struct is_stringish
    : std::integral_constant<bool, std::is_same<std::decay_t<T>, std::string>::value ||
                                       std::is_same<std::decay_t<T>, char*>::value ||
                                       std::is_same<std::decay_t<T>, const char*>::value> {};

template <class T> struct is_pair : std::false_type {};
template <class A, class B> struct is_pair<std::pair<A, B>> : std::true_type {};

template <class T> void printOne(std::ostream& os, const T& t) {
    if constexpr (is_stringish<T>::value) {
        os << t;
    } else if constexpr (is_pair<T>::value) {
        printOne(os, t.first);
        os << ' ';
        printOne(os, t.second);
    } else if constexpr (is_iterable<T>::value) {
        bool first = true;
        for (const auto& x : t) {
            if (!first) os << ' ';
            first = false;
            printOne(os, x);
        }
    } else {
        os << t;
    }
}
}  // namespace ibench_tl

template <typename It, typename Sep,
          typename std::enable_if<ibench_tl::is_iterator<It>::value, int>::type = 0>
std::string join(It first, It last, Sep separator) {
    std::ostringstream ss;
    bool head = true;
    for (It it = first; it != last; ++it) {
        if (!head) ss << separator;
        head = false;
        ss << *it;
    }
    return ss.str();
}

template <typename It, typename std::enable_if<ibench_tl::is_iterator<It>::value, int>::type = 0>
std::string join(It first, It last) {
    return join(first, last, ' ');
}

template <typename C, typename Sep,
          typename std::enable_if<ibench_tl::is_iterable<C>::value && !ibench_tl::is_iterator<C>::value, int>::type = 0>
std::string join(const C& collection, Sep separator) {
    return join(std::begin(collection), std::end(collection), separator);
}

template <typename C, typename std::enable_if<ibench_tl::is_iterable<C>::value, int>::type = 0>
std::string join(const C& collection) {
    return join(std::begin(collection), std::end(collection), ' ');
}

/* println(a, b, c): space separated, containers expanded; println(first, last): a range. */
template <typename It, typename std::enable_if<ibench_tl::is_iterator<It>::value, int>::type = 0>
void println(It first, It last) {
    bool head = true;
    for (It it = first; it != last; ++it) {
        if (!head) std::cout << ' ';
        head = false;
        ibench_tl::printOne(std::cout, *it);
    }
    std::cout << '\n';
}

template <typename... Args> void println(const Args&... args) {
    bool head = true;
    ((std::cout << (head ? "" : " "), ibench_tl::printOne(std::cout, args), head = false), ...);
    (void)head;
    std::cout << '\n';
}

/* ------------------------------------------------------------------------------------------
 * Transcript capture (ibench extension)
 * ---------------------------------------------------------------------------------------- */
namespace ibench_tl {

/* The last bytes of one direction (the judge's pipe tails; IBENCH_TRANSCRIPT_TAIL_BYTES). */
struct Ring {
    char* buf = nullptr;
    size_t cap = 0, pos = 0, len = 0;
    unsigned long long total = 0;

    void init(size_t c) {
        cap = c;
        buf = c ? static_cast<char*>(std::malloc(c)) : nullptr;
        if (buf == nullptr) cap = 0;
    }

    void push(const char* p, size_t n) {
        total += n;
        if (cap == 0 || n == 0) return;
        if (n >= cap) {
            std::memcpy(buf, p + (n - cap), cap);
            pos = 0;
            len = cap;
            return;
        }
        size_t first = std::min(n, cap - pos);
        std::memcpy(buf + pos, p, first);
        if (n > first) std::memcpy(buf, p + first, n - first);
        pos = (pos + n) % cap;
        len = std::min(cap, len + n);
    }

    size_t start() const { return cap ? (pos + cap - len) % cap : 0; }
};

/* The exchange as turns, bounded: a head (the first half of the budget) kept as it came and a
 * tail ring (the last half) that drops its oldest bytes, whole turns first.  Each turn costs its
 * bytes plus kTurnCost toward its part's budget.  Every change is ordered so that a dump from a
 * signal handler at any instant sees only correctly attributed bytes: each turn's side, offset
 * and length are its own fields; bytes are copied before a length covers them, and a turn is
 * shortened or dropped before its bytes are overwritten (compiler fences between the steps). */
struct Turn {  // trivial: a slot is written whole before the count that covers it
    unsigned long long t_us;  // when its first byte passed, since registerInteraction()
    unsigned long long off;   // its first kept byte: head offset, or tail ring position
    unsigned long long len;
    unsigned char who;        // 'S' solver->judge (read), 'J' judge->solver (written)
    bool cont;                // tail: the rest of a turn whose start is in the head
};

static const size_t kTurnCost = 16;

#define IBENCH_TL_FENCE() __atomic_signal_fence(__ATOMIC_SEQ_CST)

struct TurnLog {
    char* hbuf = nullptr;
    Turn* hturn = nullptr;
    size_t hcap = 0, hmax = 0, hbytes = 0;
    size_t hn = 0;
    bool hclosed = false;
    char* tbuf = nullptr;
    Turn* tturn = nullptr;
    size_t tcap = 0, tmax = 0, tbytes = 0;
    unsigned long long tfirst = 0, tend = 0;  // kept tail turns: [tfirst, tend)
    unsigned long long twpos = 0;             // ring position of the next byte
    int last = -1;                            // side of the latest turn
    bool lastInTail = false;
    unsigned long long lastT = 0;
    unsigned long long cutBytes = 0, cutTurns = 0, totalBytes = 0, totalTurns = 0;
    struct timespec t0 = {0, 0};

    void init(size_t cap) {
        hcap = cap / 2;
        tcap = cap - hcap;
        hmax = hcap / kTurnCost;
        tmax = tcap / kTurnCost;
        hbuf = static_cast<char*>(std::malloc(hcap));
        tbuf = static_cast<char*>(std::malloc(tcap));
        // malloc, not calloc: pages are touched only as turns come (a short case stays cheap)
        hturn = static_cast<Turn*>(std::malloc((hmax ? hmax : 1) * sizeof(Turn)));
        tturn = static_cast<Turn*>(std::malloc((tmax ? tmax : 1) * sizeof(Turn)));
        if (!hbuf || !tbuf || !hturn || !tturn) hcap = tcap = hmax = tmax = 0;
        hclosed = hmax == 0;
#ifdef IBENCH_TL_POSIX
        ::clock_gettime(CLOCK_MONOTONIC, &t0);
#endif
    }

    unsigned long long nowUs() const {
#ifdef IBENCH_TL_POSIX
        struct timespec t;
        ::clock_gettime(CLOCK_MONOTONIC, &t);
        long long us = (long long)(t.tv_sec - t0.tv_sec) * 1000000LL + (t.tv_nsec - t0.tv_nsec) / 1000;
        return us > 0 ? (unsigned long long)us : 0;
#else
        return 0;
#endif
    }

    /* Bytes of a turn into the head; how many fit (0 and the head closes when none). */
    size_t headAppend(unsigned char who, unsigned long long t, const char* p, size_t n, bool newTurn) {
        if (hclosed) return 0;
        if (newTurn) {
            if (hn >= hmax || hbytes + kTurnCost * (hn + 1) + 1 > hcap) {
                hclosed = true;
                return 0;
            }
            Turn& d = hturn[hn];
            d.t_us = t;
            d.off = hbytes;
            d.len = 0;
            d.who = who;
            d.cont = false;
            IBENCH_TL_FENCE();
            hn++;
            IBENCH_TL_FENCE();
        }
        size_t room = hcap - hbytes - kTurnCost * hn;
        size_t k = std::min(n, room);
        std::memcpy(hbuf + hbytes, p, k);
        IBENCH_TL_FENCE();
        hturn[hn - 1].len += k;
        IBENCH_TL_FENCE();
        hbytes += k;
        if (k < n) hclosed = true;
        return k;
    }

    size_t tailUsed() const { return tbytes + kTurnCost * size_t(tend - tfirst); }

    /* Free `need` of the tail's budget: trim the oldest turn's front, or drop it whole; the
     * turn being extended (the latest) is only ever trimmed. */
    void tailMakeRoom(size_t need, bool extending) {
        while (tailUsed() + need > tcap && tend > tfirst) {
            size_t over = tailUsed() + need - tcap;
            Turn& f = tturn[tfirst % tmax];
            bool latest = tfirst + 1 == tend;
            if (f.len > over || (latest && extending)) {
                size_t k = size_t(std::min<unsigned long long>(over, f.len));
                f.len -= k;
                IBENCH_TL_FENCE();
                f.off += k;
                IBENCH_TL_FENCE();
                tbytes -= k;
                cutBytes += k;
                if (latest && extending) break;
            } else {
                size_t len = size_t(f.len);
                bool cont = f.cont;
                tfirst++;
                IBENCH_TL_FENCE();
                tbytes -= len;
                cutBytes += len;
                if (!cont) cutTurns++;
            }
        }
    }

    void tailAppend(unsigned char who, unsigned long long t, const char* p, size_t n, bool newRecord, bool cont) {
        if (tmax < 2) {
            cutBytes += n;
            if (newRecord && !cont) cutTurns++;
            return;
        }
        size_t maxPay = tcap - kTurnCost;
        if (n > maxPay) {  // only its last bytes can stay: skip the rest without copying it
            cutBytes += n - maxPay;
            p += n - maxPay;
            n = maxPay;
        }
        if (newRecord) {
            tailMakeRoom(n + kTurnCost, false);
            Turn& d = tturn[tend % tmax];
            d.t_us = t;
            d.off = twpos;
            d.len = 0;
            d.who = who;
            d.cont = cont;
            IBENCH_TL_FENCE();
            tend++;
            IBENCH_TL_FENCE();
        } else {
            tailMakeRoom(n, true);
        }
        size_t i = size_t(twpos % tcap);
        size_t first = std::min(n, tcap - i);
        std::memcpy(tbuf + i, p, first);
        if (n > first) std::memcpy(tbuf, p + first, n - first);
        IBENCH_TL_FENCE();
        tturn[(tend - 1) % tmax].len += n;
        IBENCH_TL_FENCE();
        twpos += n;
        tbytes += n;
    }

    /* One read (who 'S') or write ('J') of the interactor; a change of side starts a turn. */
    void record(unsigned char who, const char* p, size_t n) {
        if (n == 0) return;
        totalBytes += n;
        bool newTurn = int(who) != last;
        if (newTurn) {
            last = who;
            lastT = nowUs();
            totalTurns++;
        }
        if (!hclosed) {
            size_t k = headAppend(who, lastT, p, n, newTurn);
            if (k == n) return;
            tailAppend(who, lastT, p + k, n - k, true, k > 0 || !newTurn);
            lastInTail = true;
            return;
        }
        tailAppend(who, lastT, p, n, newTurn || !lastInTail, false);
        lastInTail = true;
    }
};

struct Transcript {
    bool active = false;
    char path[4096] = {0};
    TurnLog log;
    Ring toJudge;   // solver -> judge
    Ring toSolver;  // judge -> solver
#ifdef IBENCH_TL_TRANSCRIPT
    FILE* ckOut = nullptr;
    FILE* origOut = nullptr;  // glibc's own streams, restored when a recording stream is closed
    FILE* origIn = nullptr;
    FILE* ckIn = nullptr;
    std::streambuf* coutBuf = nullptr;
    std::streambuf* cinBuf = nullptr;
#endif
};

inline Transcript& transcript() {
    static Transcript* t = new Transcript();  // never destroyed: usable during exit and in signals
    return *t;
}

#ifdef IBENCH_TL_POSIX
/* Async-signal-safe: open + write only. */
inline void writeAllFd(int fd, const char* p, size_t n) {
    while (n > 0) {
        ssize_t w = ::write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return;
        }
        p += w;
        n -= size_t(w);
    }
}

/* The dump's output through a stack buffer (async-signal-safe). */
struct DumpOut {
    int fd;
    size_t n = 0;
    char buf[4096];
    explicit DumpOut(int f) : fd(f) {}
    void put(const char* p, size_t k) {
        if (n + k > sizeof buf) {
            writeAllFd(fd, buf, n);
            n = 0;
            if (k > sizeof buf) {
                writeAllFd(fd, p, k);
                return;
            }
        }
        std::memcpy(buf + n, p, k);
        n += k;
    }
    /* A record header: kind, a 64-bit and a 32-bit field, little-endian. */
    void header(char kind, unsigned long long a, unsigned long long b) {
        char h[13];
        h[0] = kind;
        for (int i = 0; i < 8; i++) h[1 + i] = char((a >> (8 * i)) & 0xff);
        unsigned long long c = std::min<unsigned long long>(b, 0xffffffffULL);
        for (int i = 0; i < 4; i++) h[9 + i] = char((c >> (8 * i)) & 0xff);
        put(h, sizeof h);
    }
    void flush() {
        writeAllFd(fd, buf, n);
        n = 0;
    }
};

/* The transcript file: "IBTR2\n", a u32 count of records, their 13-byte headers (kind; u64;
 * u32), then the payloads of those that have one, in the same order: 'S'/'J' a turn (t_us;
 * byte count; the bytes), 'C' what the tail dropped (bytes; whole turns; none), 's'/'j' the
 * last bytes of solver->judge / judge->solver (all bytes of that direction; byte count; the
 * bytes), 'E' the end (all bytes; all turns; none).  Whose bytes are whose is in the headers
 * the interactor wrote, and lengths delimit the bytes: nothing a solver sends can read back as
 * a header or as a judge turn.  (Headers first: the judge reads the table in one call.)  The
 * state does not change while this runs (the interactor is single-threaded and its signal
 * handlers only dump), so both passes see the same turns. */
inline void dumpTurns(DumpOut& o, const Transcript& t, bool payloads) {
    const TurnLog& L = t.log;
    size_t hn = L.hn;
    for (size_t i = 0; i < hn; i++) {
        const Turn& d = L.hturn[i];
        size_t len = size_t(d.len);
        if (payloads)
            o.put(L.hbuf + d.off, len);
        else
            o.header(char(d.who), d.t_us, len);
    }
    if (!payloads && (L.cutBytes > 0 || L.cutTurns > 0)) o.header('C', L.cutBytes, L.cutTurns);
    for (unsigned long long j = L.tfirst; j < L.tend; j++) {
        const Turn& d = L.tturn[j % L.tmax];
        size_t len = size_t(d.len);
        if (!payloads) {
            o.header(char(d.who), d.t_us, len);
            continue;
        }
        size_t s = size_t(d.off % L.tcap);
        size_t a = std::min(len, L.tcap - s);
        o.put(L.tbuf + s, a);
        if (len > a) o.put(L.tbuf, len - a);
    }
    const Ring* tails[2] = {&t.toJudge, &t.toSolver};
    for (int k = 0; k < 2; k++) {
        const Ring& r = *tails[k];
        size_t len = r.len, st = r.start(), a = std::min(len, r.cap - st);
        if (!payloads) {
            o.header(k == 0 ? 's' : 'j', r.total, len);
            continue;
        }
        if (a > 0) o.put(r.buf + st, a);
        if (len > a) o.put(r.buf, len - a);
    }
    if (!payloads) o.header('E', L.totalBytes, L.totalTurns);
}

inline void dumpTranscriptRaw() {
    Transcript& t = transcript();
    if (!t.active) return;
    int fd = ::open(t.path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    const TurnLog& L = t.log;
    unsigned long long n = L.hn + (L.cutBytes > 0 || L.cutTurns > 0 ? 1 : 0) + (L.tend - L.tfirst) + 3;
    DumpOut o(fd);
    o.put("IBTR2\n", 6);
    char c[4];
    for (int i = 0; i < 4; i++) c[i] = char((n >> (8 * i)) & 0xff);
    o.put(c, 4);
    dumpTurns(o, t, false);
    dumpTurns(o, t, true);
    o.flush();
    ::close(fd);
}
#else
inline void dumpTranscriptRaw() {}
#endif

#ifdef IBENCH_TL_TRANSCRIPT
inline ssize_t cookieRead(void*, char* buf, size_t size) {
    ssize_t n;
    do {
        n = ::read(0, buf, size);
    } while (n < 0 && errno == EINTR);
    if (n > 0) {
        Transcript& t = transcript();
        t.log.record('S', buf, size_t(n));
        t.toJudge.push(buf, size_t(n));
    }
    return n;
}

inline ssize_t cookieWrite(void*, const char* buf, size_t size) {
    Transcript& t = transcript();  // before write(): a dump right after delivery has it
    t.log.record('J', buf, size);
    t.toSolver.push(buf, size);
    size_t done = 0;
    while (done < size) {
        ssize_t w = ::write(1, buf + done, size - done);
        if (w < 0) {
            if (errno == EINTR) continue;
            break;
        }
        done += size_t(w);
    }
    return ssize_t(done);  // fopencookie: 0 means error
}

/* fclose(stdout) / fclose(stdin) on a recording stream (interactors do this to signal the end
 * of the conversation): close the descriptor as a real fclose would, then point stdout/stdin
 * and std::cout/std::cin back at glibc's own (now descriptor-less) streams, because glibc
 * frees the cookie stream as soon as this returns and nothing may keep using it. */
inline int cookieCloseOut(void*) {
    Transcript& t = transcript();
    ::close(1);
    if (t.ckOut == stdout) stdout = t.origOut;
    t.ckOut = nullptr;
    t.coutBuf = new __gnu_cxx::stdio_sync_filebuf<char>(t.origOut);
    std::cout.rdbuf(t.coutBuf);
    return 0;
}

inline int cookieCloseIn(void*) {
    Transcript& t = transcript();
    ::close(0);
    if (t.ckIn == stdin) stdin = t.origIn;
    t.ckIn = nullptr;
    t.cinBuf = new __gnu_cxx::stdio_sync_filebuf<char>(t.origIn);
    std::cin.rdbuf(t.cinBuf);
    return 0;
}

inline int cookieSeek(void*, off64_t*, int) {
    errno = ESPIPE;  // behave like a pipe: fflush() on the input keeps its buffer
    return -1;
}

extern "C" inline void ibenchTranscriptSignal(int sig) {
    dumpTranscriptRaw();
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

/* Point std::cin / std::cout at the recording C streams (also after sync_with_stdio(false)). */
inline void reattachStreams() {
    Transcript& t = transcript();
    if (!t.active) return;
    if (std::cout.rdbuf() != t.coutBuf) {
        std::cout.flush();
        std::cout.rdbuf(t.coutBuf);
    }
    if (std::cin.rdbuf() != t.cinBuf) std::cin.rdbuf(t.cinBuf);
}

inline void installTranscript() {
    Transcript& t = transcript();
    if (t.active) return;
    const char* p = std::getenv("IBENCH_TRANSCRIPT");
    if (p == nullptr || *p == '\0' || std::strlen(p) >= sizeof t.path) return;
    long long cap = 16384;
    if (const char* b = std::getenv("IBENCH_TRANSCRIPT_BYTES")) {
        char* end = nullptr;
        long long v = std::strtoll(b, &end, 10);
        if (end != b && *end == '\0' && v >= 0) cap = v == 0 ? 0 : std::max(64LL, std::min(v, 64LL << 20));
    }
    long long tailCap = 2048;
    if (const char* b = std::getenv("IBENCH_TRANSCRIPT_TAIL_BYTES")) {
        char* end = nullptr;
        long long v = std::strtoll(b, &end, 10);
        if (end != b && *end == '\0' && v >= 0) tailCap = std::min(v, 64LL << 20);
    }
    std::cout.flush();
    std::fflush(stdout);
    cookie_io_functions_t outFns = {nullptr, cookieWrite, nullptr, cookieCloseOut};
    cookie_io_functions_t inFns = {cookieRead, nullptr, cookieSeek, cookieCloseIn};
    FILE* out = fopencookie(nullptr, "w", outFns);
    FILE* in = fopencookie(nullptr, "r", inFns);
    if (out == nullptr || in == nullptr) return;
    // Same buffering as glibc gives fds 0/1: line buffered on a terminal, else fully buffered.
    std::setvbuf(out, nullptr, ::isatty(1) ? _IOLBF : _IOFBF, 4096);
    std::setvbuf(in, nullptr, _IOFBF, 65536);
    // fileno() of a cookie stream is -1; libstdc++'s sync_with_stdio(false) needs a real fd.
    out->_fileno = 1;
    in->_fileno = 0;
    std::strcpy(t.path, p);
    t.log.init(size_t(cap));
    t.toJudge.init(size_t(tailCap));
    t.toSolver.init(size_t(tailCap));
    t.ckOut = out;
    t.ckIn = in;
    t.origOut = stdout;
    t.origIn = stdin;
    stdout = out;
    stdin = in;
    t.coutBuf = new __gnu_cxx::stdio_sync_filebuf<char>(out);
    t.cinBuf = new __gnu_cxx::stdio_sync_filebuf<char>(in);
    t.active = true;
    reattachStreams();
    // Fatal signals still leave a transcript (the default action follows).
    const int sigs[] = {SIGTERM, SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGXCPU, SIGINT};
    for (int s : sigs) {
        struct sigaction old;
        if (::sigaction(s, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;
        struct sigaction sa;
        std::memset(&sa, 0, sizeof sa);
        sa.sa_handler = ibenchTranscriptSignal;
        sigemptyset(&sa.sa_mask);
        ::sigaction(s, &sa, nullptr);
    }
}
#else
inline void reattachStreams() {}
inline void installTranscript() {}
#endif

}  // namespace ibench_tl

/* An interactor that calls ios::sync_with_stdio(false) keeps being recorded. */
inline bool __ibench_sync_with_stdio_hook(bool previous) {
    ibench_tl::reattachStreams();
    return previous;
}

/* ------------------------------------------------------------------------------------------
 * Global state and the quit machinery
 * ---------------------------------------------------------------------------------------- */
inline TTestlibMode testlibMode = _unknown;

namespace ibench_tl {
struct State {
    bool quitCalled = false;
    bool inGuard = false;
    bool guardEnabled = true;
    bool testCaseSet = false;
    int testCase = 0;
    std::string resultName;
    bool appesMode = false;
    std::string pointsValue;
    int validatorReadEof = 0;
    std::string checkerName;
    bool ioFinalized = false;
};
inline State g;

[[noreturn]] inline void quitImpl(TResult result, std::string message, const InStream* stream);
}  // namespace ibench_tl

inline void setTestCase(int testCase) {
    ibench_tl::g.testCaseSet = true;
    ibench_tl::g.testCase = testCase;
}
inline void unsetTestCase() { ibench_tl::g.testCaseSet = false; }

inline void setName(const char* fmt, ...) IBENCH_TL_PRINTF(1, 2);
inline void setName(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ibench_tl::g.checkerName = ibench_tl::vformat(fmt, ap);
    va_end(ap);
}

inline void disableFinalizeGuard() { ibench_tl::g.guardEnabled = false; }

[[noreturn]] inline void __testlib_fail(const std::string& message) {
    ibench_tl::quitImpl(_fail, message, nullptr);
}

/* ------------------------------------------------------------------------------------------
 * Patterns: testlib's small regex dialect ([a-z], {n,m}, ?, *, +, |, (...), \escapes).
 * Matching is greedy per atom (no backtracking), as in testlib.
 * ---------------------------------------------------------------------------------------- */
class pattern;
/* The name newer testlib samples use. */
typedef pattern pattern_t;

class pattern {
public:
    pattern() = default;
    explicit pattern(std::string s);
    std::string next(random_t& rnd) const;
    bool matches(const std::string& s) const { return matchesAt(s, 0); }
    std::string src() const { return source; }

private:
    bool matchesAt(const std::string& s, size_t pos) const;
    static bool isCommand(const std::string& s, size_t pos, char value);
    static char takeChar(const std::string& s, size_t& pos);
    static std::vector<char> scanCharSet(const std::string& s, size_t& pos);
    static void scanCounts(const std::string& s, size_t& pos, int& from, int& to);
    [[noreturn]] static void illegal(const std::string& s) {
        __testlib_fail("pattern: Illegal pattern (or part) \"" + s + "\"");
    }

    std::string source;
    std::vector<pattern> children;  // alternatives, a wrapped group, or the rest of a sequence
    std::vector<char> chars;        // the leading atom's character set (sorted)
    int from = 0;
    int to = 0;  // 0: no atom
};

inline bool pattern::isCommand(const std::string& s, size_t pos, char value) {
    if (pos >= s.size() || s[pos] != value) return false;
    size_t slashes = 0;
    while (slashes < pos && s[pos - 1 - slashes] == '\\') slashes++;
    return slashes % 2 == 0;
}

inline char pattern::takeChar(const std::string& s, size_t& pos) {
    if (s[pos] == '\\' && pos + 1 < s.size()) pos++;
    return s[pos++];
}

inline std::vector<char> pattern::scanCharSet(const std::string& s, size_t& pos) {
    if (pos >= s.size()) illegal(s);
    std::vector<char> set;
    if (!isCommand(s, pos, '[')) {
        set.push_back(takeChar(s, pos));
        return set;
    }
    pos++;
    bool negative = isCommand(s, pos, '^');
    if (negative) pos++;
    bool havePrev = false;
    char prev = 0;
    while (pos < s.size() && !isCommand(s, pos, ']')) {
        if (havePrev && isCommand(s, pos, '-')) {
            pos++;
            if (pos >= s.size() || pos + 1 == s.size() || isCommand(s, pos, ']')) {
                set.push_back(prev);  // a trailing '-' is literal
                prev = '-';
                continue;
            }
            char last = takeChar(s, pos);
            if (last < prev) illegal(s);
            for (int c = prev; c <= last; c++) set.push_back(char(c));
            havePrev = false;
        } else {
            if (havePrev) set.push_back(prev);
            prev = takeChar(s, pos);
            havePrev = true;
        }
    }
    if (havePrev) set.push_back(prev);
    if (!isCommand(s, pos, ']')) illegal(s);
    pos++;
    if (negative) {
        std::sort(set.begin(), set.end());
        std::vector<char> rest;
        for (int code = 0; code < 255; code++)
            if (!std::binary_search(set.begin(), set.end(), char(code))) rest.push_back(char(code));
        set.swap(rest);
    }
    std::sort(set.begin(), set.end());
    return set;
}

inline void pattern::scanCounts(const std::string& s, size_t& pos, int& from, int& to) {
    from = to = 1;
    if (pos >= s.size()) return;
    if (isCommand(s, pos, '?')) {
        from = 0, to = 1, pos++;
    } else if (isCommand(s, pos, '*')) {
        from = 0, to = INT_MAX, pos++;
    } else if (isCommand(s, pos, '+')) {
        from = 1, to = INT_MAX, pos++;
    } else if (isCommand(s, pos, '{')) {
        pos++;
        std::vector<std::string> parts(1);
        while (pos < s.size() && !isCommand(s, pos, '}')) {
            if (isCommand(s, pos, ','))
                parts.emplace_back(), pos++;
            else
                parts.back() += takeChar(s, pos);
        }
        if (!isCommand(s, pos, '}')) illegal(s);
        pos++;
        if (parts.size() > 2) illegal(s);
        std::vector<int> nums;
        for (const std::string& part : parts) {
            if (part.empty() || part.size() > 9) illegal(s);
            for (char c : part)
                if (!std::isdigit((unsigned char)c)) illegal(s);
            nums.push_back(std::atoi(part.c_str()));
        }
        from = nums[0];
        to = nums.size() == 2 ? nums[1] : nums[0];
        if (from > to) illegal(s);
    }
}

inline pattern::pattern(std::string s) {
    std::string t;
    for (size_t i = 0; i < s.size(); i++)
        if (!isCommand(s, i, ' ')) t += s[i];
    s.swap(t);
    source = s;

    int depth = 0, firstClose = -1;
    std::vector<int> seps;
    for (size_t i = 0; i < s.size(); i++) {
        if (isCommand(s, i, '(')) {
            depth++;
            continue;
        }
        if (isCommand(s, i, ')')) {
            depth--;
            if (depth == 0 && firstClose == -1) firstClose = int(i);
            continue;
        }
        if (depth < 0) illegal(s);
        if (depth == 0 && isCommand(s, i, '|')) seps.push_back(int(i));
    }
    if (depth != 0) illegal(s);

    if (seps.empty() && !s.empty() && firstClose + 1 == int(s.size()) && isCommand(s, 0, '(') &&
        isCommand(s, s.size() - 1, ')')) {
        children.push_back(pattern(s.substr(1, s.size() - 2)));
    } else if (!seps.empty()) {
        seps.push_back(int(s.size()));
        int last = 0;
        for (int sep : seps) {
            children.push_back(pattern(s.substr(size_t(last), size_t(sep - last))));
            last = sep + 1;
        }
    } else if (!s.empty()) {
        size_t pos = 0;
        chars = scanCharSet(s, pos);
        scanCounts(s, pos, from, to);
        if (pos < s.size()) children.push_back(pattern(s.substr(pos)));
    }
    source = s;
}

inline bool pattern::matchesAt(const std::string& s, size_t pos) const {
    if (to > 0) {
        size_t run = 0;
        while (pos + run < s.size() && std::binary_search(chars.begin(), chars.end(), s[pos + run])) run++;
        if (run < size_t(from)) return false;
        if (run > size_t(to)) run = size_t(to);
        pos += run;
    }
    if (children.empty()) return pos == s.size();
    for (const pattern& child : children)
        if (child.matchesAt(s, pos)) return true;
    return false;
}

/* ------------------------------------------------------------------------------------------
 * random_t: Java's 48-bit LCG, bit-exact with testlib.
 * ---------------------------------------------------------------------------------------- */
class random_t {
    unsigned long long seed;
    static constexpr unsigned long long multiplier = 0x5DEECE66DULL;
    static constexpr unsigned long long addend = 0xBULL;
    static constexpr unsigned long long mask = (1ULL << 48) - 1;
    static constexpr int lim = 25;

    long long nextBits(int bits) {
        if (bits <= 48) {
            seed = (seed * multiplier + addend) & mask;
            return (long long)(seed >> (48 - bits));
        }
        if (bits > 63) __testlib_fail("random_t::nextBits(int bits): n must be less than 64");
        int lowerBitCount = (random_t::version == 0 ? 31 : 32);
        long long left = (nextBits(31) << 32);
        long long right = nextBits(lowerBitCount);
        return left ^ right;
    }

    static double crop(double value, double a, double b) {
        value = std::min(std::max(value, a), b);
        if (value >= b) value = std::nexttoward(b, a);
        return value;
    }

public:
    static inline int version = -1;

    random_t() : seed(3905348978240129619ULL) {}

    void setSeed(int argc, char* argv[]) {
        seed = 3905348978240129619ULL;
        for (int i = 1; i < argc; i++) {
            size_t len = std::strlen(argv[i]);
            for (size_t j = 0; j < len; j++)
                seed = seed * multiplier + (unsigned int)(argv[i][j]) + addend;
            seed += multiplier / addend;
        }
        seed &= mask;
    }

    void setSeed(long long s) { seed = ((unsigned long long)s ^ multiplier) & mask; }

    /* [0, n) */
    int next(int n) {
        if (n <= 0) __testlib_fail("random_t::next(int n): n must be positive");
        if ((n & -n) == n) return int(((long long)n * nextBits(31)) >> 31);
        const long long limit = INT_MAX / n * n;
        long long bits;
        do {
            bits = nextBits(31);
        } while (bits >= limit);
        return int(bits % n);
    }

    unsigned int next(unsigned int n) {
        if (n >= (unsigned int)INT_MAX) __testlib_fail("random_t::next(unsigned int n): n must be less INT_MAX");
        return (unsigned int)next(int(n));
    }

    long long next(long long n) {
        if (n <= 0) __testlib_fail("random_t::next(long long n): n must be positive");
        const long long limit = __TESTLIB_LONGLONG_MAX / n * n;
        long long bits;
        do {
            bits = nextBits(63);
        } while (bits >= limit);
        return bits % n;
    }

    unsigned long long next(unsigned long long n) {
        if (n >= (unsigned long long)__TESTLIB_LONGLONG_MAX)
            __testlib_fail("random_t::next(unsigned long long n): n must be less LONGLONG_MAX");
        return (unsigned long long)next((long long)n);
    }

    long next(long n) { return (long)next((long long)n); }

    unsigned long next(unsigned long n) {
        if (n >= (unsigned long)__TESTLIB_LONGLONG_MAX)
            __testlib_fail("random_t::next(unsigned long n): n must be less LONGLONG_MAX");
        return (unsigned long)next((unsigned long long)n);
    }

    /* [from, to] -- always 63-bit draws */
    int next(int from, int to) { return int(next((long long)to - from + 1) + from); }
    unsigned int next(unsigned int from, unsigned int to) {
        return (unsigned int)(next((long long)to - from + 1) + from);
    }
    long long next(long long from, long long to) { return next(to - from + 1) + from; }
    unsigned long long next(unsigned long long from, unsigned long long to) {
        if (from > to) __testlib_fail("random_t::next(unsigned long long from, unsigned long long to): from can't not exceed to");
        return next(to - from + 1) + from;
    }
    long next(long from, long to) { return next(to - from + 1) + from; }
    unsigned long next(unsigned long from, unsigned long to) {
        if (from > to) __testlib_fail("random_t::next(unsigned long from, unsigned long to): from can't not exceed to");
        return next(to - from + 1) + from;
    }

    /* Mixed argument types (e.g. next(1, n) with long long n): the common type. */
    template <typename A, typename B,
              typename std::enable_if<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value &&
                                          !std::is_same<A, B>::value, int>::type = 0>
    typename std::common_type<A, B>::type next(A from, B to) {
        using C = typename std::common_type<A, B>::type;
        using D = typename std::conditional<std::is_floating_point<C>::value, double,
                  typename std::conditional<(sizeof(C) <= sizeof(int)),
                      typename std::conditional<std::is_signed<C>::value, int, unsigned int>::type,
                      typename std::conditional<std::is_signed<C>::value, long long, unsigned long long>::type>::type>::type;
        return C(next(D(from), D(to)));
    }

    /* [0, 1) */
    double next() {
        long long left = ((long long)nextBits(26) << 27);
        long long right = nextBits(27);
        return crop((double)(left + right) / (double)(1LL << 53), 0.0, 1.0);
    }

    double next(double n) {
        if (n <= 0.0) __testlib_fail("random_t::next(double): n should be positive");
        return crop(n * next(), 0.0, n);
    }

    double next(double from, double to) {
        if (from >= to) __testlib_fail("random_t::next(double from, double to): from should be strictly less than to");
        return next(to - from) + from;
    }

    /* Random string by pattern, e.g. next("[a-z]{1,%d}", n). */
    std::string next(const std::string& ptrn) { return pattern(ptrn).next(*this); }

    std::string next(const char* fmt, ...) IBENCH_TL_PRINTF(2, 3) {
        va_list ap;
        va_start(ap, fmt);
        std::string p = ibench_tl::vformat(fmt, ap);
        va_end(ap);
        return next(p);
    }

    template <typename Container> typename Container::value_type any(const Container& c) {
        int size = int(c.size());
        if (size <= 0) __testlib_fail("random_t::any(const Container& c): c.size() must be positive");
        return *std::next(c.begin(), next(size));
    }

    template <typename Iter> typename std::iterator_traits<Iter>::value_type any(const Iter& begin, const Iter& end) {
        int size = int(std::distance(begin, end));
        if (size <= 0) __testlib_fail("random_t::any(const Iter& begin, const Iter& end): range must have positive length");
        return *std::next(begin, next(size));
    }

    /* Weighted: type > 0 is the max of type+1 draws, type < 0 the min of -type+1 draws. */
    int wnext(int n, int type) {
        if (n <= 0) __testlib_fail("random_t::wnext(int n, int type): n must be positive");
        if (std::abs(type) < lim) {
            int result = next(n);
            for (int i = 0; i < +type; i++) result = std::max(result, next(n));
            for (int i = 0; i < -type; i++) result = std::min(result, next(n));
            return result;
        }
        double p;
        if (type > 0)
            p = std::pow(next() + 0.0, 1.0 / (type + 1));
        else
            p = 1 - std::pow(next() + 0.0, 1.0 / (-type + 1));
        return std::min(std::max(int(double(n) * p), 0), n - 1);
    }

    long long wnext(long long n, int type) {
        if (n <= 0) __testlib_fail("random_t::wnext(long long n, int type): n must be positive");
        if (std::abs(type) < lim) {
            long long result = next(n);
            for (int i = 0; i < +type; i++) result = std::max(result, next(n));
            for (int i = 0; i < -type; i++) result = std::min(result, next(n));
            return result;
        }
        double p;
        if (type > 0)
            p = std::pow(next() + 0.0, 1.0 / (type + 1));
        else
            p = 1 - std::pow(next() + 0.0, 1.0 / (-type + 1));
        return std::min(std::max((long long)(double(n) * p), 0LL), n - 1);
    }

    double wnext(double n, int type) {
        if (n <= 0) __testlib_fail("random_t::wnext(double n, int type): n must be positive");
        if (std::abs(type) < lim) {
            double result = next();
            for (int i = 0; i < +type; i++) result = std::max(result, next());
            for (int i = 0; i < -type; i++) result = std::min(result, next());
            return n * result;
        }
        double p;
        if (type > 0)
            p = std::pow(next() + 0.0, 1.0 / (type + 1));
        else
            p = 1 - std::pow(next() + 0.0, 1.0 / (-type + 1));
        return crop(n * p, 0.0, n);
    }

    unsigned int wnext(unsigned int n, int type) {
        if (n >= (unsigned int)INT_MAX) __testlib_fail("random_t::wnext(unsigned int n, int type): n must be less INT_MAX");
        return (unsigned int)wnext(int(n), type);
    }
    unsigned long long wnext(unsigned long long n, int type) {
        if (n >= (unsigned long long)__TESTLIB_LONGLONG_MAX)
            __testlib_fail("random_t::wnext(unsigned long long n, int type): n must be less LONGLONG_MAX");
        return (unsigned long long)wnext((long long)n, type);
    }
    long wnext(long n, int type) { return (long)wnext((long long)n, type); }
    unsigned long wnext(unsigned long n, int type) {
        if (n >= (unsigned long)__TESTLIB_LONGLONG_MAX)
            __testlib_fail("random_t::wnext(unsigned long n, int type): n must be less LONGLONG_MAX");
        return (unsigned long)wnext((unsigned long long)n, type);
    }

    int wnext(int from, int to, int type) {
        if (from > to) __testlib_fail("random_t::wnext(int from, int to, int type): from can't not exceed to");
        return wnext(to - from + 1, type) + from;
    }
    int wnext(unsigned int from, unsigned int to, int type) {
        if (from > to) __testlib_fail("random_t::wnext(unsigned int from, unsigned int to, int type): from can't not exceed to");
        return int(wnext(to - from + 1, type) + from);
    }
    long long wnext(long long from, long long to, int type) {
        if (from > to) __testlib_fail("random_t::wnext(long long from, long long to, int type): from can't not exceed to");
        return wnext(to - from + 1, type) + from;
    }
    unsigned long long wnext(unsigned long long from, unsigned long long to, int type) {
        if (from > to) __testlib_fail("random_t::wnext(unsigned long long from, unsigned long long to, int type): from can't not exceed to");
        return wnext(to - from + 1, type) + from;
    }
    long wnext(long from, long to, int type) {
        if (from > to) __testlib_fail("random_t::wnext(long from, long to, int type): from can't not exceed to");
        return wnext(to - from + 1, type) + from;
    }
    unsigned long wnext(unsigned long from, unsigned long to, int type) {
        if (from > to) __testlib_fail("random_t::wnext(unsigned long from, unsigned long to, int type): from can't not exceed to");
        return wnext(to - from + 1, type) + from;
    }
    double wnext(double from, double to, int type) {
        if (from >= to) __testlib_fail("random_t::wnext(double from, double to, int type): from should be strictly less than to");
        return wnext(to - from, type) + from;
    }
    template <typename A, typename B,
              typename std::enable_if<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value &&
                                          !std::is_same<A, B>::value, int>::type = 0>
    typename std::common_type<A, B>::type wnext(A from, B to, int type) {
        using C = typename std::common_type<A, B>::type;
        using D = typename std::conditional<std::is_floating_point<C>::value, double,
                  typename std::conditional<(sizeof(C) <= sizeof(int)),
                      typename std::conditional<std::is_signed<C>::value, int, unsigned int>::type,
                      typename std::conditional<std::is_signed<C>::value, long long, unsigned long long>::type>::type>::type;
        return C(wnext(D(from), D(to), type));
    }

    template <typename Container> typename Container::value_type wany(const Container& c, int type) {
        int size = int(c.size());
        if (size <= 0) __testlib_fail("random_t::wany(const Container& c, int type): c.size() must be positive");
        return *std::next(c.begin(), wnext(size, type));
    }

    template <typename Iter>
    typename std::iterator_traits<Iter>::value_type wany(const Iter& begin, const Iter& end, int type) {
        int size = int(std::distance(begin, end));
        if (size <= 0) __testlib_fail("random_t::wany(const Iter& begin, const Iter& end, int type): range must have positive length");
        return *std::next(begin, wnext(size, type));
    }

    /* Identity, then i = 1..n-1: swap(p[i], p[next(i + 1)]). */
    template <typename T, typename E> std::vector<E> perm(T size, E first) {
        if (size < 0) __testlib_fail("random_t::perm(T size, E first = 0): size must non-negative");
        std::vector<E> p;
        if (size == 0) return p;
        p.resize(size_t(size));
        E current = first;
        for (T i = 0; i < size; i++) p[size_t(i)] = current++;
        if (size > 1)
            for (T i = 1; i < size; i++) std::swap(p[size_t(i)], p[size_t(next(i + 1))]);
        return p;
    }

    template <typename T> std::vector<T> perm(T size) { return perm(size, T(0)); }

    template <typename RandomAccessIter> void shuffle(RandomAccessIter first, RandomAccessIter last) {
        if (first == last) return;
        for (RandomAccessIter i = first + 1; i != last; ++i) std::iter_swap(i, first + next(int(i - first) + 1));
    }

    /* size distinct values of [from, to], in draw order. */
    template <typename T> std::vector<T> distinct(int size, T from, T to) {
        std::vector<T> result;
        if (size == 0) return result;
        if (from > to) __testlib_fail("random_t::distinct expected from <= to");
        if (size < 0) __testlib_fail("random_t::distinct expected size >= 0");
        uint64_t n = uint64_t(to) - uint64_t(from) + 1;
        if (uint64_t(size) > n) __testlib_fail("random_t::distinct expected size <= to - from + 1");
        double expected = 0.0;
        for (int i = 1; i <= size; i++) expected += double(n) / double(n - uint64_t(i) + 1);
        if (expected < double(n)) {
            std::set<T> seen;
            while (int(seen.size()) < size) {
                T x = T(next(from, to));
                if (seen.insert(x).second) result.push_back(x);
            }
        } else {
            if (n > 1000000000) __testlib_fail("random_t::distinct here expected to - from + 1 <= 1000000000");
            std::vector<T> p(perm(int(n), from));
            result.insert(result.end(), p.begin(), p.begin() + size);
        }
        return result;
    }

    template <typename T> std::vector<T> distinct(int size, T upper) {
        if (size < 0) __testlib_fail("random_t::distinct expected size >= 0");
        if (size == 0) return std::vector<T>();
        if (upper <= 0) __testlib_fail("random_t::distinct expected upper > 0");
        if (size > upper) __testlib_fail("random_t::distinct expected size <= upper");
        return distinct(size, T(0), upper - 1);
    }

    /* size parts, each >= min_part, summing to sum. */
    template <typename T> std::vector<T> partition(int size, T sum, T min_part) {
        if (size < 0) __testlib_fail("random_t::partition: size < 0");
        if (size == 0 && sum == 0) return std::vector<T>();
        if (size == 0) __testlib_fail("random_t::partition: size == 0 && sum != 0");
        if (min_part * size > sum)
            __testlib_fail("random_t::partition: min_part * size > sum");
        T total = sum;
        sum -= min_part * size;
        std::vector<T> cuts(static_cast<size_t>(size));
        std::vector<T> d = distinct(size - 1, T(1), T(sum + size - 1));
        for (int i = 0; i + 1 < size; i++) cuts[size_t(i) + 1] = d[size_t(i)];
        std::sort(cuts.begin(), cuts.end());
        std::vector<T> result(static_cast<size_t>(size));
        for (int i = 0; i + 1 < size; i++) result[size_t(i)] = cuts[size_t(i) + 1] - cuts[size_t(i)] - 1;
        result[size_t(size) - 1] = sum + size - 1 - cuts.back();
        T check = 0;
        for (T& x : result) {
            x += min_part;
            check += x;
        }
        if (check != total) __testlib_fail("random_t::partition: partition sum is expected to be the given sum");
        return result;
    }

    template <typename T> std::vector<T> partition(int size, T sum) { return partition(size, sum, T(1)); }
};

inline std::string pattern::next(random_t& rnd) const {
    std::string result;
    if (to == INT_MAX) __testlib_fail("pattern::next(random_t& rnd): can't process character '*' for generation");
    if (to > 0) {
        int count = rnd.next(to - from + 1) + from;
        for (int i = 0; i < count; i++) result += chars[size_t(rnd.next(int(chars.size())))];
    }
    if (!children.empty()) result += children[size_t(rnd.next(int(children.size())))].next(rnd);
    return result;
}

inline random_t rnd;

template <typename RandomAccessIter> void shuffle(RandomAccessIter first, RandomAccessIter last) {
    if (first == last) return;
    for (RandomAccessIter i = first + 1; i != last; ++i) std::iter_swap(i, first + rnd.next(int(i - first) + 1));
}

/* ------------------------------------------------------------------------------------------
 * InStream
 * ---------------------------------------------------------------------------------------- */
class InStream {
public:
    static constexpr int NO_INDEX = INT_MAX;

    std::string name = "unopened stream";
    TMode mode = _input;
    bool opened = false;
    bool stdfile = false;
    bool strict = false;
    int readManyIteration = NO_INDEX;
    /* Most blanks a token may be preceded by (negative: no bound). An interactor sets it so that
     * a participant streaming whitespace is stopped with PE instead of being read forever. */
    int maxBlankCount = -1;

    InStream() = default;
    InStream(const InStream&) = delete;
    /* A stream over a string (say, one token of the participant's output), read under the rules
     * of `base`: the same mode and strictness, so its errors are charged as base's would be. */
    InStream(const InStream& base, std::string content);
    InStream& operator=(const InStream&) = delete;
    ~InStream() {
        if (file_ != nullptr && !stdfile) std::fclose(file_);
    }

    /* Opens a file stream; a missing file is PE for the output, FAIL otherwise. */
    void init(const std::string& fileName, TMode streamMode);
    /* Reads the process stdin (interactor's ouf, validator's inf). */
    void initStdin(TMode streamMode, bool strictMode);
    void markUnopened(const std::string& streamName, TMode streamMode) {
        name = streamName;
        mode = streamMode;
        opened = false;
    }

    int lineNumber() const { return line_; }
    /* Line where the latest read began (reported by validators). */
    int lastLine() const { return lastLine_; }

    /* Characters */
    char curChar() { return opened ? char(peekc()) : EOFC; }
    char nextChar() { return readChar(); }
    char readChar() {
        ensureOpened();
        lastLine_ = line_;
        return char(getcx());
    }
    char readChar(char c);
    char readSpace() { return readChar(' '); }
    void unreadChar(char c) {
        ensureOpened();
        ungetcx((unsigned char)c);
    }
    void skipChar() {
        ensureOpened();
        getcx();
    }
    void skipBlanks() {
        if (!opened) return;
        long long blanks = 0;
        while (ibench_tl::isBlank(peekc())) {
            getcx();
            if (maxBlankCount >= 0 && ++blanks > maxBlankCount)
                quit(_pe, "Too many white-space characters: more than " + vtos(maxBlankCount) + " in a row");
        }
    }

    /* Positions */
    bool eof() {
        if (!opened) return !strict;
        return peekc() == EOF;
    }
    bool seekEof() {
        if (!opened) return true;
        skipBlanks();
        return eof();
    }
    bool eoln();
    bool seekEoln() {
        if (!opened) return true;
        int c;
        while ((c = peekc()) == ' ' || c == '\t') getcx();
        return eoln();
    }
    void nextLine() { readLine(); }
    void readEoln() {
        if (!eoln()) quit(_pe, "Expected EOLN");
    }
    void readEof();

    /* Tokens */
    std::string readWord() {
        std::string s;
        readWordTo(s);
        return s;
    }
    std::string readToken() { return readWord(); }
    std::string readWord(const std::string& ptrn, const std::string& variableName = "") {
        return readWord(pattern(ptrn), variableName);
    }
    std::string readWord(const pattern& p, const std::string& variableName = "") {
        std::string s;
        readWordTo(s, p, variableName);
        return s;
    }
    std::string readToken(const std::string& ptrn, const std::string& variableName = "") {
        return readWord(ptrn, variableName);
    }
    std::string readToken(const pattern& p, const std::string& variableName = "") { return readWord(p, variableName); }
    void readWordTo(std::string& result);
    void readWordTo(std::string& result, const pattern& p, const std::string& variableName = "") {
        readWordTo(result);
        checkPattern(result, p, variableName, "Token");
    }
    void readWordTo(std::string& result, const std::string& ptrn, const std::string& variableName = "") {
        readWordTo(result, pattern(ptrn), variableName);
    }
    void readTokenTo(std::string& result) { readWordTo(result); }
    void readTokenTo(std::string& result, const pattern& p, const std::string& variableName = "") {
        readWordTo(result, p, variableName);
    }
    void readTokenTo(std::string& result, const std::string& ptrn, const std::string& variableName = "") {
        readWordTo(result, ptrn, variableName);
    }

    std::vector<std::string> readWords(int size, const std::string& ptrn, const std::string& variablesName = "",
                                       int indexBase = 1) {
        pattern p(ptrn);
        return readMany<std::string>(size, indexBase, true, [&] { return readWord(p, variablesName); });
    }
    std::vector<std::string> readWords(int size, const pattern& p, const std::string& variablesName = "",
                                       int indexBase = 1) {
        return readMany<std::string>(size, indexBase, true, [&] { return readWord(p, variablesName); });
    }
    std::vector<std::string> readWords(int size, int indexBase = 1) {
        return readMany<std::string>(size, indexBase, true, [&] { return readWord(); });
    }
    std::vector<std::string> readTokens(int size, const std::string& ptrn, const std::string& variablesName = "",
                                        int indexBase = 1) {
        return readWords(size, ptrn, variablesName, indexBase);
    }
    std::vector<std::string> readTokens(int size, const pattern& p, const std::string& variablesName = "",
                                        int indexBase = 1) {
        return readWords(size, p, variablesName, indexBase);
    }
    std::vector<std::string> readTokens(int size, int indexBase = 1) { return readWords(size, indexBase); }

    /* Integers */
    int readInt();
    int readInt(int minv, int maxv, const std::string& variableName = "");
    int readInteger() { return readInt(); }
    int readInteger(int minv, int maxv, const std::string& variableName = "") {
        return readInt(minv, maxv, variableName);
    }
    long long readLong();
    long long readLong(long long minv, long long maxv, const std::string& variableName = "");
    unsigned long long readUnsignedLong();
    unsigned long long readUnsignedLong(unsigned long long minv, unsigned long long maxv,
                                        const std::string& variableName = "");

    std::vector<int> readInts(int size, int minv, int maxv, const std::string& variablesName = "", int indexBase = 1) {
        return readMany<int>(size, indexBase, true, [&] { return readInt(minv, maxv, variablesName); });
    }
    std::vector<int> readInts(int size, int indexBase = 1) {
        return readMany<int>(size, indexBase, true, [&] { return readInt(); });
    }
    std::vector<int> readIntegers(int size, int minv, int maxv, const std::string& variablesName = "",
                                  int indexBase = 1) {
        return readInts(size, minv, maxv, variablesName, indexBase);
    }
    std::vector<int> readIntegers(int size, int indexBase = 1) { return readInts(size, indexBase); }
    std::vector<long long> readLongs(int size, long long minv, long long maxv, const std::string& variablesName = "",
                                     int indexBase = 1) {
        return readMany<long long>(size, indexBase, true, [&] { return readLong(minv, maxv, variablesName); });
    }
    std::vector<long long> readLongs(int size, int indexBase = 1) {
        return readMany<long long>(size, indexBase, true, [&] { return readLong(); });
    }
    std::vector<unsigned long long> readUnsignedLongs(int size, unsigned long long minv, unsigned long long maxv,
                                                      const std::string& variablesName = "", int indexBase = 1) {
        return readMany<unsigned long long>(size, indexBase, true,
                                            [&] { return readUnsignedLong(minv, maxv, variablesName); });
    }
    std::vector<unsigned long long> readUnsignedLongs(int size, int indexBase = 1) {
        return readMany<unsigned long long>(size, indexBase, true, [&] { return readUnsignedLong(); });
    }

    /* Reals */
    double readDouble();
    double readDouble(double minv, double maxv, const std::string& variableName = "");
    double readReal() { return readDouble(); }
    double readReal(double minv, double maxv, const std::string& variableName = "") {
        return readDouble(minv, maxv, variableName);
    }
    double readStrictDouble(double minv, double maxv, int minAfterPointDigitCount, int maxAfterPointDigitCount,
                            const std::string& variableName = "");
    double readStrictReal(double minv, double maxv, int minAfterPointDigitCount, int maxAfterPointDigitCount,
                          const std::string& variableName = "") {
        return readStrictDouble(minv, maxv, minAfterPointDigitCount, maxAfterPointDigitCount, variableName);
    }
    std::vector<double> readDoubles(int size, double minv, double maxv, const std::string& variablesName = "",
                                    int indexBase = 1) {
        return readMany<double>(size, indexBase, true, [&] { return readDouble(minv, maxv, variablesName); });
    }
    std::vector<double> readDoubles(int size, int indexBase = 1) {
        return readMany<double>(size, indexBase, true, [&] { return readDouble(); });
    }
    std::vector<double> readReals(int size, double minv, double maxv, const std::string& variablesName = "",
                                  int indexBase = 1) {
        return readDoubles(size, minv, maxv, variablesName, indexBase);
    }
    std::vector<double> readReals(int size, int indexBase = 1) { return readDoubles(size, indexBase); }
    std::vector<double> readStrictDoubles(int size, double minv, double maxv, int minAfterPointDigitCount,
                                          int maxAfterPointDigitCount, const std::string& variablesName = "",
                                          int indexBase = 1) {
        return readMany<double>(size, indexBase, true, [&] {
            return readStrictDouble(minv, maxv, minAfterPointDigitCount, maxAfterPointDigitCount, variablesName);
        });
    }
    std::vector<double> readStrictReals(int size, double minv, double maxv, int minAfterPointDigitCount,
                                        int maxAfterPointDigitCount, const std::string& variablesName = "",
                                        int indexBase = 1) {
        return readStrictDoubles(size, minv, maxv, minAfterPointDigitCount, maxAfterPointDigitCount, variablesName,
                                 indexBase);
    }

    /* Lines */
    std::string readString() {
        std::string s;
        readStringTo(s);
        return s;
    }
    std::string readLine() { return readString(); }
    std::string readString(const pattern& p, const std::string& variableName = "") {
        std::string s;
        readStringTo(s, p, variableName);
        return s;
    }
    std::string readString(const std::string& ptrn, const std::string& variableName = "") {
        return readString(pattern(ptrn), variableName);
    }
    std::string readLine(const pattern& p, const std::string& variableName = "") { return readString(p, variableName); }
    std::string readLine(const std::string& ptrn, const std::string& variableName = "") {
        return readString(ptrn, variableName);
    }
    void readStringTo(std::string& result);
    void readStringTo(std::string& result, const pattern& p, const std::string& variableName = "") {
        readStringTo(result);
        checkPattern(result, p, variableName, "Line");
    }
    void readStringTo(std::string& result, const std::string& ptrn, const std::string& variableName = "") {
        readStringTo(result, pattern(ptrn), variableName);
    }
    void readLineTo(std::string& result) { readStringTo(result); }
    void readLineTo(std::string& result, const pattern& p, const std::string& variableName = "") {
        readStringTo(result, p, variableName);
    }
    void readLineTo(std::string& result, const std::string& ptrn, const std::string& variableName = "") {
        readStringTo(result, ptrn, variableName);
    }
    std::vector<std::string> readStrings(int size, const pattern& p, const std::string& variablesName = "",
                                         int indexBase = 1) {
        return readMany<std::string>(size, indexBase, false, [&] { return readString(p, variablesName); });
    }
    std::vector<std::string> readStrings(int size, const std::string& ptrn, const std::string& variablesName = "",
                                         int indexBase = 1) {
        pattern p(ptrn);
        return readStrings(size, p, variablesName, indexBase);
    }
    std::vector<std::string> readStrings(int size, int indexBase = 1) {
        return readMany<std::string>(size, indexBase, false, [&] { return readString(); });
    }
    std::vector<std::string> readLines(int size, const pattern& p, const std::string& variablesName = "",
                                       int indexBase = 1) {
        return readStrings(size, p, variablesName, indexBase);
    }
    std::vector<std::string> readLines(int size, const std::string& ptrn, const std::string& variablesName = "",
                                       int indexBase = 1) {
        return readStrings(size, ptrn, variablesName, indexBase);
    }
    std::vector<std::string> readLines(int size, int indexBase = 1) { return readStrings(size, indexBase); }

    /* Verdicts on this stream: inf/ans turn anything but FAIL into FAIL (name appended). */
    [[noreturn]] void quit(TResult result, const char* msg) { ibench_tl::quitImpl(result, msg ? msg : "", this); }
    [[noreturn]] void quit(TResult result, const std::string& msg) { ibench_tl::quitImpl(result, msg, this); }
    [[noreturn]] void quits(TResult result, const std::string& msg) { ibench_tl::quitImpl(result, msg, this); }
    [[noreturn]] void quitf(TResult result, const char* fmt, ...) IBENCH_TL_PRINTF(3, 4) {
        va_list ap;
        va_start(ap, fmt);
        std::string m = ibench_tl::vformat(fmt, ap);
        va_end(ap);
        ibench_tl::quitImpl(result, m, this);
    }
    void quitif(bool condition, TResult result, const char* fmt, ...) IBENCH_TL_PRINTF(4, 5) {
        if (!condition) return;
        va_list ap;
        va_start(ap, fmt);
        std::string m = ibench_tl::vformat(fmt, ap);
        va_end(ap);
        ibench_tl::quitImpl(result, m, this);
    }
    void ensuref(bool cond, const char* fmt, ...) IBENCH_TL_PRINTF(3, 4) {
        if (cond) return;
        va_list ap;
        va_start(ap, fmt);
        std::string m = ibench_tl::vformat(fmt, ap);
        va_end(ap);
        ibench_tl::quitImpl(_wa, m, this);
    }
    void __testlib_ensure(bool cond, const std::string& msg) {
        if (!cond) ibench_tl::quitImpl(_wa, msg, this);
    }

    void close() {
        if (file_ != nullptr && !stdfile) std::fclose(file_);
        file_ = nullptr;
        opened = false;
    }

private:
    std::FILE* file_ = nullptr;
    std::string content_;  // backs file_ for a stream made from a string
    int line_ = 1;
    int lastLine_ = 1;

    std::FILE* fp() const { return stdfile ? stdin : file_; }

    void ensureOpened() {
        if (!opened) ibench_tl::quitImpl(_fail, "Attempt to read from unopened stream (" + name + ")", nullptr);
    }

    int peekc() {
        std::FILE* f = fp();
#if defined(__GLIBC__)
        if (f->_IO_read_ptr < f->_IO_read_end) return (unsigned char)*f->_IO_read_ptr;
#endif
        int c = getc_unlocked(f);
        if (c != EOF) std::ungetc(c, f);
        return c;
    }
    int getcx() {
        int c = getc_unlocked(fp());
        if (c == '\n') line_++;
        return c;
    }
    void ungetcx(int c) {
        if (c == EOF) return;
        std::ungetc(c, fp());
        if (c == '\n') line_--;
    }

    template <typename T, typename F> std::vector<T> readMany(int size, int indexBase, bool spaced, F readOne) {
        if (size < 0) ibench_tl::quitImpl(_fail, "Size of the sequence to read must be non-negative", nullptr);
        std::vector<T> result;
        result.reserve(size_t(size));
        for (int i = 0; i < size; i++) {
            readManyIteration = indexBase + i;
            if (spaced && strict && i > 0) readSpace();
            result.push_back(readOne());
        }
        readManyIteration = NO_INDEX;
        return result;
    }

    void checkPattern(const std::string& value, const pattern& p, const std::string& variableName, const char* what);

    [[noreturn]] void rangeFail(const char* kind, const std::string& variableName, const std::string& value,
                                const std::string& lo, const std::string& hi) {
        std::string msg;
        if (readManyIteration == NO_INDEX) {
            if (variableName.empty())
                msg = std::string(kind) + " " + value + " violates the range [" + lo + ", " + hi + "]";
            else
                msg = std::string(kind) + " parameter [name=" + variableName + "] equals to " + value +
                      ", violates the range [" + lo + ", " + hi + "]";
        } else {
            if (variableName.empty())
                msg = std::string(kind) + " element [index=" + vtos(readManyIteration) + "] equals to " + value +
                      ", violates the range [" + lo + ", " + hi + "]";
            else
                msg = std::string(kind) + " element " + variableName + "[" + vtos(readManyIteration) +
                      "] equals to " + value + ", violates the range [" + lo + ", " + hi + "]";
        }
        quit(_wa, msg);
    }
};

inline InStream inf;
inline InStream ouf;
inline InStream ans;
inline std::fstream tout;

/* ------------------------------------------------------------------------------------------
 * Number parsing (testlib's token rules)
 * ---------------------------------------------------------------------------------------- */
namespace ibench_tl {

/* -?digits, no leading zeros, no "-0", at most 20 chars, fits long long. */
inline bool parseLongLong(const std::string& s, long long& out) {
    size_t n = s.size();
    if (n == 0 || n > 20) return false;
    size_t i = 0;
    bool neg = false;
    if (s[0] == '-') {
        neg = true;
        i = 1;
    }
    if (i >= n) return false;
    for (size_t j = i; j < n; j++)
        if (s[j] < '0' || s[j] > '9') return false;
    if (s[i] == '0' && (n - i > 1 || neg)) return false;
    unsigned long long v = 0;
    const unsigned long long lim = neg ? 9223372036854775808ULL : 9223372036854775807ULL;
    for (size_t j = i; j < n; j++) {
        unsigned long long d = (unsigned long long)(s[j] - '0');
        if (v > (lim - d) / 10) return false;
        v = v * 10 + d;
    }
    out = neg ? (long long)(0ULL - v) : (long long)v;
    return true;
}

inline bool parseUnsignedLongLong(const std::string& s, unsigned long long& out) {
    size_t n = s.size();
    if (n == 0 || n > 20) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    if (s[0] == '0' && n > 1) return false;
    unsigned long long v = 0;
    for (char c : s) {
        unsigned long long d = (unsigned long long)(c - '0');
        if (v > (ULLONG_MAX - d) / 10) return false;
        v = v * 10 + d;
    }
    out = v;
    return true;
}

/* Only 0-9 . e E + -, at least one digit, strtod must consume everything. */
inline bool parseDouble(const std::string& s, double& out) {
    if (s.empty()) return false;
    bool digit = false;
    for (char c : s) {
        if (c >= '0' && c <= '9')
            digit = true;
        else if (c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-')
            return false;
    }
    if (!digit) return false;
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size()) return false;
    if (std::isnan(v)) return false;
    out = v;
    return true;
}

}  // namespace ibench_tl

/* ------------------------------------------------------------------------------------------
 * InStream implementation
 * ---------------------------------------------------------------------------------------- */
inline void InStream::init(const std::string& fileName, TMode streamMode) {
    close();
    name = fileName;
    mode = streamMode;
    stdfile = false;
    strict = false;
    line_ = lastLine_ = 1;
    file_ = std::fopen(fileName.c_str(), "rb");
    if (file_ == nullptr) {
        if (streamMode == _output)
            ibench_tl::quitImpl(_pe, "Output file not found: \"" + fileName + "\"", nullptr);
        if (streamMode == _answer)
            ibench_tl::quitImpl(_fail, "Answer file not found: \"" + fileName + "\"", nullptr);
        ibench_tl::quitImpl(_fail, "Input file not found: \"" + fileName + "\"", nullptr);
    }
    std::setvbuf(file_, nullptr, _IOFBF, 1 << 16);
    opened = true;
    if (streamMode == _output) {  // a UTF-8 byte order mark is skipped
        unsigned char bom[3];
        size_t got = std::fread(bom, 1, 3, file_);
        if (!(got == 3 && bom[0] == 0xEF && bom[1] == 0xBB && bom[2] == 0xBF)) std::fseek(file_, 0, SEEK_SET);
    }
}

inline InStream::InStream(const InStream& base, std::string content) : content_(std::move(content)) {
    name = "based on " + base.name;
    mode = base.mode;
    strict = base.strict;
    stdfile = false;
    // fmemopen rejects an empty buffer on older C libraries; /dev/null reads as the same empty stream.
    file_ = content_.empty() ? std::fopen("/dev/null", "rb") : fmemopen(&content_[0], content_.size(), "rb");
    if (file_ == nullptr) ibench_tl::quitImpl(_fail, "Can't open a stream over a string", nullptr);
    opened = true;
}

inline void InStream::initStdin(TMode streamMode, bool strictMode) {
    close();
    name = "stdin";
    mode = streamMode;
    stdfile = true;
    strict = strictMode;
    line_ = lastLine_ = 1;
    file_ = nullptr;
    opened = true;
}

inline char InStream::readChar(char c) {
    ensureOpened();
    lastLine_ = line_;
    int found = getcx();
    if (found == (unsigned char)c) return c;
    auto show = [](int ch) -> std::string {
        if (ch == EOF) return "EOF";
        if (ch == '\r' || ch == '\n' || ch < 32) return "#" + vtos(ch);
        return "'" + std::string(1, char(ch)) + "'";
    };
    quit(_pe, "Unexpected character " + show(found) + ", but " + show((unsigned char)c) + " expected");
}

inline bool InStream::eoln() {
    if (!opened) return !strict;
    lastLine_ = line_;
    int c = peekc();
    if (!strict) {
        if (c == EOF) return true;
        if (c == '\n') {
            getcx();
            return true;
        }
        if (c == '\r') {
            getcx();
            if (peekc() == '\n') {
                getcx();
                return true;
            }
            ungetcx('\r');
        }
        return false;
    }
#ifdef FOR_WINDOWS
    if (c == '\r') {
        getcx();
        if (peekc() == '\n') {
            getcx();
            return true;
        }
        ungetcx('\r');
        return false;
    }
    return false;
#else
    if (c == '\n') {
        getcx();
        return true;
    }
    return false;
#endif
}

inline void InStream::readEof() {
    lastLine_ = line_;
    if (!eof()) quit(_pe, "Expected EOF");
    if (this == &inf && testlibMode == _validator) ibench_tl::g.validatorReadEof++;
}

inline void InStream::readWordTo(std::string& result) {
    ensureOpened();
    if (!strict) skipBlanks();
    lastLine_ = line_;
    int c = peekc();
    if (c == EOF) quit(_unexpected_eof, "Unexpected end of file - token expected");
    if (ibench_tl::isBlank(c)) quit(_pe, "Unexpected white-space - token expected");
    result.clear();
    const size_t maxLen = size_t(1) << 25;  // 32 MiB
    while (c != EOF && !ibench_tl::isBlank(c)) {
        result += char(c);
        getcx();
        if (result.size() > maxLen)
            quit(_pe, "Length of token exceeds " + vtos(maxLen) + ", token is '" + __testlib_part(result) + "...'");
        c = peekc();
    }
}

inline void InStream::checkPattern(const std::string& value, const pattern& p, const std::string& variableName,
                                   const char* what) {
    if (p.matches(value)) return;
    std::string kind(what);
    std::string msg;
    if (readManyIteration == NO_INDEX) {
        if (variableName.empty())
            msg = kind + " \"" + __testlib_part(value) + "\" doesn't correspond to pattern \"" + p.src() + "\"";
        else
            msg = kind + " parameter [name=" + variableName + "] equals to \"" + __testlib_part(value) +
                  "\", doesn't correspond to pattern \"" + p.src() + "\"";
    } else {
        if (variableName.empty())
            msg = kind + " element [index=" + vtos(readManyIteration) + "] equals to \"" + __testlib_part(value) +
                  "\" doesn't correspond to pattern \"" + p.src() + "\"";
        else
            msg = kind + " element " + variableName + "[" + vtos(readManyIteration) + "] equals to \"" +
                  __testlib_part(value) + "\", doesn't correspond to pattern \"" + p.src() + "\"";
    }
    quit(_wa, msg);
}

inline int InStream::readInt() {
    if (!strict && seekEof()) quit(_unexpected_eof, "Unexpected end of file - int32 expected");
    std::string token;
    readWordTo(token);
    long long v;
    if (!ibench_tl::parseLongLong(token, v)) quit(_pe, "Expected integer, but \"" + __testlib_part(token) + "\" found");
    if (v < INT_MIN || v > INT_MAX) quit(_pe, "Expected int32, but \"" + __testlib_part(token) + "\" found");
    return int(v);
}

inline int InStream::readInt(int minv, int maxv, const std::string& variableName) {
    int v = readInt();
    if (v < minv || v > maxv)
        rangeFail("Integer", variableName, vtos(v), toHumanReadableString(minv), toHumanReadableString(maxv));
    return v;
}

inline long long InStream::readLong() {
    if (!strict && seekEof()) quit(_unexpected_eof, "Unexpected end of file - int64 expected");
    std::string token;
    readWordTo(token);
    long long v;
    if (!ibench_tl::parseLongLong(token, v)) quit(_pe, "Expected integer, but \"" + __testlib_part(token) + "\" found");
    return v;
}

inline long long InStream::readLong(long long minv, long long maxv, const std::string& variableName) {
    long long v = readLong();
    if (v < minv || v > maxv)
        rangeFail("Integer", variableName, vtos(v), toHumanReadableString(minv),
                             toHumanReadableString(maxv));
    return v;
}

inline unsigned long long InStream::readUnsignedLong() {
    if (!strict && seekEof()) quit(_unexpected_eof, "Unexpected end of file - int64 expected");
    std::string token;
    readWordTo(token);
    unsigned long long v;
    if (!ibench_tl::parseUnsignedLongLong(token, v))
        quit(_pe, "Expected unsigned integer, but \"" + __testlib_part(token) + "\" found");
    return v;
}

inline unsigned long long InStream::readUnsignedLong(unsigned long long minv, unsigned long long maxv,
                                                     const std::string& variableName) {
    unsigned long long v = readUnsignedLong();
    if (v < minv || v > maxv)
        rangeFail("Unsigned integer", variableName, vtos(v), toHumanReadableString(minv),
                                      toHumanReadableString(maxv));
    return v;
}

inline double InStream::readDouble() {
    if (!strict && seekEof()) quit(_unexpected_eof, "Unexpected end of file - double expected");
    std::string token;
    readWordTo(token);
    double v;
    if (!ibench_tl::parseDouble(token, v)) quit(_pe, "Expected double, but \"" + __testlib_part(token) + "\" found");
    return v;
}

inline double InStream::readDouble(double minv, double maxv, const std::string& variableName) {
    double v = readDouble();
    if (v < minv || v > maxv) rangeFail("Double", variableName, vtos(v), vtos(minv), vtos(maxv));
    return v;
}

inline double InStream::readStrictDouble(double minv, double maxv, int minAfterPointDigitCount,
                                         int maxAfterPointDigitCount, const std::string& variableName) {
    if (!strict && seekEof()) quit(_unexpected_eof, "Unexpected end of file - strict double expected");
    std::string token;
    readWordTo(token);
    const std::string shown = "\"" + __testlib_part(token) + "\"";
    if (minAfterPointDigitCount > maxAfterPointDigitCount)
        ibench_tl::quitImpl(_fail, "readStrictDouble: minAfterPointDigitCount > maxAfterPointDigitCount", nullptr);
    // -?d+(.d+)? without leading zeros
    size_t n = token.size(), i = 0;
    bool ok = n > 0 && n <= 1000;
    if (ok && token[0] == '-') i = 1;
    size_t intStart = i;
    while (ok && i < n && std::isdigit((unsigned char)token[i])) i++;
    size_t intLen = i - intStart;
    int afterPoint = 0;
    if (ok && intLen == 0) ok = false;
    if (ok && i < n) {
        if (token[i] != '.') {
            ok = false;
        } else {
            size_t j = ++i;
            while (i < n && std::isdigit((unsigned char)token[i])) i++;
            afterPoint = int(i - j);
            if (afterPoint == 0 || i != n) ok = false;
        }
    }
    if (!ok) quit(_pe, "Expected strict double, but " + shown + " found");
    if (afterPoint < minAfterPointDigitCount || afterPoint > maxAfterPointDigitCount)
        quit(_pe, "Expected strict double with number of digits after point in range [" +
                      vtos(minAfterPointDigitCount) + "," + vtos(maxAfterPointDigitCount) + "], but " + shown +
                      " found");
    if (intLen > 1 && token[intStart] == '0') quit(_pe, "Expected strict double, but " + shown + " found");
    double v = std::strtod(token.c_str(), nullptr);
    if (std::isnan(v) || std::isinf(v)) quit(_pe, "Expected double, but " + shown + " found");
    if (token[0] == '-' && v >= 0) quit(_pe, "Redundant minus in " + shown + " found");
    if (v < minv || v > maxv) rangeFail("Double", variableName, vtos(v), vtos(minv), vtos(maxv));
    return v;
}

inline void InStream::readStringTo(std::string& result) {
    ensureOpened();
    lastLine_ = line_;
    result.clear();
    for (;;) {
        int c = peekc();
        if (c == EOF || c == '\n') break;
        if (c == '\r') {
            getcx();
            if (peekc() == '\n') {
                ungetcx('\r');
                break;
            }
            result += '\r';
            continue;
        }
        result += char(c);
        getcx();
    }
    if (strict)
        readEoln();
    else
        eoln();
}

/* ------------------------------------------------------------------------------------------
 * quit and friends
 * ---------------------------------------------------------------------------------------- */
namespace ibench_tl {

inline int exitCodeFor(TResult r) {
    switch (r) {
        case _ok: return OK_EXIT_CODE;
        case _wa: return WA_EXIT_CODE;
        case _pe: return PE_EXIT_CODE;
        case _dirt: return DIRT_EXIT_CODE;
        case _fail: return FAIL_EXIT_CODE;
        case _points: return POINTS_EXIT_CODE;
        case _unexpected_eof: return UNEXPECTED_EOF_EXIT_CODE;
        default:
            if (r >= _partially) return PC_BASE_EXIT_CODE + (int(r) - int(_partially));
            return FAIL_EXIT_CODE;
    }
}

inline std::string prefixFor(TResult r) {
    switch (r) {
        case _ok: return "ok ";
        case _wa: return "wrong answer ";
        case _pe:
        case _dirt: return "wrong output format ";
        case _fail: return "FAIL ";
        case _points: return "points ";
        case _unexpected_eof: return "unexpected eof ";
        default:
            if (r >= _partially) return "partially correct (" + vtos(int(r) - int(_partially)) + ") ";
            return "FAIL ";
    }
}

inline std::string outcomeFor(TResult r) {
    switch (r) {
        case _ok: return "accepted";
        case _wa: return "wrong-answer";
        case _pe:
        case _dirt: return "presentation-error";
        case _fail: return "fail";
        case _points: return "points";
        case _unexpected_eof: return "unexpected-eof";
        default: return r >= _partially ? "partially-correct" : "fail";
    }
}

inline std::string xmlEscape(const std::string& s) {
    std::string out;
    for (char ch : s) {
        unsigned char c = (unsigned char)ch;
        if (c == '&') out += "&amp;";
        else if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (c == '"') out += "&quot;";
        else if (c < 32) out += '.';
        else out += ch;
    }
    return out;
}

/* Flush what goes to the solver, write the transcript, close tout. Idempotent. */
inline void finalizeIO() {
    if (g.ioFinalized) return;
    g.ioFinalized = true;
    std::cout.flush();
    std::fflush(stdout);
    dumpTranscriptRaw();
    // ibench: tell the judge whether the solver's output had ended (EOF seen) before this
    // verdict. A rejection that follows the solver's end was caused by it (a crash becomes
    // RE); one given while the solver was still talking stands, whatever the solver does next.
    // An interactor may read the solver through ouf or scanf (stdio's EOF flag) or through
    // std::cin, whose own flag is the only witness once sync_with_stdio(false) detached it.
    if (testlibMode == _interactor && tout.is_open())
        tout << "\nibench_solver_eof=" << (std::feof(stdin) || std::cin.eof() ? 1 : 0) << "\n";
    if (tout.is_open()) tout.close();
}

[[noreturn]] inline void exitNow(int code) {
    if (g.inGuard) {  // already inside exit(): no re-entry
        std::cout.flush();
        std::fflush(nullptr);
        ::_exit(code);
    }
    std::exit(code);
}

[[noreturn]] inline void quitImpl(TResult result, std::string message, const InStream* stream) {
    static bool busy = false;
    if (busy) {  // a failure while quitting: report it plainly
        std::fprintf(stderr, "FAIL %s\n", message.c_str());
        std::fflush(stderr);
        ::_exit(FAIL_EXIT_CODE);
    }
    busy = true;
    g.quitCalled = true;

    message = trim(message);
    std::vector<std::string> extras;
    if (g.testCaseSet) extras.push_back("test case " + vtos(g.testCase));
    if (message.size() > 32000) message = message.substr(0, 32000 - 3) + "...";
#ifndef ENABLE_UNEXPECTED_EOF
    if (result == _unexpected_eof) result = _pe;
#endif
    if (stream != nullptr && stream->mode != _output && result != _fail) {
        result = _fail;
        extras.push_back(stream->name);
        if (testlibMode == _validator && stream == &inf) extras.push_back("line " + vtos(stream->lastLine()));
    }
    if (result == _ok || result == _points || result >= _partially)
        ouf.maxBlankCount = -1;  // trailing blanks are never the participant's error here
    if ((result == _ok || result == _points || result >= _partially) && testlibMode != _interactor && ouf.opened &&
        !ouf.seekEof()) {
        result = _dirt;
        message = "Extra information in the output file";
        extras.clear();
        if (g.testCaseSet) extras.push_back("test case " + vtos(g.testCase));
    }
    if (!extras.empty()) {
        std::string joined;
        for (size_t i = 0; i < extras.size(); i++) joined += (i ? ", " : "") + extras[i];
        message += (message.empty() ? "(" : " (") + joined + ")";
    }

    if (g.resultName.empty()) {
        std::string line = prefixFor(result) + message + "\n";
        std::fwrite(line.data(), 1, line.size(), stderr);
    } else {
        std::FILE* f = std::fopen(g.resultName.c_str(), "wb");
        if (f != nullptr) {
            std::string body;
            if (g.appesMode) {
                body = "<?xml version=\"1.0\" encoding=\"windows-1251\"?><result outcome = \"" + outcomeFor(result) +
                       "\"";
                if (result == _points && !g.pointsValue.empty()) body += " points = \"" + g.pointsValue + "\"";
                if (result >= _partially) body += " pctype = \"" + vtos(int(result) - int(_partially)) + "\"";
                body += ">" + xmlEscape(message) + "</result>\n";
            } else {
                body = message;
            }
            std::fwrite(body.data(), 1, body.size(), f);
            std::fclose(f);
        }
        std::fputs("\nSee file to check exit message\n", stderr);
    }
    std::fflush(stderr);
    finalizeIO();
    exitNow(exitCodeFor(result));
}

}  // namespace ibench_tl

/* Global verdicts act on ouf. */
[[noreturn]] inline void quit(TResult result, const std::string& msg) { ibench_tl::quitImpl(result, msg, &ouf); }
[[noreturn]] inline void quit(TResult result, const char* msg) { ibench_tl::quitImpl(result, msg ? msg : "", &ouf); }
[[noreturn]] inline void quits(TResult result, const std::string& msg) { ibench_tl::quitImpl(result, msg, &ouf); }

[[noreturn]] inline void quitf(TResult result, const char* fmt, ...) IBENCH_TL_PRINTF(2, 3);
[[noreturn]] inline void quitf(TResult result, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::string m = ibench_tl::vformat(fmt, ap);
    va_end(ap);
    ibench_tl::quitImpl(result, m, &ouf);
}

inline void quitif(bool condition, TResult result, const char* fmt, ...) IBENCH_TL_PRINTF(3, 4);
inline void quitif(bool condition, TResult result, const char* fmt, ...) {
    if (!condition) return;
    va_list ap;
    va_start(ap, fmt);
    std::string m = ibench_tl::vformat(fmt, ap);
    va_end(ap);
    ibench_tl::quitImpl(result, m, &ouf);
}

namespace ibench_tl {
template <typename F> std::string pointsString(F points) {
    if constexpr (std::is_floating_point<F>::value) {
        return removeDoubleTrailingZeroes(format("%.10f", double(points)));
    } else {
        return vtos(points);
    }
}

template <typename F> [[noreturn]] void quitPoints(F points, const std::string& message) {
    double p = double(points);
    if (std::isnan(p) || std::isinf(p) || p < -1e-8 || p > 1e6)
        quitImpl(_fail, "Points must be finite and in [0, 1e6], but " + vtos(p) + " found", nullptr);
    std::string value = pointsString(points);
    g.pointsValue = value;
    std::string msg = value;
    if (!message.empty()) msg += " " + message;
    quitImpl(_points, msg, &ouf);
}
}  // namespace ibench_tl

template <typename F> [[noreturn]] void quitp(F points, const std::string& message = "") {
    ibench_tl::quitPoints(points, message);
}

template <typename F> [[noreturn]] void quitp(F points, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::string m = ibench_tl::vformat(fmt, ap);
    va_end(ap);
    ibench_tl::quitPoints(points, m);
}

[[noreturn]] inline void quitpi(const std::string& pointsInfo, const std::string& message = "") {
    if (pointsInfo.find(' ') != std::string::npos)
        ibench_tl::quitImpl(_fail, "Parameter 'points_info' can't contain spaces", nullptr);
    std::string msg = "points_info=" + pointsInfo;
    if (!message.empty()) msg += " " + message;
    ibench_tl::quitImpl(_points, msg, &ouf);
}

[[noreturn]] inline void quitpi(const std::string& pointsInfo, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::string m = ibench_tl::vformat(fmt, ap);
    va_end(ap);
    quitpi(pointsInfo, m);
}

inline void ensuref(bool cond, const char* fmt, ...) IBENCH_TL_PRINTF(2, 3);
inline void ensuref(bool cond, const char* fmt, ...) {
    if (cond) return;
    va_list ap;
    va_start(ap, fmt);
    std::string m = ibench_tl::vformat(fmt, ap);
    va_end(ap);
    ibench_tl::quitImpl(_fail, m, nullptr);
}

inline void doEnsure(bool cond, const char* text) {
    if (!cond) ibench_tl::quitImpl(_fail, std::string("Condition failed: \"") + text + "\"", nullptr);
}
#define ensure(cond) ::doEnsure((cond), #cond)

/* ------------------------------------------------------------------------------------------
 * Comparisons and messages for checkers
 * ---------------------------------------------------------------------------------------- */
inline bool doubleCompare(double expected, double result, double MAX_DOUBLE_ERROR) {
    MAX_DOUBLE_ERROR += 1E-15;
    if (std::isnan(expected)) return std::isnan(result);
    if (std::isinf(expected)) {
        if (expected > 0) return result > 0 && std::isinf(result);
        return result < 0 && std::isinf(result);
    }
    if (std::isnan(result) || std::isinf(result)) return false;
    if (std::fabs(result - expected) <= MAX_DOUBLE_ERROR + 1E-15) return true;
    double lo = std::min(expected * (1.0 - MAX_DOUBLE_ERROR), expected * (1.0 + MAX_DOUBLE_ERROR));
    double hi = std::max(expected * (1.0 - MAX_DOUBLE_ERROR), expected * (1.0 + MAX_DOUBLE_ERROR));
    return result + 1E-15 >= lo && result <= hi + 1E-15;
}

inline double doubleDelta(double expected, double result) {
    // testlib's own abs and min (not fabs/std::min): they keep the sign of a zero difference,
    // so checker messages print "-0.0000000000" exactly where testlib's do.
    auto tlAbs = [](double x) { return x > 0 ? x : -x; };
    double absolute = tlAbs(result - expected);
    if (tlAbs(expected) > 1E-9) {
        double relative = tlAbs(absolute / expected);
        return absolute < relative ? absolute : relative;
    }
    return absolute;
}

namespace ibench_tl {
template <typename T> std::string ebfString(const T& v) {
    if constexpr (std::is_same<T, std::string>::value) {
        return "'" + compress(v) + "'";
    } else if constexpr (std::is_floating_point<T>::value) {
        return removeDoubleTrailingZeroes(format("%.12f", double(v)));
    } else {
        return vtos(v);
    }
}

template <typename T>
[[noreturn]] void expectedButFoundImpl(TResult result, const T& expected, const T& found, const std::string& prepend) {
    std::string msg = "expected " + ebfString(expected) + ", but found " + ebfString(found);
    if (!prepend.empty()) msg = prepend + ": " + msg;
    quitImpl(result, msg, &ouf);
}
}  // namespace ibench_tl

template <typename T> [[noreturn]] void expectedButFound(TResult result, T expected, T found, const char* prependFormat = "", ...) {
    va_list ap;
    va_start(ap, prependFormat);
    std::string prepend = ibench_tl::vformat(prependFormat, ap);
    va_end(ap);
    ibench_tl::expectedButFoundImpl(result, expected, found, prepend);
}

[[noreturn]] inline void expectedButFound(TResult result, const char* expected, const char* found,
                                          const char* prependFormat = "", ...) {
    va_list ap;
    va_start(ap, prependFormat);
    std::string prepend = ibench_tl::vformat(prependFormat, ap);
    va_end(ap);
    ibench_tl::expectedButFoundImpl(result, std::string(expected), std::string(found), prepend);
}

/* ------------------------------------------------------------------------------------------
 * Opts (generators): -k v, -k=v, --k v, -n10, -flag
 * ---------------------------------------------------------------------------------------- */
namespace ibench_tl {
struct Opts {
    bool prepared = false;
    std::vector<std::string> args;
    std::map<std::string, std::string> values;
    std::set<std::string> used;
    bool armed = false;
    bool suppressed = false;
};
inline Opts opts;

inline bool isOptKey(const std::string& s) {
    if (s.size() < 2 || s[0] != '-') return false;
    size_t p = (s[1] == '-') ? 2 : 1;
    return p < s.size() && std::isalpha((unsigned char)s[p]);
}

inline void prepareOpts(int argc, char* argv[]) {
    opts.prepared = true;
    opts.args.assign(argv, argv + argc);
    opts.values.clear();
    for (int i = 1; i < argc; i++) {
        std::string s = argv[i];
        if (!isOptKey(s)) continue;
        std::string body = s.substr(s[1] == '-' ? 2 : 1);
        std::string key, value;
        size_t eq = body.find('=');
        if (eq != std::string::npos) {
            key = body.substr(0, eq);
            value = body.substr(eq + 1);
        } else if (i + 1 < argc && !isOptKey(argv[i + 1])) {
            key = body;
            value = argv[++i];
        } else {
            size_t d = 0;
            while (d < body.size() && !std::isdigit((unsigned char)body[d])) d++;
            if (d < body.size() && d > 0) {
                key = body.substr(0, d);
                value = body.substr(d);
            } else {
                key = body;
                value = "true";
            }
        }
        opts.values[key] = value;
    }
}

/* -?digits(.digits)?([eE]+?digits)?, must be an integer value that fits T. */
template <typename T> bool parseOptInteger(const std::string& s, T& out) {
    size_t i = 0, n = s.size();
    bool neg = false;
    if (i < n && s[i] == '-') neg = true, i++;
    std::string intPart, fracPart;
    while (i < n && std::isdigit((unsigned char)s[i])) intPart += s[i++];
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && std::isdigit((unsigned char)s[i])) fracPart += s[i++];
        if (fracPart.empty()) return false;
    }
    if (intPart.empty()) return false;
    long long exponent = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < n && (s[i] == '+' || s[i] == '-')) eneg = (s[i] == '-'), i++;
        if (i >= n) return false;
        while (i < n && std::isdigit((unsigned char)s[i])) {
            exponent = exponent * 10 + (s[i++] - '0');
            if (exponent > 100000) return false;
        }
        if (eneg) exponent = -exponent;
    }
    if (i != n) return false;
    std::string digits = intPart + fracPart;
    long long scale = exponent - (long long)fracPart.size();
    size_t nz = digits.find_first_not_of('0');
    if (nz == std::string::npos) {
        out = T(0);
        return true;
    }
    digits = digits.substr(nz);
    if (scale < 0) {
        size_t cut = size_t(-scale);
        if (cut >= digits.size()) return false;
        for (size_t k = digits.size() - cut; k < digits.size(); k++)
            if (digits[k] != '0') return false;
        digits.resize(digits.size() - cut);
    } else {
        if ((long long)digits.size() + scale > 40) return false;
        digits.append(size_t(scale), '0');
    }
    unsigned long long mag = 0;
    for (char c : digits) {
        unsigned long long d = (unsigned long long)(c - '0');
        if (mag > (ULLONG_MAX - d) / 10) return false;
        mag = mag * 10 + d;
    }
    if (neg) {
        if (!std::is_signed<T>::value) return false;
        unsigned long long lim = (unsigned long long)(std::numeric_limits<T>::max()) + 1ULL;
        if (mag > lim) return false;
        out = (mag == lim) ? std::numeric_limits<T>::min() : T(-(long long)mag);
    } else {
        if (mag > (unsigned long long)std::numeric_limits<T>::max()) return false;
        out = T(mag);
    }
    return true;
}

template <typename T> T optValue(const std::string& key, const std::string& s) {
    if constexpr (std::is_same<T, std::string>::value) {
        return s;
    } else if constexpr (std::is_same<T, bool>::value) {
        if (s == "true" || s == "1") return true;
        if (s == "false" || s == "0") return false;
        quitImpl(_fail, "Opts: key '" + key + "': expected bool true/false or 0/1, but '" + s + "' found", nullptr);
    } else if constexpr (std::is_integral<T>::value) {
        T v{};
        if (!parseOptInteger<T>(s, v))
            quitImpl(_fail, "Opts: key '" + key + "': expected integer, but '" + s + "' found", nullptr);
        return v;
    } else if constexpr (std::is_floating_point<T>::value) {
        char* end = nullptr;
        long double v = std::strtold(s.c_str(), &end);
        if (s.empty() || end != s.c_str() + s.size())
            quitImpl(_fail, "Opts: key '" + key + "': expected float, but '" + s + "' found", nullptr);
        return T(v);
    } else {
        std::istringstream ss(s);
        T v;
        if (!(ss >> v)) quitImpl(_fail, "Opts: key '" + key + "': can't parse '" + s + "'", nullptr);
        return v;
    }
}

inline void requireOpts() {
    if (!opts.prepared)
        quitImpl(_fail, "Opts: options are available only after registerGen(argc, argv, 1)", nullptr);
}

inline void ensureNoUnusedOpts() {
    for (const auto& kv : opts.values)
        if (!opts.used.count(kv.first)) quitImpl(_fail, "Opts: unused key '" + kv.first + "'", nullptr);
}
}  // namespace ibench_tl

inline bool has_opt(const std::string& key) {
    ibench_tl::requireOpts();
    ibench_tl::opts.armed = true;
    return ibench_tl::opts.values.count(key) != 0;
}

inline void suppressEnsureNoUnusedOpts() { ibench_tl::opts.suppressed = true; }
/* Checks now, rather than at exit, that every option given on the command line was read. */
inline void check_unused_opt() { ibench_tl::ensureNoUnusedOpts(); }

/* Multi-test generators: from here on stdout goes to the file named by the test's number. */
inline void startTest(int test) {
    const std::string name = vtos(test);
    std::cout.flush();  // what the previous test wrote through a detached cout goes to its own file
    std::fflush(stdout);
    if (std::freopen(name.c_str(), "wt", stdout) == nullptr)
        ibench_tl::quitImpl(_fail, "Unable to write file '" + name + "'", nullptr);
}

template <typename T> T opt(const std::string& key) {
    ibench_tl::requireOpts();
    if constexpr (std::is_same<T, bool>::value) {
        if (!has_opt(key)) return false;
    }
    auto it = ibench_tl::opts.values.find(key);
    if (it == ibench_tl::opts.values.end()) ibench_tl::quitImpl(_fail, "Opts: unknown key '" + key + "'", nullptr);
    ibench_tl::opts.used.insert(key);
    return ibench_tl::optValue<T>(key, it->second);
}

template <typename T> T opt(int index) {
    ibench_tl::requireOpts();
    const auto& a = ibench_tl::opts.args;
    if (index < 0 || size_t(index) >= a.size())
        ibench_tl::quitImpl(_fail, "Opts: index " + vtos(index) + " is out of range [0," + vtos(a.size()) + ")", nullptr);
    return ibench_tl::optValue<T>("#" + vtos(index), a[size_t(index)]);
}

template <typename T> T opt(int index, const T& defaultValue) {
    ibench_tl::requireOpts();
    if (index < 0 || size_t(index) >= ibench_tl::opts.args.size()) return defaultValue;
    return opt<T>(index);
}

inline std::string opt(int index, const char* defaultValue) { return opt<std::string>(index, std::string(defaultValue)); }

template <typename T> T opt(const std::string& key, const T& defaultValue) {
    if (!has_opt(key)) return defaultValue;
    return opt<T>(key);
}

inline std::string opt(const std::string& key, const char* defaultValue) {
    return opt<std::string>(key, std::string(defaultValue));
}

inline std::string opt(const std::string& key) { return opt<std::string>(key); }

/* ------------------------------------------------------------------------------------------
 * Validator state
 * ---------------------------------------------------------------------------------------- */
class ValidatorInfo {
public:
    std::string testset() const { return testset_; }
    std::string group() const { return group_; }
    std::string testOverviewLogFileName() const { return overview_; }
    std::string testMarkupFileName() const { return markup_; }
    int testCase() const { return testCase_; }
    std::string testCaseFileName() const { return testCaseFile_; }
    void setTestset(const std::string& s) { testset_ = s; }
    void setGroup(const std::string& s) { group_ = s; }
    void setTestOverviewLogFileName(const std::string& s) { overview_ = s; }
    void setTestMarkupFileName(const std::string& s) { markup_ = s; }
    void setTestCase(int c) { testCase_ = c; }
    void setTestCaseFileName(const std::string& s) { testCaseFile_ = s; }

private:
    std::string testset_ = "tests", group_, overview_, markup_, testCaseFile_;
    int testCase_ = -1;
};
inline ValidatorInfo validator;

/* ------------------------------------------------------------------------------------------
 * Registration
 * ---------------------------------------------------------------------------------------- */
namespace ibench_tl {
inline void parseResultArgs(const std::vector<std::string>& args, size_t firstOptional, const char* usage) {
    if (args.size() > firstOptional) g.resultName = args[firstOptional];
    if (args.size() > firstOptional + 1) {
        const std::string& flag = args[firstOptional + 1];
        if (flag != "-appes" && flag != "-APPES")
            quitImpl(_fail, std::string("Program must be run with the following arguments: ") + usage, nullptr);
        g.appesMode = true;
    }
}
}  // namespace ibench_tl

inline void registerGen(int argc, char* argv[], int randomGeneratorVersion) {
    if (randomGeneratorVersion < 0 || randomGeneratorVersion > 1)
        ibench_tl::quitImpl(_fail, "Random generator version is expected to be 0 or 1.", nullptr);
    random_t::version = randomGeneratorVersion;
    testlibMode = _generator;
    rnd.setSeed(argc, argv);
    ibench_tl::prepareOpts(argc, argv);
}

inline void registerGen(int argc, char* argv[]) {
#ifndef USE_RND_AS_BEFORE_087
    std::fprintf(stderr,
                 "Use registerGen(argc, argv, 0) or registerGen(argc, argv, 1). The third parameter stands for the "
                 "random generator version. If you are trying to compile old generator use macro "
                 "-DUSE_RND_AS_BEFORE_087 or registerGen(argc, argv, 0). Version 1 has been released on Spring, 2013. "
                 "Use it to write new generators.\n\n");
#endif
    registerGen(argc, argv, 0);
}

inline void registerValidation() {
    testlibMode = _validator;
    inf.initStdin(_input, true);
    ouf.markUnopened("unopened output stream", _output);
    ans.markUnopened("unopened answer stream", _answer);
}

inline void registerValidation(int argc, char* argv[]) {
    registerValidation();
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto value = [&](const char* what) -> std::string {
            if (i + 1 >= argc)
                ibench_tl::quitImpl(_fail, std::string("Validator: expected a value after ") + what, nullptr);
            return argv[++i];
        };
        if (a == "--testset")
            validator.setTestset(value("--testset"));
        else if (a == "--group")
            validator.setGroup(value("--group"));
        else if (a == "--testOverviewLogFileName")
            validator.setTestOverviewLogFileName(value("--testOverviewLogFileName"));
        else if (a == "--testMarkupFileName")
            validator.setTestMarkupFileName(value("--testMarkupFileName"));
        else if (a == "--testCase")
            validator.setTestCase(std::atoi(value("--testCase").c_str()));
        else if (a == "--testCaseFileName")
            validator.setTestCaseFileName(value("--testCaseFileName"));
    }
}

inline void registerTestlibCmd(int argc, char* argv[]) {
    testlibMode = _checker;
    static const char usage[] = "<input-file> <output-file> <answer-file> [<report-file> [<-appes>]]";
    std::vector<std::string> args;
    for (int i = 0; i < argc; i++) {
        std::string a = argv[i];
        if (i > 0 && (a == "--testset" || a == "--group") && i + 1 < argc) {
            i++;
            continue;
        }
        args.push_back(a);
    }
    if (args.size() == 2 && args[1] == "--help") {
        std::fprintf(stderr, "%s\nUsage: %s %s\n", ibench_tl::g.checkerName.c_str(), args[0].c_str(), usage);
        ibench_tl::g.quitCalled = true;
        std::exit(0);
    }
    if (args.size() < 4 || args.size() > 6)
        ibench_tl::quitImpl(_fail, std::string("Program must be run with the following arguments: ") + usage, nullptr);
    ibench_tl::parseResultArgs(args, 4, usage);
    inf.init(args[1], _input);
    ouf.init(args[2], _output);
    ans.init(args[3], _answer);
}

inline void registerInteraction(int argc, char* argv[]) {
    testlibMode = _interactor;
#ifdef IBENCH_TL_POSIX
    // A solver that exits mid-protocol must give a verdict (the next read sees EOF: PE), not a
    // SIGPIPE death of the judge whose timing decides the outcome.
    struct sigaction oldPipe;
    if (::sigaction(SIGPIPE, nullptr, &oldPipe) == 0 && oldPipe.sa_handler == SIG_DFL) ::signal(SIGPIPE, SIG_IGN);
#ifdef __linux__
    // ibench: the interactor holds the hidden case; when a judge cannot run the solver under
    // another uid, a non-dumpable interactor still keeps /proc/<pid>/fd, mem and environ
    // closed to it.
    ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
#endif
    ibench_tl::installTranscript();
    static const char usage[] = "<input-file> <output-file> [<answer-file> [<report-file> [<-appes>]]]";
    std::vector<std::string> args(argv, argv + argc);
    if (args.size() < 3 || args.size() > 6)
        ibench_tl::quitImpl(_fail, std::string("Program must be run with the following arguments: ") + usage, nullptr);
    ibench_tl::parseResultArgs(args, 4, usage);
    inf.init(args[1], _input);
    tout.open(args[2], std::ios_base::out | std::ios_base::trunc);
    if (!tout.is_open())
        ibench_tl::quitImpl(_fail, "Can not write to the test-output-file '" + args[2] + "'", nullptr);
    ouf.initStdin(_output, false);
    if (args.size() > 3)
        ans.init(args[3], _answer);
    else
        ans.markUnopened("unopened answer stream", _answer);
}

/* ------------------------------------------------------------------------------------------
 * Finalize guard: runs at normal exit (return from main or exit()).
 * ---------------------------------------------------------------------------------------- */
namespace ibench_tl {
struct FinalizeGuard {
    FinalizeGuard() { g.quitCalled = false; }  // dynamic initialization: destroyed before inf/ouf/ans/tout
    ~FinalizeGuard() {
        if (g.quitCalled) return;
        g.inGuard = true;
        if (g.guardEnabled) {
            if (testlibMode == _unknown)
                quitImpl(_fail,
                         "Call register-function in the first line of the main (registerTestlibCmd or other similar)",
                         nullptr);
            if (testlibMode == _checker) quitImpl(_fail, "Checker must end with quit or quitf call.", nullptr);
            if (testlibMode == _validator && g.validatorReadEof == 0)
                quitImpl(_fail, "Validator must end with readEof call.", nullptr);
            if (testlibMode == _generator && opts.armed && !opts.suppressed) {
                std::cout.flush();
                std::fflush(stdout);
                ensureNoUnusedOpts();
            }
        }
        finalizeIO();
    }
};
inline FinalizeGuard finalizeGuard;
}  // namespace ibench_tl

/* ------------------------------------------------------------------------------------------
 * Forbidden: rand(), srand(), random_shuffle() -- their results differ between platforms.
 * ---------------------------------------------------------------------------------------- */
template <typename T = void> inline int __testlib_rand_is_forbidden() {
    static_assert(ibench_tl::always_false<T>::value,
                  "testlib: rand() is forbidden because it differs between compilers; use rnd.next() instead");
    return 0;
}
template <typename T> inline void __testlib_srand_is_forbidden(T) {
    static_assert(ibench_tl::always_false<T>::value,
                  "testlib: srand() is forbidden; rnd is seeded by registerGen(argc, argv, 1) from the arguments");
}
template <typename... T> inline void __testlib_random_shuffle_is_forbidden(T&&...) {
    static_assert(ibench_tl::always_false<std::tuple<T...>>::value,
                  "testlib: random_shuffle() is forbidden because it differs between compilers; use shuffle() instead");
}
namespace std {
using ::__testlib_rand_is_forbidden;
using ::__testlib_random_shuffle_is_forbidden;
using ::__testlib_srand_is_forbidden;
}  // namespace std
#define rand() __testlib_rand_is_forbidden()
#define srand(seed) __testlib_srand_is_forbidden(seed)
#define random_shuffle __testlib_random_shuffle_is_forbidden

/* ios::sync_with_stdio(false) in an interactor must not detach the transcript. */
#define sync_with_stdio(x) sync_with_stdio(x) ? __ibench_sync_with_stdio_hook(true) : __ibench_sync_with_stdio_hook(false)

#endif  // IBENCH_TESTLIB_H_
