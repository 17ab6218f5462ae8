/* Part of supervisor.c, one translation unit (included there, in order): the batch variant's prefill (direct or through a relay) and the interactor's spawn. */

/* ---- prefill (the batch variant): data the solver reads before the interaction ---- */

/* Room the interactor keeps in the solver's stdin pipe on top of the prefill: a default pipe's. */
#define PREFILL_ROOM 65536

static long pipe_max_size(void) {
    char buf[64];
    long v = 0;
    if (read_file("/proc/sys/fs", "pipe-max-size", buf, sizeof buf) == 0) v = atol(buf);
    return v > 0 ? v : 1048576;
}

/* Write what fits of the prefill into the (still empty) solver's stdin pipe without blocking,
 * after enlarging it where the kernel grants that. Returns the bytes written. */
static long long prefill_direct(int pipe_w, int file_fd, long long size) {
    if (size <= 0) return 0;
    long long want = size + PREFILL_ROOM;
    if (want > pipe_max_size()) return 0;  /* does not fit: the relay writes all of it */
    int got = fcntl(pipe_w, F_SETPIPE_SZ, (int)want);
    if (got < want) return 0;  /* not granted (a user's pipe pages are spent): the relay */
    int fl = fcntl(pipe_w, F_GETFL);
    fcntl(pipe_w, F_SETFL, fl | O_NONBLOCK);
    long long done = 0;
    char buf[1 << 16];
    while (done < size) {
        ssize_t n = pread(file_fd, buf, sizeof buf, (off_t)done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        ssize_t w = write(pipe_w, buf, (size_t)n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        done += w;
        if (w < n) break;  /* full after all: the relay writes the rest */
    }
    fcntl(pipe_w, F_SETFL, fl);  /* the interactor inherits this file description: blocking again */
    return done;
}

/* The relay: a child of the supervisor, never in the box or the slot's cgroups. It writes the
 * prefill from `offset` on, then copies the interactor's output to the solver's stdin until that
 * output ends (then the solver's stdin closes with it) or the solver is gone (EPIPE). */
static pid_t spawn_relay(int file_fd, long long offset, int from_inter, int to_solver) {
    pid_t pid = fork();
    if (pid < 0) die("fork prefill relay");
    if (pid > 0) return pid;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    signal(SIGPIPE, SIG_IGN);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* nothing but its three descriptors: a copy of another end would hide an EOF */
    for (int fd = 0; fd < 1024; fd++)
        if (fd != file_fd && fd != from_inter && fd != to_solver) close(fd);
    static char buf[1 << 16];
    long long off = offset;
    for (;;) {
        ssize_t n = pread(file_fd, buf, sizeof buf, (off_t)off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        for (ssize_t w = 0; w < n;) {
            ssize_t k = write(to_solver, buf + w, (size_t)(n - w));
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) _exit(0);  /* the solver is gone */
            w += k;
        }
        off += n;
    }
    close(file_fd);
    int use_splice = 1;
    for (;;) {
        ssize_t n;
        if (use_splice) {
            n = splice(from_inter, NULL, to_solver, NULL, sizeof buf, SPLICE_F_MOVE);
            if (n < 0 && errno == EINVAL) { use_splice = 0; continue; }
        } else {
            n = read(from_inter, buf, sizeof buf);
            for (ssize_t w = 0; n > 0 && w < n;) {
                ssize_t k = write(to_solver, buf + w, (size_t)(n - w));
                if (k < 0 && errno == EINTR) continue;
                if (k <= 0) _exit(0);
                w += k;
            }
        }
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;  /* the interactor's output ended (or the solver is gone) */
    }
    _exit(0);
}

struct inter_spawn { int in_fd, out_fd, err_fd, case_fd, errpipe; };

/* The interactor's side of the spawn: it runs on a stack of its own in the server's memory until
 * its exec (CLONE_VM | CLONE_VFORK, as posix_spawn does), so it only makes system calls and
 * writes nothing the server reads. */
static int interactor_child(void *arg) {
    const struct inter_spawn *sp = arg;
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* A solver that closes its stdin must not be able to kill its judge with SIGPIPE (a judge
     * crash is SE): the interactor's write fails with EPIPE instead, whatever header it uses. */
    signal(SIGPIPE, SIG_IGN);
    setpgid(0, 0);
    if (dup2(sp->in_fd, 0) < 0 || dup2(sp->out_fd, 1) < 0 || dup2(sp->err_fd, 2) < 0) child_fail(sp->errpipe, "dup2");
    if (sp->case_fd >= 0 && dup2(sp->case_fd, 3) < 0) child_fail(sp->errpipe, "dup2 case");
    rlim_t cpu_s = (rlim_t)((opt.inter_cpu_ms + 999) / 1000);
    set_limit(RLIMIT_CPU, cpu_s, cpu_s + 1);
    set_limit(RLIMIT_CORE, 0, 0);
    /* Trusted task code, but a runaway one must not take the node down with it. */
    if (opt.inter_as_kb > 0) set_limit(RLIMIT_AS, (rlim_t)opt.inter_as_kb * 1024, (rlim_t)opt.inter_as_kb * 1024);
    if (opt.inter_dir && chdir(opt.inter_dir) < 0) child_fail(sp->errpipe, "chdir interactor dir");
    prctl(PR_SET_PDEATHSIG, SIGKILL);

    const char *argv[MAX_LIST + 2];
    int a = 0;
    argv[a++] = opt.inter;
    for (int i = 0; i < opt.n_inter_args; i++) argv[a++] = opt.inter_args[i];
    argv[a] = NULL;
    const char *envp[MAX_LIST + 3];
    int e = 0;
    envp[e++] = "PATH=/usr/bin:/bin";
    envp[e++] = "LANG=C";
    for (int i = 0; i < opt.n_inter_env; i++) envp[e++] = opt.inter_env[i];
    envp[e] = NULL;
    execve(opt.inter, (char *const *)argv, (char *const *)envp);
    child_fail(sp->errpipe, "exec interactor");
    return 127;
}

/* The interactor, started without copying the server's memory: its start-up is the longest part
 * of a short case, and a fork's page-table copy would come before it. */
static pid_t spawn_interactor(int in_fd, int out_fd, int err_fd, int case_fd, int errpipe) {
    static char stack[256 * 1024] __attribute__((aligned(16)));
    struct inter_spawn sp = {in_fd, out_fd, err_fd, case_fd, errpipe};
    pid_t pid = clone(interactor_child, stack + sizeof stack, CLONE_VM | CLONE_VFORK | SIGCHLD, &sp);
    if (pid < 0) die("fork interactor");
    return pid;
}

