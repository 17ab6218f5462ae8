/*
 * ibench supervisor: runs one case — a solver, and for interactive tasks an interactor joined
 * to it directly by two pipes — under limits, and prints what happened as key=value lines.
 *
 * Why native: the judge must report the solver's own peak memory (a Python parent would pass
 * its RSS high-water mark on through fork), must react to exits in microseconds (the verdict
 * rules of SPEC §4 depend on who stopped first), and must cost less per case than two Python
 * subprocess spawns. One fork of this small program, two forks from it.
 *
 * It decides nothing about verdicts: it measures and reports. ibench/judge/verdict.py decides.
 *
 * Isolation (each optional, chosen by the caller from what the host offers):
 *   --uid/--gid          run the solver as an unprivileged user (judge running as root)
 *   --mountns            private mount namespace: tmpfs over --hide paths, /proc with hidepid
 *   --cg-mem/--cg-pids/--cg-cpu   cgroup v1 slot directories (or one v2 dir in --cg-v2)
 *   seccomp (always)     no sockets except AF_UNIX, no ptrace / process_vm_*
 *   rlimits (always)     CPU, stack = memory limit, file size, core 0, processes
 * Every descendant ends with the case: the supervisor is a child subreaper and kills what is
 * left of the solver's process group, its cgroup and its own children before it exits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <grp.h>
#include <time.h>
#include <unistd.h>

#define MAX_LIST 64

struct options {
    int interactive;
    const char *solver;
    const char *solver_dir;
    const char *solver_stdin;   /* batch */
    const char *solver_stdout;  /* batch */
    const char *solver_stderr;
    const char *inter;
    const char *inter_dir;
    const char *inter_stderr;
    const char *case_path;      /* opened as fd 3 of the interactor */
    const char *inter_args[MAX_LIST];
    int n_inter_args;
    const char *inter_env[MAX_LIST];
    int n_inter_env;
    const char *hide[MAX_LIST];
    int n_hide;
    const char *argv0;
    const char *solver_args[MAX_LIST];
    int n_solver_args;
    const char *solver_env[MAX_LIST];
    int n_solver_env;
    long cpu_ms, mem_kb, wall_ms, grace_ms, nproc, fsize_kb, inter_cpu_ms, inter_as_kb, as_kb;
    long uid, gid;
    long wall_hard_ms;
    int mountns;
    const char *cg_mem, *cg_pids, *cg_cpu, *cg_v2;
};
static const struct options DEFAULTS = {.cpu_ms = 1000, .mem_kb = 262144, .wall_ms = 5000, .grace_ms = 1000,
                                        .nproc = 16, .fsize_kb = 65536, .inter_cpu_ms = 20000, .uid = -1,
                                        .gid = -1};
static struct options opt;
static int server_mode;

static void die(const char *what) {
    printf("setup_error=%s: %s\n", what, strerror(errno));
    if (server_mode) printf("__end__\n");  /* the caller restarts a server that died */
    fflush(stdout);
    exit(2);
}

static long now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

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

static long long read_ll(const char *dir, const char *name) {
    char buf[256];
    if (!dir || read_file(dir, name, buf, sizeof buf) < 0) return -1;
    return atoll(buf);
}

/* Value of "key N" inside a flat-keyed control file (memory.oom_control, memory.events, cpu.stat). */
static long long read_key(const char *dir, const char *name, const char *key) {
    char buf[8192];
    if (!dir || read_file(dir, name, buf, sizeof buf) < 0) return -1;
    size_t kl = strlen(key);
    for (char *line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, key, kl) == 0 && line[kl] == ' ') return atoll(line + kl + 1);
    }
    return -1;
}

/* Kill every process listed in a cgroup until it is empty (a fork bomb keeps adding some). */
static void kill_cgroup(const char *dir) {
    if (!dir) return;
    for (int round = 0; round < 200; round++) {
        char buf[65536];
        if (read_file(dir, "cgroup.procs", buf, sizeof buf) < 0) return;
        if (!buf[0]) return;
        for (char *p = buf; *p;) {
            long pid = strtol(p, &p, 10);
            if (pid > 0) kill((pid_t)pid, SIGKILL);
            while (*p == '\n') p++;
        }
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);  /* bounded retry while the kernel tears the group down */
    }
}

