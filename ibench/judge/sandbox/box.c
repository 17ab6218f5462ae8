/* Part of supervisor.c, one translation unit (included there, in order): the box: a root built from nothing, its mounts and devices, its init, the solver's exec. */

/* ---- the box ---- */
static void mkdirs(const char *path, mode_t mode) {
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        mkdir(buf, mode);
        *p = '/';
    }
    mkdir(buf, mode);
}

static void touch(const char *path) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) { *slash = 0; mkdirs(dir, 0755); }
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd >= 0) close(fd);
}

static void write_proc(int errfd, const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) child_fail(errfd, path);
    close(fd);
}

#ifndef MOUNT_ATTR_RDONLY
#define MOUNT_ATTR_RDONLY 0x00000001
#define MOUNT_ATTR_NOSUID 0x00000002
#define MOUNT_ATTR_NODEV 0x00000004
struct mount_attr { uint64_t attr_set, attr_clr, propagation, userns_fd; };
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

/* Read-only, no setuid, no devices, for the whole bound tree. mount_setattr does it for every
 * submount at once; older kernels get a remount of the top mount that keeps the flags a user
 * namespace may not drop (they are locked). */
static int make_readonly(const char *path) {
#ifdef __NR_mount_setattr
    struct mount_attr attr = {.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV};
    if (syscall(__NR_mount_setattr, AT_FDCWD, path, AT_RECURSIVE, &attr, sizeof attr) == 0) return 0;
#endif
    struct statvfs sv;
    unsigned long keep = 0;
    if (statvfs(path, &sv) == 0) {
        if (sv.f_flag & ST_NOEXEC) keep |= MS_NOEXEC;
        if (sv.f_flag & ST_NOATIME) keep |= MS_NOATIME;
        if (sv.f_flag & ST_NODIRATIME) keep |= MS_NODIRATIME;
        if (sv.f_flag & ST_RELATIME) keep |= MS_RELATIME;
    }
    return mount(NULL, path, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | keep, NULL);
}

/* One allowlisted host path (seen at /oldroot) at `dst` of the new root: a symlink is recreated
 * as the same symlink, a directory or file is bound read-only; a missing one is skipped. */
static void bind_into(int errfd, const char *src, const char *dst) {
    char host[4096], target[4096];
    snprintf(host, sizeof host, "/oldroot%s", src);
    snprintf(target, sizeof target, "%s", dst);
    struct stat st;
    if (lstat(host, &st) < 0) return;
    if (S_ISLNK(st.st_mode)) {
        char link[4096];
        ssize_t n = readlink(host, link, sizeof link - 1);
        if (n <= 0) return;
        link[n] = 0;
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", target);
        char *slash = strrchr(dir, '/');
        if (slash && slash != dir) { *slash = 0; mkdirs(dir, 0755); }
        if (symlink(link, target) < 0 && errno != EEXIST) child_fail(errfd, "box symlink");
        return;
    }
    if (S_ISDIR(st.st_mode)) mkdirs(target, 0755);
    else touch(target);
    if (mount(host, target, NULL, MS_BIND | MS_REC, NULL) < 0) child_fail(errfd, "box bind");
    if (make_readonly(target) < 0) child_fail(errfd, "box bind read-only");
}

/* Files each writable tmpfs of a box may hold: a compile makes a few dozen; without a memory
 * cgroup (user-namespace mode) every inode is kernel memory that no limit of the box counts. */
#define BOX_INODES 4096

static void box_tmpfs(int errfd, const char *path, const char *opts) {
    mkdirs(path, 0755);
    /* noexec: nothing written in the box runs (or maps as code); a Python or Java sample runs
     * its interpreter, not a program it wrote */
    if (mount("ibench-box", path, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, opts) < 0) child_fail(errfd, "box tmpfs");
}

/* Build the solver's filesystem from nothing (run by the box's init, inside its namespaces):
 * an empty tmpfs becomes the root while the host stays reachable at /oldroot, the allowlist is
 * bound into it, then the host is detached and the root made read-only. Few mounts: each one
 * costs on every case. */
