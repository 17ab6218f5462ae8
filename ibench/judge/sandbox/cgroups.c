/* Part of supervisor.c, one translation unit (included there, in order): the slot's cgroup control files: kept descriptors, reads and writes at offset 0, and killing what a cgroup holds. */

/* ---- small file helpers for cgroup control files ---- */
static int write_file(const char *dir, const char *name, const char *value) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = write(fd, value, strlen(value));
    close(fd);
    return n < 0 ? -1 : 0;
}

static int read_file(const char *dir, const char *name, char *buf, size_t size) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n < 0) return -1;
    buf[n] = 0;
    return 0;
}

/* The server's control files (the slot's cgroup limits and counters, its own children list)
 * stay open for its life and are read and written at offset 0: every case uses the same few,
 * and on a virtual machine an open and a close cost more than the access itself. An access that
 * fails on a kept descriptor (the cgroup was removed and made again) is tried once more on a
 * fresh one. Only the process that opened them uses them: the box's init and every child use
 * write_file/read_file (a child that closed its inherited descriptors must never write through
 * a number that now names something else). */
#define CTL_KEPT 24
static struct { char path[512]; int flags; int fd; } ctl_kept[CTL_KEPT];
static int ctl_n;

static int ctl_open(const char *path, int flags, int fresh, int *kept) {
    for (int i = 0; i < ctl_n; i++)
        if (ctl_kept[i].flags == flags && strcmp(ctl_kept[i].path, path) == 0) {
            if (!fresh) {
                *kept = 1;
                return ctl_kept[i].fd;
            }
            close(ctl_kept[i].fd);
            ctl_kept[i] = ctl_kept[--ctl_n];
            break;
        }
    int fd = open(path, flags | O_CLOEXEC);
    *kept = fd >= 0 && ctl_n < CTL_KEPT && strlen(path) < sizeof ctl_kept[0].path;
    if (*kept) {
        snprintf(ctl_kept[ctl_n].path, sizeof ctl_kept[0].path, "%s", path);
        ctl_kept[ctl_n].flags = flags;
        ctl_kept[ctl_n++].fd = fd;
    }
    return fd;
}

/* One access at offset 0: a write of `len` bytes (O_WRONLY) or a read of at most `len` bytes
 * (O_RDONLY); the bytes done, or -1. */
static ssize_t ctl_io(const char *dir, const char *name, int flags, void *buf, size_t len) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ssize_t n = -1;
    for (int fresh = 0; fresh < 2 && n < 0; fresh++) {
        int kept, fd = ctl_open(path, flags, fresh, &kept);
        if (fd < 0) return -1;
        n = flags == O_WRONLY ? pwrite(fd, buf, len, 0) : pread(fd, buf, len, 0);
        if (!kept) close(fd);
    }
    return n;
}

static int ctl_write(const char *dir, const char *name, const char *value) {
    return ctl_io(dir, name, O_WRONLY, (void *)value, strlen(value)) < 0 ? -1 : 0;
}

static int ctl_read(const char *dir, const char *name, char *buf, size_t size) {
    ssize_t n = ctl_io(dir, name, O_RDONLY, buf, size - 1);
    if (n < 0) return -1;
    buf[n] = 0;
    return 0;
}

static long long read_ll(const char *dir, const char *name) {
    char buf[256];
    if (!dir || ctl_read(dir, name, buf, sizeof buf) < 0) return -1;
    return atoll(buf);
}

/* Value of "key N" inside a flat-keyed control file (memory.oom_control, memory.events, cpu.stat). */
static long long read_key(const char *dir, const char *name, const char *key) {
    char buf[8192];
    if (!dir || ctl_read(dir, name, buf, sizeof buf) < 0) return -1;
    size_t kl = strlen(key);
    for (char *line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, key, kl) == 0 && line[kl] == ' ') return atoll(line + kl + 1);
    }
    return -1;
}

/* Kill every process listed in a cgroup but `keep` until none is left (a fork bomb keeps
 * adding some). The list is read through a fresh descriptor each round, never a kept one: cgroup
 * v1 keeps a cgroup.procs list per open file until a second passes without a read, so a kept
 * descriptor read every case showed the same old list for as long as cases came (stop 37: a
 * replaced box's init, reaped long before, "listed" through a whole sample; each case then spent
 * the 200 rounds, ~225 ms, killing it, and a process started since was never seen at all). */
static void kill_cgroup_but(const char *dir, pid_t keep) {
    if (!dir) return;
    for (int round = 0; round < 200; round++) {
        char buf[65536];
        if (read_file(dir, "cgroup.procs", buf, sizeof buf) < 0) return;
        int others = 0;
        for (char *p = buf; *p;) {
            long pid = strtol(p, &p, 10);
            if (pid > 0 && pid != keep) {
                kill((pid_t)pid, SIGKILL);
                others++;
            }
            while (*p == '\n') p++;
        }
        if (!others) return;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);  /* bounded retry while the kernel tears the group down */
    }
}