/* ---- seccomp: no network, no debugging of other processes ---- */
#if defined(__x86_64__)
#define IB_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define IB_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

static int install_seccomp(void) {
#ifdef IB_AUDIT_ARCH
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, IB_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#if defined(__x86_64__)
        /* x32 syscall numbers would bypass the checks below */
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
#endif
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ptrace, 4, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_process_vm_readv, 3, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_process_vm_writev, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 2, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        /* socket(domain, ...): only AF_UNIX */
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
    };
    struct sock_fprog prog = {.len = sizeof f / sizeof f[0], .filter = f};
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
#else
    return 0;
#endif
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

static void hide_paths(int errfd) {
    if (unshare(CLONE_NEWNS) < 0) child_fail(errfd, "unshare(CLONE_NEWNS)");
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) child_fail(errfd, "mount private");
    for (int i = 0; i < opt.n_hide; i++) {
        struct stat st;
        /* Relative to the solver's scratch dir a path would hide the wrong thing, or nothing. */
        if (opt.hide[i][0] != '/') child_fail(errfd, "hide path is not absolute");
        if (stat(opt.hide[i], &st) < 0) continue;
        int rc;
        if (S_ISDIR(st.st_mode))
            rc = mount("ibench-hidden", opt.hide[i], "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
                       "size=4k,mode=0");
        else
            rc = mount("/dev/null", opt.hide[i], NULL, MS_BIND, NULL);
        if (rc < 0) child_fail(errfd, "hide path");
    }
    /* Fresh, small temp dirs: nothing left by another case can be read, nothing left here
     * outlives this one. */
    const char *tmps[] = {"/tmp", "/var/tmp", "/dev/shm"};
    char tmpopt[64];
    snprintf(tmpopt, sizeof tmpopt, "size=%ldk,mode=1777", opt.fsize_kb);
    for (int i = 0; i < 3; i++) {
        struct stat st;
        if (stat(tmps[i], &st) == 0 && S_ISDIR(st.st_mode) &&
            mount("ibench-tmp", tmps[i], "tmpfs", MS_NOSUID | MS_NODEV, tmpopt) < 0)
            child_fail(errfd, "mount tmpfs");
    }
    /* A proc instance of our own where other users' processes are invisible: the solver cannot
     * read the interactor's cmdline, fds or cwd. */
    if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=invisible") < 0 &&
        mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=2") < 0)
        child_fail(errfd, "mount /proc hidepid");
}

static void join_cgroups(int errfd) {
    char pid[32];
    snprintf(pid, sizeof pid, "%d", getpid());
    const char *dirs[] = {opt.cg_mem, opt.cg_pids, opt.cg_cpu, opt.cg_v2};
    for (int i = 0; i < 4; i++)
        if (dirs[i] && write_file(dirs[i], "cgroup.procs", pid) < 0) child_fail(errfd, "join cgroup");
}

