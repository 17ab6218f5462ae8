// Generator for guess-the-reduced-fraction:
//   gen <seed> [--mode non] [--type T] [--games G] [--nmax N] [--fixedn 0|1]
// Prints T, then per game "N p q" (gcd(p, q) = 1, 1 <= p, q <= N).
// N is nmax when fixedn = 1, else log-uniform in [1, nmax]. Types:
//   allsmall  every reduced fraction for N = nmax (at most 100 games; ignores G)
//   random    p, q uniform (reduced by rejection)
//   cf        continued fraction with all partial quotients equal to a random a in [1, 6]
//             (largest convergent that fits), in random orientation
//   smallcf   random partial quotients in [1, 3] (long Stern-Brocot paths)
//   bigcf     a few partial quotients, some huge
//   extreme   one of 1/N, N/1, 1/1, (N-1)/N, N/(N-1), 1/(N-1), (N-1)/1, 2/N or N/2 reduced ...
//   mixed     any of the above
#include "testlib.h"
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

typedef long long ll;

static ll log_uniform(ll nmax) {
    int bits = 0;
    while ((1LL << (bits + 1)) <= nmax) bits++;
    int b = rnd.next(0, bits);
    return rnd.next(1LL << b, std::min(nmax, (2LL << b) - 1));
}

// Largest convergent of the continued fraction built from quotients drawn by `next` that fits N.
template <class F> static std::pair<ll, ll> from_cf(ll N, F next) {
    ll p0 = 1, q0 = 0;      // previous convergent
    ll a0 = next();
    if (a0 > N) a0 = N;
    ll p1 = a0, q1 = 1;     // current convergent
    if (p1 < 1) { p1 = 1; }
    for (int it = 0; it < 200; it++) {
        ll a = next();
        // p2 = a p1 + p0 must stay <= N
        __int128 p2 = (__int128)a * p1 + p0, q2 = (__int128)a * q1 + q0;
        if (p2 > N || q2 > N) {
            // take the largest a that still fits, if any
            ll amax = std::min(p1 ? (N - p0) / p1 : N, q1 ? (N - q0) / q1 : N);
            if (amax >= 1) { p2 = (__int128)amax * p1 + p0; q2 = (__int128)amax * q1 + q0; p0 = p1; q0 = q1; p1 = (ll)p2; q1 = (ll)q2; }
            break;
        }
        p0 = p1; q0 = q1; p1 = (ll)p2; q1 = (ll)q2;
    }
    return {p1, q1};
}

static std::pair<ll, ll> make(const std::string& type, ll N) {
    if (type == "random") {
        while (true) {
            ll p = rnd.next(1LL, N), q = rnd.next(1LL, N);
            if (std::gcd(p, q) == 1) return {p, q};
        }
    }
    if (type == "cf") {
        ll a = rnd.next(1, 6);
        auto r = from_cf(N, [&]() { return a; });
        if (rnd.next(2)) std::swap(r.first, r.second);
        return r;
    }
    if (type == "smallcf") {
        auto r = from_cf(N, [&]() { return (ll)rnd.next(1, 3); });
        if (rnd.next(2)) std::swap(r.first, r.second);
        return r;
    }
    if (type == "bigcf") {
        auto r = from_cf(N, [&]() { return rnd.next(4) == 0 ? rnd.next(1LL, N) : (ll)rnd.next(1, 40); });
        if (rnd.next(2)) std::swap(r.first, r.second);
        return r;
    }
    if (type == "extreme") {
        std::vector<std::pair<ll, ll>> c = {{1, N}, {N, 1}, {1, 1}};
        if (N >= 2) {
            c.push_back({N - 1, N});
            c.push_back({N, N - 1});
            c.push_back({1, N - 1});
            c.push_back({N - 1, 1});
        }
        if (N >= 3 && N % 2 == 1) { c.push_back({2, N}); c.push_back({N, 2}); }
        if (N >= 3) { c.push_back({N / 2, N / 2 + 1}); c.push_back({N / 2 + 1, N / 2}); }
        auto r = c[rnd.next((int)c.size())];
        ll g = std::gcd(r.first, r.second);
        return {r.first / g, r.second / g};
    }
    quitf(_fail, "unknown type %s", type.c_str());
}

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    std::string mode = opt<std::string>("mode", "non");
    std::string type = opt<std::string>("type", "random");
    int games = opt<int>("games", 10);
    ll nmax = opt<ll>("nmax", 1000000000LL);
    int fixedn = opt<int>("fixedn", 0);
    ensuref(mode == "non", "guess-the-reduced-fraction has only non-adaptive cases");
    ensuref(1 <= games && games <= 100 && 1 <= nmax && nmax <= 1000000000LL, "bad options");

    std::vector<std::array<ll, 3>> out;
    if (type == "allsmall") {
        for (ll p = 1; p <= nmax; p++)
            for (ll q = 1; q <= nmax; q++)
                if (std::gcd(p, q) == 1) out.push_back({nmax, p, q});
        ensuref(out.size() <= 100, "allsmall: too many games");
        rnd.shuffle(out.begin(), out.end());
    } else {
        const std::vector<std::string> kinds = {"random", "cf", "smallcf", "bigcf", "extreme"};
        for (int g = 0; g < games; g++) {
            ll N = fixedn ? nmax : log_uniform(nmax);
            std::string t = type == "mixed" ? kinds[rnd.next((int)kinds.size())] : type;
            auto r = make(t, N);
            ensuref(1 <= r.first && r.first <= N && 1 <= r.second && r.second <= N && std::gcd(r.first, r.second) == 1,
                    "internal: bad fraction");
            out.push_back({N, r.first, r.second});
        }
    }
    printf("%d\n", (int)out.size());
    for (auto& g : out) printf("%lld %lld %lld\n", g[0], g[1], g[2]);
    return 0;
}
