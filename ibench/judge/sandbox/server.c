/* Part of supervisor.c, one translation unit (included there, in order): the server: one process serving a slot's cases over stdin (epochs, requests), and main. */

/* A new epoch (sample): the server moves into a fresh network namespace, with no interfaces but
 * a loopback that is down, which its cases (and their interactors) then share. Without root the
 * server first becomes the owner of a user namespace of its own, mapped to the judge's ids,
 * which a network namespace needs. If either step fails, cases make their own as before. */
static void enter_epoch(void) {
    static int own_userns;
    if (opt.userns && !own_userns) {
        char map[64];
        long uid = (long)getuid(), gid = (long)getgid();
        if (unshare(CLONE_NEWUSER) < 0) return;
        int ok = 1;
        int fd = open("/proc/self/setgroups", O_WRONLY | O_CLOEXEC);
        ok &= fd >= 0 && write(fd, "deny", 4) == 4;
        if (fd >= 0) close(fd);
        snprintf(map, sizeof map, "%ld %ld 1\n", uid, uid);
        fd = open("/proc/self/uid_map", O_WRONLY | O_CLOEXEC);
        ok &= fd >= 0 && write(fd, map, strlen(map)) == (ssize_t)strlen(map);
        if (fd >= 0) close(fd);
        snprintf(map, sizeof map, "%ld %ld 1\n", gid, gid);
        fd = open("/proc/self/gid_map", O_WRONLY | O_CLOEXEC);
        ok &= fd >= 0 && write(fd, map, strlen(map)) == (ssize_t)strlen(map);
        if (fd >= 0) close(fd);
        if (!ok) { printf("setup_error=user namespace of the server: %s\n__end__\n", strerror(errno)); fflush(stdout); exit(2); }
        own_userns = 1;
    }
    if (unshare(CLONE_NEWNET) == 0) server_net_epoch = opt.net_epoch;
}

/* Server mode: one supervisor per judge slot serves every case, so a case costs two forks from
 * this small process instead of a Python spawn plus an exec. Each request is the argument list
 * of one case; each reply is the usual report followed by a line "__end__". */
static int serve(void) {
    static char buf[1 << 20];
    size_t len = 0;
    for (;;) {
        char *args[512];
        int n = 0;
        size_t start = 0, pos = 0;
        for (;;) {
            /* find complete arguments in the buffer; an empty one ends the request */
            while (pos < len && buf[pos]) pos++;
            if (pos < len) {
                if (pos == start) break;  /* empty argument: end of request */
                if (n < 511) args[n++] = buf + start;
                pos++;
                start = pos;
                continue;
            }
            if (len == sizeof buf) { errno = E2BIG; die("request too large"); }
            ssize_t r = read(0, buf + len, sizeof buf - len);
            if (r == 0) return 0;
            if (r < 0) {
                if (errno == EINTR) continue;
                die("read request");
            }
            len += (size_t)r;
        }
        char *argv[514];
        argv[0] = "supervisor";
        for (int i = 0; i < n; i++) argv[i + 1] = args[i];
        argv[n + 1] = NULL;
        run_case(n + 1, argv);
        printf("__end__\n");
        fflush(stdout);
        /* drop the consumed request (and its terminator) from the buffer */
        size_t used = pos + 1;
        memmove(buf, buf + used, len - used);
        len -= used;
    }
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--server") == 0) {
        server_mode = 1;
        sched_getaffinity(0, sizeof server_cpus, &server_cpus);
        sigset_t mask;
        sigemptyset(&mask);
        sigaddset(&mask, SIGCHLD);
        sigaddset(&mask, SIGUSR1);  /* held for a box's init until it can handle it */
        sigprocmask(SIG_BLOCK, &mask, NULL);
        prctl(PR_SET_CHILD_SUBREAPER, 1);
        prctl(PR_SET_PDEATHSIG, SIGKILL);  /* dies with the judge that started it */
        return serve();
    }
    return run_case(argc, argv);
}