static pid_t spawn_solver(int in_fd, int out_fd, int err_fd, int exe_fd, int errpipe) {
    pid_t pid = fork();
    if (pid < 0) die("fork solver");
    if (pid > 0) return pid;

    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    setpgid(0, 0);
    join_cgroups(errpipe);
    /* chdir before the mounts: the scratch dir may sit under a path that gets covered */
    if (opt.solver_dir && chdir(opt.solver_dir) < 0) child_fail(errpipe, "chdir solver dir");
    if (opt.mountns) hide_paths(errpipe);

    if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0) child_fail(errpipe, "dup2");

    rlim_t cpu_s = (rlim_t)((opt.cpu_ms + 999) / 1000 + 1);
    set_limit(RLIMIT_CPU, cpu_s, cpu_s + 1);
    set_limit(RLIMIT_STACK, (rlim_t)opt.mem_kb * 1024, (rlim_t)opt.mem_kb * 1024);
    set_limit(RLIMIT_FSIZE, (rlim_t)opt.fsize_kb * 1024, (rlim_t)opt.fsize_kb * 1024);
    set_limit(RLIMIT_CORE, 0, 0);
    set_limit(RLIMIT_NOFILE, 256, 256);
    set_limit(RLIMIT_MEMLOCK, 0, 0);
    if (opt.as_kb > 0) set_limit(RLIMIT_AS, (rlim_t)opt.as_kb * 1024, (rlim_t)opt.as_kb * 1024);
    if (opt.uid >= 0) set_limit(RLIMIT_NPROC, (rlim_t)opt.nproc, (rlim_t)opt.nproc);

    if (opt.gid >= 0) {
        if (setgroups(0, NULL) < 0) child_fail(errpipe, "setgroups");
        if (setresgid((gid_t)opt.gid, (gid_t)opt.gid, (gid_t)opt.gid) < 0) child_fail(errpipe, "setgid");
    }
    if (opt.uid >= 0 && setresuid((uid_t)opt.uid, (uid_t)opt.uid, (uid_t)opt.uid) < 0)
        child_fail(errpipe, "setuid");
    prctl(PR_SET_PDEATHSIG, SIGKILL);  /* after setuid: a credential change clears it */
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) child_fail(errpipe, "no_new_privs");
    if (install_seccomp() < 0) child_fail(errpipe, "seccomp");

    /* CPU limit, event-driven: the kernel sends SIGPROF when the process's CPU time (user+sys,
     * all threads) reaches the limit. A small margin so a run just under the limit finishes;
     * the verdict compares the exact measured time with the limit anyway. Survives exec. */
    long prof_ms = opt.cpu_ms + 50;
    struct itimerval it = {{0, 0}, {prof_ms / 1000, (prof_ms % 1000) * 1000}};
    setitimer(ITIMER_PROF, &it, NULL);

    const char *argv[MAX_LIST + 2];
    int a = 0;
    argv[a++] = opt.argv0 ? opt.argv0 : "solution";
    for (int i = 0; i < opt.n_solver_args; i++) argv[a++] = opt.solver_args[i];
    argv[a] = NULL;
    const char *envp[MAX_LIST + 3];
    int e = 0;
    envp[e++] = "PATH=/usr/local/bin:/usr/bin:/bin";
    envp[e++] = "LANG=C";
    for (int i = 0; i < opt.n_solver_env; i++) envp[e++] = opt.solver_env[i];
    envp[e] = NULL;
    syscall(SYS_execveat, exe_fd, "", argv, envp, AT_EMPTY_PATH);
    child_fail(errpipe, "exec solver");
    return -1;
}

static pid_t spawn_interactor(int in_fd, int out_fd, int err_fd, int case_fd, int errpipe) {
    pid_t pid = fork();
    if (pid < 0) die("fork interactor");
    if (pid > 0) return pid;

    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    setpgid(0, 0);
    if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0) child_fail(errpipe, "dup2");
    if (case_fd >= 0 && dup2(case_fd, 3) < 0) child_fail(errpipe, "dup2 case");
    rlim_t cpu_s = (rlim_t)((opt.inter_cpu_ms + 999) / 1000);
    set_limit(RLIMIT_CPU, cpu_s, cpu_s + 1);
    set_limit(RLIMIT_CORE, 0, 0);
    /* Trusted task code, but a runaway one must not take the node down with it. */
    if (opt.inter_as_kb > 0) set_limit(RLIMIT_AS, (rlim_t)opt.inter_as_kb * 1024, (rlim_t)opt.inter_as_kb * 1024);
    if (opt.inter_dir && chdir(opt.inter_dir) < 0) child_fail(errpipe, "chdir interactor dir");
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
    child_fail(errpipe, "exec interactor");
    return -1;
}

