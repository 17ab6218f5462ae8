/* Part of supervisor.c, one translation unit (included there, in order): what a child does to itself before its exec: Landlock (rlimit mode), rlimits, joining the slot's cgroups. */

/* ---- Landlock (rlimit mode, no box): the solver may write only below its working dir (and
 * /dev/null), and may not signal or reach abstract sockets outside its own domain. Reads are
 * not confined (what rlimit mode admits); writes are, so nothing a later run trusts — the
 * compile cache, the judge's files, another slot — can be changed by the judged code. ---- */
#define IB_LL_CREATE 444
#define IB_LL_ADD_RULE 445
#define IB_LL_RESTRICT 446
struct ib_ll_attr { uint64_t handled_access_fs, handled_access_net, scoped; };
struct ib_ll_path { uint64_t allowed_access; int32_t parent_fd; } __attribute__((packed));

static int confine_writes(const char *dir) {
    long abi = syscall(IB_LL_CREATE, NULL, 0, 1U /* LANDLOCK_CREATE_RULESET_VERSION */);
    if (abi < 1) return -1;
    /* WRITE_FILE, REMOVE_DIR, REMOVE_FILE, MAKE_CHAR..MAKE_SYM; REFER (2); TRUNCATE (3) */
    uint64_t fs = (1ULL << 1) | (1ULL << 4) | (1ULL << 5) | (1ULL << 6) | (1ULL << 7) | (1ULL << 8) | (1ULL << 9) |
                  (1ULL << 10) | (1ULL << 11) | (1ULL << 12);
    if (abi >= 2) fs |= 1ULL << 13;
    if (abi >= 3) fs |= 1ULL << 14;
    struct ib_ll_attr a = {fs, 0, 0};
    size_t size = sizeof a.handled_access_fs;
    if (abi >= 4) size = 2 * sizeof(uint64_t);
    if (abi >= 6) {
        a.scoped = 1 | 2;  /* LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL */
        size = sizeof a;
    }
    int rs = (int)syscall(IB_LL_CREATE, &a, size, 0);
    if (rs < 0) return -1;
    struct ib_ll_path below = {fs, open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC)};
    struct ib_ll_path devnull = {(1ULL << 1) | (abi >= 3 ? 1ULL << 14 : 0), open("/dev/null", O_PATH | O_CLOEXEC)};
    int ok = below.parent_fd >= 0 && syscall(IB_LL_ADD_RULE, rs, 1 /* PATH_BENEATH */, &below, 0) == 0;
    if (devnull.parent_fd >= 0) syscall(IB_LL_ADD_RULE, rs, 1, &devnull, 0);
    ok = ok && syscall(IB_LL_RESTRICT, rs, 0) == 0;
    if (below.parent_fd >= 0) close(below.parent_fd);
    if (devnull.parent_fd >= 0) close(devnull.parent_fd);
    close(rs);
    return ok ? 0 : -1;
}

static void set_limit(int res, rlim_t soft, rlim_t hard) {
    struct rlimit rl = {soft, hard};
    setrlimit(res, &rl);
}

/* Report a child-side setup failure through the error pipe, then exit with a marker code. */
static void child_fail(int errfd, const char *what) {
    char msg[512];
    int n = snprintf(msg, sizeof msg, "%s: %s", what, strerror(errno));
    if (n > 0) (void)!write(errfd, msg, (size_t)n);
    _exit(127);
}

static void join_cgroups(int errfd) {
    /* "0" is the writer itself: inside a box the solver's own PID namespace would make getpid()
     * name another process of the host. */
    const char *dirs[] = {opt.cg_mem, opt.cg_pids, opt.cg_cpu, opt.cg_v2};
    for (int i = 0; i < 4; i++)
        if (dirs[i] && write_file(dirs[i], "cgroup.procs", "0") < 0) child_fail(errfd, "join cgroup");
}

