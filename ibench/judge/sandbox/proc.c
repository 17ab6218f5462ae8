/* Part of supervisor.c, one translation unit (included there, in order): what /proc says of a case's processes: their tree, CPU, memory, state. */

struct proc {
    pid_t pid;
    int done;
    int status;
    struct rusage ru;
    long end_us;
    int killed;  /* 0 no; 1 by judge after the interactor's verdict; 2 grace; 3 wall; 4 CPU limit */
    pid_t inner;  /* in a box: the solver itself (pid is the box's init) */
    int rec_ready;  /* in a box: the init's record of the solver's end has been read */
    int rec_status;
    struct rusage rec_ru;
    long rec_end_us;
    long long cg_v2_base_us;
    long long init_children_base_us;  /* a sample's box: what its init had reaped before this case */
    long long others_cpu_us;  /* in a box: every other process of it, reaped by its init */
    long others_maxrss_kb;
    long tmpfs_kb;
};

static const char *kill_reason(int k) {
    switch (k) {
        case 1: return "judge";
        case 2: return "grace";
        case 3: return "wall";
        case 4: return "cpu";
        case 5: return "memory";
        default: return "none";
    }
}

static void kill_group(pid_t pgid) {
    if (pgid > 0) kill(-pgid, SIGKILL);
}

/* A small /proc file into `buf`, NUL-terminated: its length, or -1 when it cannot be read. */
static ssize_t read_proc(const char *path, char *buf, size_t size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = 0;
    return n;
}

/* The fields of /proc/PID/stat after the command name (which may hold spaces and parens), from
 * the state on; NULL when the file cannot be read. */
static char *stat_fields(pid_t pid, char *buf, size_t size) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    if (read_proc(path, buf, size) < 0) return NULL;
    char *p = strrchr(buf, ')');
    return p && p[1] == ' ' ? p + 2 : buf + strlen(buf);
}

/* Scheduler state of a process: 'R' when it is running or waiting for a CPU, 'S'/'D' when it
 * is blocked. Used when the wall-clock cap expires: a runnable solver is working (its CPU timer
 * will end it), a blocked one is idle. Unlike a CPU-per-wall ratio, this does not change with
 * how loaded the machine is. */
static char proc_state(pid_t pid) {
    char buf[512];
    char *f = stat_fields(pid, buf, sizeof buf);
    return f ? f[0] : 0;
}

/* Has the process begun to exit (PF_EXITING) or finished (zombie)? */
static int proc_exiting(pid_t pid) {
    char buf[512];
    char *f = stat_fields(pid, buf, sizeof buf);
    if (!f) return 1;
    char state = 0;
    unsigned int flags = 0;
    if (sscanf(f, "%c %*d %*d %*d %*d %*d %u", &state, &flags) != 2) return 0;
    return state == 'Z' || state == 'X' || (flags & 0x4) != 0;
}