struct proc {
    pid_t pid;
    int done;
    int status;
    struct rusage ru;
    long end_us;
    int killed;  /* 0 no; 1 by judge after the interactor's verdict; 2 grace; 3 wall */
};

static const char *kill_reason(int k) {
    switch (k) {
        case 1: return "judge";
        case 2: return "grace";
        case 3: return "wall";
        default: return "none";
    }
}

static void kill_group(pid_t pgid) {
    if (pgid > 0) kill(-pgid, SIGKILL);
}

/* Solver CPU so far, for decisions taken while it still runs (after it exits, rusage is exact). */
static long long solver_cpu_now_us(pid_t pid) {
    if (opt.cg_cpu) {
        long long ns = read_ll(opt.cg_cpu, "cpuacct.usage");
        if (ns >= 0) return ns / 1000;
    }
    if (opt.cg_v2) {
        long long us = read_key(opt.cg_v2, "cpu.stat", "usage_usec");
        if (us >= 0) return us;
    }
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    if (!p) return -1;
    unsigned long long ut = 0, st = 0;
    /* fields after ")": state(3) ... utime(14) stime(15) */
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2) return -1;
    return (long long)(ut + st) * 1000000LL / sysconf(_SC_CLK_TCK);
}

/* Scheduler state of a process: 'R' when it is running or waiting for a CPU, 'S'/'D' when it
 * is blocked. Used when the wall-clock cap expires: a runnable solver is working (its CPU timer
 * will end it), a blocked one is idle. Unlike a CPU-per-wall ratio, this does not change with
 * how loaded the machine is. */
static char proc_state(pid_t pid) {
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return 0;
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    return p && p[1] == ' ' ? p[2] : 0;
}

/* Has the process begun to exit (PF_EXITING) or finished (zombie)? */
static int proc_exiting(pid_t pid) {
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return 1;
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    if (!p) return 0;
    char state = 0;
    unsigned int flags = 0;
    if (sscanf(p + 2, "%c %*d %*d %*d %*d %*d %u", &state, &flags) != 2) return 0;
    return state == 'Z' || state == 'X' || (flags & 0x4) != 0;
}

static int group_runnable(pid_t main_pid, const char *cgdir) {
    char buf[65536];
    if (cgdir && read_file(cgdir, "cgroup.procs", buf, sizeof buf) == 0 && buf[0]) {
        for (char *p = buf; *p;) {
            long pid = strtol(p, &p, 10);
            if (pid > 0 && proc_state((pid_t)pid) == 'R') return 1;
            while (*p == '\n') p++;
        }
        return 0;
    }
    return proc_state(main_pid) == 'R';
}

static void print_proc(const char *name, struct proc *p) {
    if (!p->pid) return;
    if (WIFEXITED(p->status))
        printf("%s_exit=%d\n", name, WEXITSTATUS(p->status));
    else if (WIFSIGNALED(p->status))
        printf("%s_signal=%d\n", name, WTERMSIG(p->status));
    long long cpu = (long long)p->ru.ru_utime.tv_sec * 1000000 + p->ru.ru_utime.tv_usec +
                    (long long)p->ru.ru_stime.tv_sec * 1000000 + p->ru.ru_stime.tv_usec;
    printf("%s_cpu_us=%lld\n%s_maxrss_kb=%ld\n%s_killed=%s\n", name, cpu, name, p->ru.ru_maxrss, name,
           kill_reason(p->killed));
}

static void usage(void) {
    fprintf(stderr,
            "usage: supervisor --solver EXE [--interactor EXE --case FILE --iarg A ...] [options]\n"
            "       supervisor --server   (requests on stdin: NUL-separated arguments, an empty one ends each)\n");
    errno = EINVAL;
    die("bad arguments");
}

static int run_case(int argc, char **argv);

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
        sigset_t mask;
        sigemptyset(&mask);
        sigaddset(&mask, SIGCHLD);
        sigprocmask(SIG_BLOCK, &mask, NULL);
        prctl(PR_SET_CHILD_SUBREAPER, 1);
        prctl(PR_SET_PDEATHSIG, SIGKILL);  /* dies with the judge that started it */
        return serve();
    }
    return run_case(argc, argv);
}