static void build_box(int errfd) {
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) child_fail(errfd, "mount private");
    if (mount("ibench-box", opt.solver_dir, "tmpfs", MS_NOSUID | MS_NODEV, "size=256k,mode=0755") < 0)
        child_fail(errfd, "box root");
    char put_old[4096];
    snprintf(put_old, sizeof put_old, "%s/oldroot", opt.solver_dir);
    mkdir(put_old, 0755);
    if (syscall(SYS_pivot_root, opt.solver_dir, put_old) < 0) child_fail(errfd, "pivot_root");
    if (chdir("/") < 0) child_fail(errfd, "chdir /");

    /* writable, size-capped, private: the working dir (the solver's own) and /tmp */
    char o[128];
    snprintf(o, sizeof o, "size=%ldk,nr_inodes=%d,mode=1777", opt.box_kb, BOX_INODES);
    box_tmpfs(errfd, "/tmp", o);
    long uid = opt.uid >= 0 ? opt.uid : opt.outer_uid, gid = opt.gid >= 0 ? opt.gid : opt.outer_gid;
    snprintf(o, sizeof o, "size=%ldk,nr_inodes=%d,mode=0700,uid=%ld,gid=%ld", opt.box_kb, BOX_INODES, uid, gid);
    box_tmpfs(errfd, opt.workdir, o);

    /* /dev: the few devices a program may open, the descriptor links; POSIX shm lives in /tmp */
    mkdir("/dev", 0755);
    const char *devs[] = {"null", "zero", "full", "random", "urandom"};
    for (int i = 0; i < 5; i++) {
        char host[64], dst[64];
        snprintf(host, sizeof host, "/oldroot/dev/%s", devs[i]);
        snprintf(dst, sizeof dst, "/dev/%s", devs[i]);
        touch(dst);
        if (mount(host, dst, NULL, MS_BIND, NULL) < 0) child_fail(errfd, "box /dev");
    }
    symlink("/proc/self/fd", "/dev/fd");
    symlink("/proc/self/fd/0", "/dev/stdin");
    symlink("/proc/self/fd/1", "/dev/stdout");
    symlink("/proc/self/fd/2", "/dev/stderr");
    symlink("/tmp", "/dev/shm");

    /* /proc of this PID namespace: the solver and its own children, nothing else. Where the
     * kernel refuses one (a container whose own /proc is partly covered refuses it to a user
     * namespace) the box has none, which hides even more. */
    mkdir("/proc", 0555);
    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);

    for (int i = 0; i < opt.n_bind; i++) bind_into(errfd, opt.bind_src[i], opt.bind_dst[i]);

    if (umount2("/oldroot", MNT_DETACH) < 0) child_fail(errfd, "detach host root");
    rmdir("/oldroot");
    if (mount(NULL, "/", NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, "size=256k,mode=0755") < 0)
        child_fail(errfd, "box root read-only");
    if (chdir(opt.workdir) < 0) child_fail(errfd, "chdir box workdir");
}

/* What the box's init hands back about the solver. `late` records (a one-case box's second
 * record) carry only what the init learned after the solver: every other process of the box,
 * which the init reaps (so CPU spent by children the solver never waited for is counted), and
 * what the box's writable tmpfs held at the end (memory that no rlimit sees). */
struct box_record {
    int status;
    int late;
    struct rusage ru;
    long end_us;
    long long others_cpu_us;
    long others_maxrss_kb;  /* summed: an upper bound of what they held at once */
    long tmpfs_kb;
};

static long long ru_us(const struct rusage *ru) {
    return (long long)ru->ru_utime.tv_sec * 1000000 + ru->ru_utime.tv_usec +
           (long long)ru->ru_stime.tv_sec * 1000000 + ru->ru_stime.tv_usec;
}

static long tmpfs_used_kb(const char *path) {
    struct statvfs v;
    if (statvfs(path, &v) < 0) return 0;
    return (long)((unsigned long long)(v.f_blocks - v.f_bfree) * v.f_frsize / 1024);
}

/* The box's init, after its solver: end every other process of the box (only ever as PID 1 of
 * the box's own PID namespace: anywhere else kill(-1) would reach every process the judge may
 * signal), reap them all and add up what they used. */
static void reap_the_rest(struct box_record *rec) {
    if (getpid() == 1) kill(-1, SIGKILL);
    for (;;) {
        int st;
        struct rusage ru;
        pid_t p = wait4(-1, &st, 0, &ru);
        if (p < 0 && errno == EINTR) continue;
        if (p < 0) break;
        rec->others_cpu_us += ru_us(&ru);
        rec->others_maxrss_kb += ru.ru_maxrss;
    }
    rec->tmpfs_kb = tmpfs_used_kb("/tmp") + tmpfs_used_kb(opt.workdir);
}

static void clear_capabilities(void) {
    struct { uint32_t version; int pid; } hdr = {0x20080522 /* _LINUX_CAPABILITY_VERSION_3 */, 0};
    struct { uint32_t effective, permitted, inheritable; } data[2] = {{0, 0, 0}, {0, 0, 0}};
    syscall(SYS_capset, &hdr, data);
}