/* CPU time of one process, all its threads: the scheduler's exact sum, not a sampled count. */
static long long proc_cpu_us(pid_t pid) {
    clockid_t c;
    struct timespec ts;
    if (clock_getcpuclockid(pid, &c) != 0 || clock_gettime(c, &ts) != 0) return 0;
    return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* CPU of the children a process has already waited for (its rusage will hold them). */
static long long waited_children_us(pid_t pid) {
    char buf[1024];
    char *f = stat_fields(pid, buf, sizeof buf);
    long long cut = 0, cst = 0;
    /* fields after ")": state(3) ... utime(14) stime(15) cutime(16) cstime(17) */
    if (!f || sscanf(f, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %lld %lld", &cut, &cst) != 2) return 0;
    return (cut + cst) * 1000000LL / sysconf(_SC_CLK_TCK);
}

/* Visit every live descendant of `pid` (children of each of its threads), `pid` included. */
static int walk_tree(pid_t pid, int depth, int budget, void (*visit)(pid_t, void *), void *arg) {
    if (budget <= 0 || depth > 32) return budget;
    visit(pid, arg);
    budget--;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *d = opendir(path);
    if (!d) return budget;
    struct dirent *e;
    while ((e = readdir(d)) && budget > 0) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        char cp[320], buf[4096];
        snprintf(cp, sizeof cp, "/proc/%d/task/%s/children", pid, e->d_name);
        if (read_proc(cp, buf, sizeof buf) < 0) continue;
        for (char *q = buf; *q && budget > 0;) {
            long c = strtol(q, &q, 10);
            if (c > 0) budget = walk_tree((pid_t)c, depth + 1, budget, visit, arg);
            while (*q == ' ' || *q == '\n') q++;
        }
    }
    closedir(d);
    return budget;
}

static void add_cpu(pid_t pid, void *arg) { *(long long *)arg += proc_cpu_us(pid) + waited_children_us(pid); }

/* The solver's CPU so far, its whole process tree, for decisions taken while it runs: the
 * slot's cgroup where there is one; otherwise every process of its box (children it never waits
 * for are reparented to the box's init, whose own setup time is left out) or of its tree. */
static long long solver_tree_cpu_us(struct proc *s);

/* Is any thread of the process running or waiting for a CPU (or for the disk)? The leader alone
 * would not do: the JVM's leader waits for its Java main thread, which does the work. */
static int proc_runnable(pid_t pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *d = opendir(path);
    if (!d) {
        char st = proc_state(pid);
        return st == 'R' || st == 'D';
    }
    int any = 0;
    struct dirent *e;
    while (!any && (e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        char sp[320], buf[512];
        snprintf(sp, sizeof sp, "/proc/%d/task/%s/stat", pid, e->d_name);
        if (read_proc(sp, buf, sizeof buf) < 0) continue;
        char *q = strrchr(buf, ')');
        if (q && q[1] == ' ' && (q[2] == 'R' || q[2] == 'D')) any = 1;
    }
    closedir(d);
    return any;
}

/* The solver's own pid on the host: in a box, the first child of the box's init. */
static pid_t solver_pid(struct proc *s) {
    if (!opt.box) return s->pid;
    if (s->inner <= 0 && !s->done) {
        char path[96], buf[256];
        snprintf(path, sizeof path, "/proc/%d/task/%d/children", s->pid, s->pid);
        if (read_proc(path, buf, sizeof buf) > 0) s->inner = (pid_t)strtol(buf, NULL, 10);
    }
    return s->inner > 0 ? s->inner : s->pid;
}

static long long solver_tree_cpu_us(struct proc *s) {
    if (opt.cg_cpu) {
        long long ns = read_ll(opt.cg_cpu, "cpuacct.usage");
        if (ns >= 0) return ns / 1000;
    }
    if (opt.cg_v2) {
        long long us = read_key(opt.cg_v2, "cpu.stat", "usage_usec");
        if (us >= 0) return us - s->cg_v2_base_us;
    }
    long long total = 0;
    walk_tree(s->pid, 0, 512, add_cpu, &total);
    /* the init itself (building the box is not the solver's) and, in a sample's box, the solvers of
     * the sample's earlier cases, which its init reaped */
    if (opt.box) total -= proc_cpu_us(s->pid) + s->init_children_base_us;
    return total;
}

static void arm_at(int fd, long at_us) {
    struct itimerspec t = {{0, 0}, {at_us / 1000000, (at_us % 1000000) * 1000}};
    timerfd_settime(fd, TFD_TIMER_ABSTIME, &t, NULL);
}

static void add_rss(pid_t pid, void *arg) {
    char path[64], buf[128];
    snprintf(path, sizeof path, "/proc/%d/statm", pid);
    if (read_proc(path, buf, sizeof buf) < 0) return;
    long size = 0, resident = 0;
    if (sscanf(buf, "%ld %ld", &size, &resident) == 2) *(long long *)arg += (long long)resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Resident memory of every process of the solver (its box's, but the init's), in KB. */
static long long solver_tree_rss_kb(struct proc *s) {
    long long total = 0;
    walk_tree(s->pid, 0, 512, add_rss, &total);
    if (opt.box) {
        long long init = 0;
        add_rss(s->pid, &init);
        total -= init;
    }
    return total;
}

/* A process is blocked writing into a pipe (the solver pushing output its judge does not read). */
static int blocked_in_pipe_write(pid_t pid) {
    char path[64], buf[64];
    snprintf(path, sizeof path, "/proc/%d/wchan", pid);
    if (read_proc(path, buf, sizeof buf) < 0) return 0;
    return strstr(buf, "pipe_write") != NULL || strstr(buf, "pipe_wait") != NULL;
}