static int run_case(int argc, char **argv) {
    opt = DEFAULTS;
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define ARG(name) (strcmp(k, name) == 0 && v && (i++, 1))
        if (ARG("--solver")) opt.solver = v;
        else if (ARG("--solver-dir")) opt.solver_dir = v;
        else if (ARG("--stdin")) opt.solver_stdin = v;
        else if (ARG("--stdout")) opt.solver_stdout = v;
        else if (ARG("--stderr")) opt.solver_stderr = v;
        else if (ARG("--interactor")) { opt.inter = v; opt.interactive = 1; }
        else if (ARG("--interactor-dir")) opt.inter_dir = v;
        else if (ARG("--interactor-stderr")) opt.inter_stderr = v;
        else if (ARG("--case")) opt.case_path = v;
        else if (ARG("--iarg")) { if (opt.n_inter_args < MAX_LIST) opt.inter_args[opt.n_inter_args++] = v; }
        else if (ARG("--ienv")) { if (opt.n_inter_env < MAX_LIST) opt.inter_env[opt.n_inter_env++] = v; }
        else if (ARG("--argv0")) opt.argv0 = v;
        else if (ARG("--sarg")) { if (opt.n_solver_args < MAX_LIST) opt.solver_args[opt.n_solver_args++] = v; }
        else if (ARG("--senv")) { if (opt.n_solver_env < MAX_LIST) opt.solver_env[opt.n_solver_env++] = v; }
        else if (ARG("--hide")) { if (opt.n_hide < MAX_LIST) opt.hide[opt.n_hide++] = v; }
        else if (ARG("--cpu-ms")) opt.cpu_ms = atol(v);
        else if (ARG("--mem-kb")) opt.mem_kb = atol(v);
        else if (ARG("--as-kb")) opt.as_kb = atol(v);
        else if (ARG("--wall-ms")) opt.wall_ms = atol(v);
        else if (ARG("--grace-ms")) opt.grace_ms = atol(v);
        else if (ARG("--wall-hard-ms")) opt.wall_hard_ms = atol(v);
        else if (ARG("--nproc")) opt.nproc = atol(v);
        else if (ARG("--fsize-kb")) opt.fsize_kb = atol(v);
        else if (ARG("--interactor-cpu-ms")) opt.inter_cpu_ms = atol(v);
        else if (ARG("--interactor-as-kb")) opt.inter_as_kb = atol(v);
        else if (ARG("--uid")) opt.uid = atol(v);
        else if (ARG("--gid")) opt.gid = atol(v);
        else if (ARG("--cg-mem")) opt.cg_mem = v;
        else if (ARG("--cg-pids")) opt.cg_pids = v;
        else if (ARG("--cg-cpu")) opt.cg_cpu = v;
        else if (ARG("--cg-v2")) opt.cg_v2 = v;
        else if (strcmp(k, "--mountns") == 0) opt.mountns = 1;
        else usage();
#undef ARG
    }
    if (!opt.solver) usage();

    /* Reset the slot's cgroup counters and set its limits for this case. */
    char num[64];
    if (opt.cg_mem) {
        snprintf(num, sizeof num, "%ld", opt.mem_kb * 1024);
        write_file(opt.cg_mem, "memory.memsw.limit_in_bytes", "-1");
        if (write_file(opt.cg_mem, "memory.limit_in_bytes", num) < 0) die("memory.limit_in_bytes");
        write_file(opt.cg_mem, "memory.memsw.limit_in_bytes", num);  /* absent without swap accounting */
        write_file(opt.cg_mem, "memory.max_usage_in_bytes", "0");
    }
    if (opt.cg_pids) {
        snprintf(num, sizeof num, "%ld", opt.nproc);
        if (write_file(opt.cg_pids, "pids.max", num) < 0) die("pids.max");
    }
    if (opt.cg_cpu && write_file(opt.cg_cpu, "cpuacct.usage", "0") < 0) die("cpuacct.usage");
    long long oom_before = opt.cg_mem ? read_key(opt.cg_mem, "memory.oom_control", "oom_kill") : -1;
    long long oom_before_v2 = opt.cg_v2 ? read_key(opt.cg_v2, "memory.events", "oom_kill") : -1;
    long long cpu_before_v2 = opt.cg_v2 ? read_key(opt.cg_v2, "cpu.stat", "usage_usec") : -1;
    if (opt.cg_v2) {
        snprintf(num, sizeof num, "%ld", opt.mem_kb * 1024);
        if (write_file(opt.cg_v2, "memory.max", num) < 0) die("memory.max");
        write_file(opt.cg_v2, "memory.swap.max", "0");
        write_file(opt.cg_v2, "memory.peak", "0");  /* resettable on recent kernels */
        snprintf(num, sizeof num, "%ld", opt.nproc);
        write_file(opt.cg_v2, "pids.max", num);
    }

    prctl(PR_SET_CHILD_SUBREAPER, 1);
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGCHLD);
    sigprocmask(SIG_BLOCK, &mask, NULL);
    int sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
    int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
    if (sfd < 0 || tfd < 0) die("signalfd/timerfd");

    int exe_fd = open(opt.solver, O_PATH | O_CLOEXEC);
    if (exe_fd < 0) die("open solver");
    int errpipe[2];
    if (pipe2(errpipe, O_CLOEXEC) < 0) die("pipe");

    int s_err = open(opt.solver_stderr ? opt.solver_stderr : "/dev/null",
                     O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (s_err < 0) die("open solver stderr");

    struct proc sol = {0}, itr = {0};
    long start = now_us();
    long deadline = start + opt.wall_ms * 1000;

    if (opt.interactive) {
        int to_inter[2], to_solver[2];
        if (pipe2(to_inter, O_CLOEXEC) < 0 || pipe2(to_solver, O_CLOEXEC) < 0) die("pipe");
        int case_fd = opt.case_path ? open(opt.case_path, O_RDONLY | O_CLOEXEC) : -1;
        if (opt.case_path && case_fd < 0) die("open case");
        int i_err = open(opt.inter_stderr ? opt.inter_stderr : "/dev/null",
                         O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (i_err < 0) die("open interactor stderr");
        /* Interactor first: it logs its query limit before its first read, and the solver's
         * first write then finds a reader. */
        itr.pid = spawn_interactor(to_inter[0], to_solver[1], i_err, case_fd, errpipe[1]);
        sol.pid = spawn_solver(to_solver[0], to_inter[1], s_err, exe_fd, errpipe[1]);
        close(to_inter[0]); close(to_inter[1]); close(to_solver[0]); close(to_solver[1]);
        close(i_err);
        if (case_fd >= 0) close(case_fd);
    } else {
        int in = open(opt.solver_stdin ? opt.solver_stdin : "/dev/null", O_RDONLY | O_CLOEXEC);
        int out = open(opt.solver_stdout ? opt.solver_stdout : "/dev/null",
                       O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (in < 0 || out < 0) die("open batch stdin/stdout");
        sol.pid = spawn_solver(in, out, s_err, exe_fd, errpipe[1]);
        close(in); close(out);
    }
    close(s_err);
    close(errpipe[1]);

    struct itimerspec its = {{0, 0}, {0, 0}};
    its.it_value.tv_sec = deadline / 1000000;
    its.it_value.tv_nsec = (deadline % 1000000) * 1000;
    timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);

    int grace_phase = 0;
    int first = 0;  /* 1 solver first, 2 interactor first */
    long long sol_cpu_at_inter_exit = -1;
    int wall_timeout = 0;
    int sol_runnable_at_kill = -1, inter_runnable_at_kill = -1, sol_exiting_at_inter_exit = -1;
    long hard_deadline = start + (opt.wall_hard_ms > opt.wall_ms ? opt.wall_hard_ms : opt.wall_ms) * 1000;

    while (!sol.done || (itr.pid && !itr.done)) {
        struct pollfd pf[2] = {{sfd, POLLIN, 0}, {tfd, POLLIN, 0}};
        if (poll(pf, 2, -1) < 0) {
            if (errno == EINTR) continue;
            die("poll");
        }
        if (pf[0].revents & POLLIN) {
            struct signalfd_siginfo si;
            while (read(sfd, &si, sizeof si) > 0) {}
            for (;;) {
                int st;
                struct rusage ru;
                pid_t p = wait4(-1, &st, WNOHANG, &ru);
                if (p <= 0) break;
                struct proc *which = p == sol.pid ? &sol : (itr.pid && p == itr.pid) ? &itr : NULL;
                if (!which) continue;  /* an orphaned descendant we adopted */
                which->done = 1;
                which->status = st;
                which->ru = ru;
                which->end_us = now_us();
                if (!first) first = which == &sol ? 1 : 2;
                if (which == &sol) {
                    /* The program ends with its main process: whatever it forked dies now, so
                     * leftovers can neither hold the pipes open nor keep a core busy. */
                    kill_group(sol.pid);
                    kill_cgroup(opt.cg_pids ? opt.cg_pids : opt.cg_v2);
                }
                if (which == &itr && !sol.done) {
                    sol_cpu_at_inter_exit = solver_cpu_now_us(sol.pid);
                    sol_exiting_at_inter_exit = proc_exiting(sol.pid);
                    int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
                    if (sol.killed) {
                        /* already being ended by the wall-clock cap */
                    } else if (code == 0 || code == 7) {
                        /* Accepted: the solver gets a short grace to exit on its own. */
                        long g = now_us() + opt.grace_ms * 1000;
                        if (g < deadline) {
                            its.it_value.tv_sec = g / 1000000;
                            its.it_value.tv_nsec = (g % 1000000) * 1000;
                            timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
                        }
                        grace_phase = 1;
                    } else if (!sol.killed) {
                        /* The interactor has given its verdict: stop the solver at once. */
                        sol.killed = 1;
                        kill_group(sol.pid);
                        kill_cgroup(opt.cg_pids ? opt.cg_pids : opt.cg_v2);
                    }
                }
            }
        }
        if (pf[1].revents & POLLIN) {
            uint64_t ticks;
            (void)!read(tfd, &ticks, sizeof ticks);
            const char *cg = opt.cg_pids ? opt.cg_pids : opt.cg_v2;
            if (grace_phase && now_us() < deadline) {
                if (!sol.done) {
                    sol_runnable_at_kill = group_runnable(sol.pid, cg);
                    sol.killed = 2;
                    kill_group(sol.pid);
                    kill_cgroup(opt.cg_pids ? opt.cg_pids : opt.cg_v2);
                }
                grace_phase = 0;
                its.it_value.tv_sec = deadline / 1000000;
                its.it_value.tv_nsec = (deadline % 1000000) * 1000;
                timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
            } else if (now_us() < hard_deadline &&
                       ((!sol.done && group_runnable(sol.pid, cg) &&
                         solver_cpu_now_us(sol.pid) <= opt.cpu_ms * 1000) ||
                        (itr.pid && !itr.done && proc_state(itr.pid) == 'R'))) {
                /* Someone is still computing within its CPU budget (for the solver: its whole
                 * process tree, which a per-process CPU timer cannot see), nobody is stuck. Under
                 * load a working solver (or an interactor checking a final answer) must not be
                 * cut short by wall time alone; the cap is for runs where both sides wait. */
                long next = now_us() + 250000;
                if (next > hard_deadline) next = hard_deadline;
                its.it_value.tv_sec = next / 1000000;
                its.it_value.tv_nsec = (next % 1000000) * 1000;
                timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
            } else {
                wall_timeout = 1;
                if (!sol.done) sol_runnable_at_kill = group_runnable(sol.pid, cg);
                if (itr.pid && !itr.done) inter_runnable_at_kill = proc_state(itr.pid) == 'R';
                if (!sol.done) {
                    if (!sol.killed) sol.killed = 3;
                    kill_group(sol.pid);
                    kill_cgroup(opt.cg_pids ? opt.cg_pids : opt.cg_v2);
                }
                if (itr.pid && !itr.done) {
                    itr.killed = 3;
                    kill_group(itr.pid);
                }
            }
        }
    }
    long end = now_us();

    /* Whatever the solver left behind (forked children, a process that changed its group)
     * dies with the case. */
    kill_group(sol.pid);
    if (itr.pid) kill_group(itr.pid);
    kill_cgroup(opt.cg_pids ? opt.cg_pids : opt.cg_v2);
    kill_cgroup(opt.cg_mem);
    for (;;) {
        char path[128], buf[4096];
        snprintf(path, sizeof path, "/proc/self/task/%d/children", getpid());
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
        if (fd >= 0) close(fd);
        if (n > 0) {
            buf[n] = 0;
            for (char *p = buf; *p;) {
                long pid = strtol(p, &p, 10);
                if (pid > 0) kill((pid_t)pid, SIGKILL);
                while (*p == ' ' || *p == '\n') p++;
            }
        }
        pid_t p = waitpid(-1, NULL, n > 0 ? 0 : WNOHANG);
        if (p < 0 && errno == ECHILD) break;
        if (p == 0 && n <= 0) break;
    }

    char errbuf[512];
    ssize_t en = read(errpipe[0], errbuf, sizeof errbuf - 1);
    close(errpipe[0]);
    close(exe_fd);
    close(sfd);
    close(tfd);
    if (en > 0) {
        errbuf[en] = 0;
        printf("setup_error=%s\n", errbuf);
    }

    printf("wall_us=%ld\nwall_timeout=%d\nfirst_exit=%s\n", end - start, wall_timeout,
           first == 1 ? "solver" : first == 2 ? "interactor" : "none");
    print_proc("solver", &sol);
    printf("solver_wall_us=%ld\n", sol.end_us - start);
    if (sol_runnable_at_kill >= 0) printf("solver_runnable_at_kill=%d\n", sol_runnable_at_kill);
    if (sol_exiting_at_inter_exit >= 0) printf("solver_exiting_at_interactor_exit=%d\n", sol_exiting_at_inter_exit);
    if (inter_runnable_at_kill >= 0) printf("interactor_runnable_at_kill=%d\n", inter_runnable_at_kill);
    if (sol_cpu_at_inter_exit >= 0) printf("solver_cpu_at_interactor_exit_us=%lld\n", sol_cpu_at_inter_exit);
    if (itr.pid) {
        print_proc("interactor", &itr);
        printf("interactor_wall_us=%ld\n", itr.end_us - start);
    }
    if (opt.cg_cpu) printf("cg_cpu_us=%lld\n", read_ll(opt.cg_cpu, "cpuacct.usage") / 1000);
    if (opt.cg_mem) {
        printf("cg_peak_kb=%lld\n", read_ll(opt.cg_mem, "memory.max_usage_in_bytes") / 1024);
        long long oom = read_key(opt.cg_mem, "memory.oom_control", "oom_kill");
        printf("cg_oom=%d\n", oom >= 0 && oom_before >= 0 && oom > oom_before);
    }
    if (opt.cg_v2) {
        long long cpu = read_key(opt.cg_v2, "cpu.stat", "usage_usec");
        if (cpu >= 0 && cpu_before_v2 >= 0) printf("cg_cpu_us=%lld\n", cpu - cpu_before_v2);
        long long peak = read_ll(opt.cg_v2, "memory.peak");
        if (peak >= 0) printf("cg_peak_kb=%lld\n", peak / 1024);
        long long oom = read_key(opt.cg_v2, "memory.events", "oom_kill");
        printf("cg_oom=%d\n", oom >= 0 && oom_before_v2 >= 0 && oom > oom_before_v2);
    }
    fflush(stdout);
    return 0;
}