/* Set in a sample's box init once it has emptied its bounding set, which every solver it forks
 * inherits (the init itself keeps the capabilities it holds: the set only bounds an exec). */
static int bounding_set_empty;

/* The solver's last steps before exec, the same with or without a box. */
static void exec_solver(int in_fd, int out_fd, int err_fd, int exe_fd, int errpipe) {
    if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0) child_fail(errpipe, "dup2");

    /* The CPU limit is enforced by the supervisor from exact readings (and decided from the exact
     * figure after the run). The kernel's own limits are only backstops, well past the limit:
     * their tick-sampled accounting may fire early, and a sampled timer must never decide. */
    long backstop_ms = opt.cpu_ms + opt.cpu_ms / 2 + 200;
    rlim_t cpu_s = (rlim_t)((backstop_ms + 999) / 1000 + 1);
    set_limit(RLIMIT_CPU, cpu_s, cpu_s + 1);
    set_limit(RLIMIT_STACK, (rlim_t)opt.mem_kb * 1024, (rlim_t)opt.mem_kb * 1024);
    set_limit(RLIMIT_FSIZE, (rlim_t)opt.fsize_kb * 1024, (rlim_t)opt.fsize_kb * 1024);
    set_limit(RLIMIT_CORE, 0, 0);
    set_limit(RLIMIT_NOFILE, 256, 256);
    set_limit(RLIMIT_MEMLOCK, 0, 0);
    set_limit(RLIMIT_MSGQUEUE, 0, 0);
    if (opt.as_kb > 0) set_limit(RLIMIT_AS, (rlim_t)opt.as_kb * 1024, (rlim_t)opt.as_kb * 1024);
    /* Counted per uid: the slot's own uid as root, the box's fresh user namespace without root.
     * Where neither holds, the judge's other processes would count too. */
    if (opt.uid >= 0 || opt.userns) set_limit(RLIMIT_NPROC, (rlim_t)opt.nproc, (rlim_t)opt.nproc);

    /* In a box no capability survives: none in the bounding set (needs CAP_SETPCAP, so before
     * setuid), none held after it (a user namespace's init holds all of them in its namespace). */
    if (opt.box && !bounding_set_empty)
        for (int cap = 0; cap < 64; cap++) prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
    if (opt.gid >= 0) {
        if (setgroups(0, NULL) < 0) child_fail(errpipe, "setgroups");
        if (setresgid((gid_t)opt.gid, (gid_t)opt.gid, (gid_t)opt.gid) < 0) child_fail(errpipe, "setgid");
    }
    if (opt.uid >= 0 && setresuid((uid_t)opt.uid, (uid_t)opt.uid, (uid_t)opt.uid) < 0)
        child_fail(errpipe, "setuid");
    if (opt.box || opt.uid >= 0) clear_capabilities();
    prctl(PR_SET_PDEATHSIG, SIGKILL);  /* after setuid: a credential change clears it */
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) child_fail(errpipe, "no_new_privs");
    if (opt.landlock && confine_writes(opt.solver_dir) < 0) child_fail(errpipe, "landlock");
    if (install_seccomp() < 0) child_fail(errpipe, "seccomp");

    /* Backstop for a process whose threads outrun the supervisor's checks (several CPUs): the
     * kernel sends SIGPROF at half the limit again past it. Survives exec. */
    struct itimerval it = {{0, 0}, {backstop_ms / 1000, (backstop_ms % 1000) * 1000}};
    setitimer(ITIMER_PROF, &it, NULL);

    const char *argv[MAX_LIST + 2];
    int a = 0;
    argv[a++] = opt.argv0 ? opt.argv0 : "solution";
    for (int i = 0; i < opt.n_solver_args; i++) argv[a++] = opt.solver_args[i];
    argv[a] = NULL;
    const char *envp[MAX_LIST + 4];
    int e = 0;
    envp[e++] = "PATH=/usr/local/bin:/usr/bin:/bin";
    envp[e++] = "LANG=C";
    static char tmpdir[4200];
    if (opt.landlock) {  /* the only place it may write: a compiler's temporary files go there too */
        snprintf(tmpdir, sizeof tmpdir, "TMPDIR=%s", opt.solver_dir);
        envp[e++] = tmpdir;
    }
    for (int i = 0; i < opt.n_solver_env; i++) envp[e++] = opt.solver_env[i];
    envp[e] = NULL;
    syscall(SYS_execveat, exe_fd, "", argv, envp, AT_EMPTY_PATH);
    child_fail(errpipe, "exec solver");
}

