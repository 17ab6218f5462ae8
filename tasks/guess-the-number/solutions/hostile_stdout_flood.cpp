// Hostile: writes 1 GB of junk lines to standard output instead of a query.
// The interactor rejects the first token (PE); the rest must not hurt the judge.
#include <cstdio>
#include <cstring>
#include <unistd.h>
int main() {
    static char block[1 << 20];
    for (size_t i = 0; i + 8 <= sizeof block; i += 8) memcpy(block + i, "garbage\n", 8);
    for (int i = 0; i < 1024; i++) {
        size_t off = 0;
        while (off < sizeof block) {
            ssize_t w = write(1, block + off, sizeof block - off);
            if (w <= 0) return 0;
            off += (size_t)w;
        }
    }
    return 0;
}
