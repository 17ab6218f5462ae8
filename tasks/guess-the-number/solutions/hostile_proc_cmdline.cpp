// Hostile: reads /proc/<pid>/cmdline of every other process, and opens each argument that names
// a readable file (the interactor is started as `interactor <hidden_input> <tout>`). A case read
// that way is answered with zero queries; otherwise it guesses 1. Expected WA unless the sandbox
// leaks the other processes or the hidden files.
#include <bits/stdc++.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
using namespace std;
// ---- shared by the hostile "read the hidden case" probes ----
struct Game { long long n, x; };
static vector<vector<Game>> known;  // every hidden case this program managed to read

static bool parse_case(const string& text) {
    istringstream in(text);
    long long T;
    if (!(in >> T) || T < 1 || T > 100) return false;
    vector<Game> games;
    for (long long i = 0; i < T; i++) {
        Game g;
        if (!(in >> g.n >> g.x) || g.n < 1 || g.n > 1000000000LL || g.x < 1 || g.x > g.n) return false;
        games.push_back(g);
    }
    string extra;
    if (in >> extra) return false;
    known.push_back(games);
    return true;
}

static bool try_read_file(const string& path) {
    int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK);
    if (fd < 0) return false;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (1 << 20)) { close(fd); return false; }
    string text;
    char buf[4096];
    ssize_t r;
    while ((r = read(fd, buf, sizeof buf)) > 0) text.append(buf, r);
    close(fd);
    return parse_case(text);
}

// Reads the header first (so the interactor is surely running), then steals, then plays. For
// each game: when the stolen cases that still match agree on x, answer it with zero queries;
// when several disagree, binary-search that game and keep the cases that fit. Without any
// stolen case it answers 1 every game, which is wrong for most games, so only a real leak of
// the hidden input can make this program pass.
static int play_with_stolen_cases(void (*steal)()) {
    long long T, Q;
    if (!(cin >> T >> Q)) return 0;
    steal();
    vector<int> alive;
    for (int i = 0; i < (int)known.size(); i++)
        if ((long long)known[i].size() == T) alive.push_back(i);
    for (long long g = 0; g < T; g++) {
        long long n;
        cin >> n;
        if (n == -1) return 0;
        vector<int> next;
        for (int i : alive) if (known[i][g].n == n) next.push_back(i);
        alive = next;
        long long answer = 1;
        if (!alive.empty()) {
            bool agree = true;
            for (int i : alive) agree = agree && known[i][g].x == known[alive[0]][g].x;
            if (agree) {
                answer = known[alive[0]][g].x;
            } else {
                long long lo = 1, hi = n;
                while (lo < hi) {
                    long long mid = lo + (hi - lo) / 2;
                    cout << "? " << mid << endl;
                    string r;
                    cin >> r;
                    if (r == "-1") return 0;
                    if (r == "=") { lo = hi = mid; break; }
                    if (r == "<") hi = mid - 1; else lo = mid + 1;
                }
                answer = lo;
                next.clear();
                for (int i : alive) if (known[i][g].x == answer) next.push_back(i);
                alive = next;
            }
        }
        cout << "! " << answer << endl;
    }
    return 0;
}
// ---- end of shared part ----

static void steal() {
    DIR* proc = opendir("/proc");
    if (proc) {
        while (dirent* e = readdir(proc)) {
            if (!isdigit((unsigned char)e->d_name[0]) || atoi(e->d_name) == getpid()) continue;
            string base = string("/proc/") + e->d_name;
            int fd = open((base + "/cmdline").c_str(), O_RDONLY);
            if (fd < 0) continue;
            string cmd;
            char buf[4096];
            ssize_t r;
            while ((r = read(fd, buf, sizeof buf)) > 0) cmd.append(buf, r);
            close(fd);
            // Arguments are NUL-separated; relative ones are resolved against that process's cwd.
            size_t start = 0;
            while (start < cmd.size()) {
                size_t end = cmd.find('\0', start);
                if (end == string::npos) end = cmd.size();
                string arg = cmd.substr(start, end - start);
                if (!arg.empty()) {
                    if (!try_read_file(arg) && arg[0] != '/') try_read_file(base + "/cwd/" + arg);
                }
                start = end + 1;
            }
        }
        closedir(proc);
    }
}

int main() { return play_with_stolen_cases(steal); }
