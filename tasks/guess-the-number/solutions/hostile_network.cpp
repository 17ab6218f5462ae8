// Hostile: tries to connect to 127.0.0.1:47321 (the test suite listens there). If the connection
// succeeds the sandbox leaks network access: this prints wrong answers. Otherwise it solves the
// task correctly, so the expected verdict is OK.
#include <bits/stdc++.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
using namespace std;

static bool network_reachable() {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return false;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(47321);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool ok = connect(fd, (sockaddr*)&addr, sizeof addr) == 0;
    if (ok) {
        const char msg[] = "ibench sandbox leak: solver reached the network\n";
        ssize_t w = write(fd, msg, sizeof msg - 1);
        (void)w;
    }
    close(fd);
    return ok;
}

int main() {
    bool leaked = network_reachable();
    long long T, Q;
    cin >> T >> Q;
    for (long long g = 0; g < T; g++) {
        long long n;
        cin >> n;
        if (n == -1) return 0;
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
        if (leaked && n >= 2) lo = (lo == n ? lo - 1 : lo + 1);
        cout << "! " << lo << endl;
    }
}