/* Copy the exported file of the working dir (never a link, a FIFO or a device) out. */
static void export_file(int dirfd, int out_fd) {
    int in = openat(dirfd, opt.export_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (in < 0) return;
    struct stat st;
    if (fstat(in, &st) == 0 && S_ISREG(st.st_mode)) {
        char buf[1 << 16];
        long long left = (long long)opt.box_kb * 1024;
        ssize_t n;
        while (left > 0 && (n = read(in, buf, sizeof buf)) > 0) {
            if (write(out_fd, buf, (size_t)n) != n) break;
            left -= n;
        }
    }
    close(in);
}

/* The box's init: PID 1 of the solver's namespaces. The solver is its child, not itself, so the
 * solver keeps the signal semantics of any process (an init ignores SIGPIPE it did not ask for). */
/* The supervisor ends a boxed solver by a SIGUSR1 to the box's init, which kills the solver and
 * still reaps it: its status and rusage are reported however it ended, and a solver not forked
 * yet never runs. */
static volatile sig_atomic_t box_kill_requested;
static volatile pid_t box_solver;

static void on_box_kill(int sig) {
    (void)sig;
    box_kill_requested = 1;
    pid_t p = box_solver;
    if (p > 0) {
        kill(-p, SIGKILL);
        kill(p, SIGKILL);
    }
}

/* Everything a box's init does before its first solver: the SIGUSR1 handler, the user
 * namespace's id maps, the slot's cgroups, the filesystem. */
static void box_setup(int errpipe) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_box_kill;  /* no SA_RESTART: it interrupts the wait below */
    sigaction(SIGUSR1, &sa, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);  /* a SIGUSR1 sent before now is delivered here */
    if (opt.userns) {
        char map[64];
        write_proc(errpipe, "/proc/self/setgroups", "deny");
        snprintf(map, sizeof map, "%ld %ld 1\n", opt.outer_uid, opt.outer_uid);
        write_proc(errpipe, "/proc/self/uid_map", map);
        snprintf(map, sizeof map, "%ld %ld 1\n", opt.outer_gid, opt.outer_gid);
        write_proc(errpipe, "/proc/self/gid_map", map);
    }
    join_cgroups(errpipe);
    build_box(errpipe);
    sethostname("ibench", 6);
    prctl(PR_SET_DUMPABLE, 0);  /* the solver shares the init's uid without root: no /proc/1/mem */
}

/* Wait for the box's solver (reaping whatever else ends meanwhile) and record how it ended. */
static struct box_record reap_solver(pid_t pid) {
    struct box_record rec;
    memset(&rec, 0, sizeof rec);
    for (;;) {
        int st;
        struct rusage ru;
        pid_t p = wait4(-1, &st, 0, &ru);
        if (p < 0 && errno == EINTR) continue;
        if (p < 0) _exit(126);
        if (p != pid) {  /* another process of the box, ended meanwhile: still the solver's cost */
            rec.others_cpu_us += ru_us(&ru);
            rec.others_maxrss_kb += ru.ru_maxrss;
        }
        if (p == pid) {
            rec.status = st;
            rec.ru = ru;
            struct timespec ts;
            clock_gettime(CLOCK_MONOTONIC, &ts);
            rec.end_us = ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
            break;
        }
    }
    box_solver = 0;
    return rec;
}

static void box_init(int in_fd, int out_fd, int err_fd, int exe_fd, int errpipe, int record_fd, int export_fd) {
    box_setup(errpipe);
    pid_t pid = fork();
    if (pid < 0) child_fail(errpipe, "fork solver in box");
    if (pid == 0) {
        signal(SIGUSR1, SIG_DFL);
        setpgid(0, 0);
        exec_solver(in_fd, out_fd, err_fd, exe_fd, errpipe);
    }
    box_solver = pid;
    if (box_kill_requested) kill(pid, SIGKILL);
    /* Keep only the record pipe, the export descriptor and the working dir: a copy of the
     * solver's pipes held here would hide the solver's end of output from the interactor. */
    int dirfd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    for (int fd = 0; fd < 1024; fd++)
        if (fd != record_fd && fd != export_fd && fd != dirfd) close(fd);
    struct box_record rec = reap_solver(pid);
    /* At once: the supervisor may be deciding right now whether the solver had ended. */
    (void)!write(record_fd, &rec, sizeof rec);
    struct box_record late = {0};
    late.late = 1;
    reap_the_rest(&late);
    if (export_fd >= 0 && opt.export_name) export_file(dirfd, export_fd);
    (void)!write(record_fd, &late, sizeof late);
    _exit(0);
}

