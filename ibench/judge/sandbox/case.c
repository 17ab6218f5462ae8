/* Part of supervisor.c, one translation unit (included there, in order): one case: ending the solver, the init's records, the report, and run_case itself. */

static void enter_epoch(void);  /* server.c: a new sample's network namespace */

/* End the solver. In a box only the solver is killed: its init then reaps it (so its CPU time
 * and peak memory are still reported) and exits, which ends everything else in the box. */
static void end_solver(struct proc *s) {
    if (!opt.box) {
        kill_group(s->pid);
        kill_cgroup(opt.cg_pids ? opt.cg_pids : opt.cg_v2);
        return;
    }
    if (s->rec_ready) return;  /* already ended; the init is on its way out */
    pid_t p = solver_pid(s);
    if (p != s->pid) {
        kill(-p, SIGKILL);
        kill(p, SIGKILL);
    }
    kill(s->pid, SIGUSR1);  /* the init kills it (or never starts it) and still reports it */
}

static int record_fd = -1;

/* Read the init's record of the solver's end if it has arrived (never blocks). */
static int poll_record(struct proc *s) {
    if (!opt.box || s->rec_ready || record_fd < 0) return s->rec_ready;
    struct box_record rec;
    if (read(record_fd, &rec, sizeof rec) == (ssize_t)sizeof rec) {
        s->rec_ready = 1;
        s->rec_status = rec.status;
        s->rec_ru = rec.ru;
        s->rec_end_us = rec.end_us;
        s->others_cpu_us = rec.others_cpu_us;
        s->others_maxrss_kb = rec.others_maxrss_kb;
        s->tmpfs_kb = rec.tmpfs_kb;
    }
    return s->rec_ready;
}

/* The solver's end, from its init's record (once read, the record is the only witness). */
static void take_record(struct proc *s, int *first) {
    if (s->done || !poll_record(s)) return;
    s->done = 1;
    s->status = s->rec_status;
    s->ru = s->rec_ru;
    s->end_us = s->rec_end_us > 0 ? s->rec_end_us : now_us();
    if (!*first) *first = 1;
}

/* Had the solver begun to exit (or ended)? In a box its init's record says so for certain. */
static int solver_exiting(struct proc *s) {
    if (!opt.box) return proc_exiting(s->pid);
    if (poll_record(s)) return 1;
    pid_t p = solver_pid(s);
    return p != s->pid ? proc_exiting(p) : 0;
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

/* "dir|value" of the last limit written, so an unchanged one is not written again; a pair too
 * long to keep is never taken as the same. */
static int same_limit(const char *last, size_t size, const char *dir, const char *value) {
    char now[4200];
    int n = snprintf(now, sizeof now, "%s|%s", dir, value);
    return n > 0 && (size_t)n < sizeof now && (size_t)n < size && strcmp(now, last) == 0;
}

static void remember_limit(char *last, size_t size, const char *dir, const char *value) {
    int n = snprintf(last, size, "%s|%s", dir, value);
    if (n < 0 || (size_t)n >= size) last[0] = 0;
}

/* Where a case's time goes (scripts/bench_judge.py --phases): clock readings at fixed points of
 * run_case, reported relative to its start when IBENCH_SUPERVISOR_PHASES is set. */
static long phase_at[8];
static int phases_on = -1;
#define PHASE(i) (phase_at[i] = now_us())

/* One request's arguments into `opt` (a bad one ends the process: the judge sent it), checked. */
static void parse_case_args(int argc, char **argv) {
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
        else if (ARG("--prefill")) opt.prefill = v;
        else if (ARG("--iarg")) { if (opt.n_inter_args < MAX_LIST) opt.inter_args[opt.n_inter_args++] = v; }
        else if (ARG("--ienv")) { if (opt.n_inter_env < MAX_LIST) opt.inter_env[opt.n_inter_env++] = v; }
        else if (ARG("--argv0")) opt.argv0 = v;
        else if (ARG("--sarg")) { if (opt.n_solver_args < MAX_LIST) opt.solver_args[opt.n_solver_args++] = v; }
        else if (ARG("--senv")) { if (opt.n_solver_env < MAX_LIST) opt.solver_env[opt.n_solver_env++] = v; }
        else if (ARG("--bind")) {
            if (opt.n_bind < MAX_BINDS) { opt.bind_src[opt.n_bind] = opt.bind_dst[opt.n_bind] = v; opt.n_bind++; }
        }
        else if (ARG("--bind-at")) { if (opt.n_bind > 0) opt.bind_dst[opt.n_bind - 1] = v; }
        else if (ARG("--workdir")) opt.workdir = v;
        else if (ARG("--export")) opt.export_name = v;
        else if (ARG("--export-to")) opt.export_to = v;
        else if (ARG("--box-kb")) opt.box_kb = atol(v);
        else if (ARG("--cpu")) opt.cpu = atol(v);
        else if (ARG("--net-epoch")) opt.net_epoch = atol(v);
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
        else if (strcmp(k, "--box") == 0) opt.box = 1;
        else if (strcmp(k, "--sockets") == 0) opt.sockets = 1;
        else if (strcmp(k, "--landlock") == 0) opt.landlock = 1;
        else if (strcmp(k, "--userns") == 0) opt.box = opt.userns = 1;
        else usage();
#undef ARG
    }
    if (!opt.solver || !opt.solver_dir) usage();
    if (opt.box_kb <= 0) opt.box_kb = opt.fsize_kb;
    /* The judge's ids, read once: a server's own user namespace maps them to themselves. */
    static long outer_uid = -1, outer_gid = -1;
    if (outer_uid < 0) {
        outer_uid = (long)getuid();
        outer_gid = (long)getgid();
    }
    opt.outer_uid = outer_uid;
    opt.outer_gid = outer_gid;
    for (int i = 0; i < opt.n_bind; i++)
        if (opt.bind_src[i][0] != '/' || opt.bind_dst[i][0] != '/') {
            errno = EINVAL;
            die("bind paths must be absolute");
        }
    if (opt.workdir[0] != '/' || (opt.export_name && strchr(opt.export_name, '/'))) {
        errno = EINVAL;
        die("--workdir must be absolute and --export a plain file name");
    }
}

static int run_case(int argc, char **argv) {
    if (phases_on < 0) phases_on = getenv("IBENCH_SUPERVISOR_PHASES") != NULL;
    PHASE(0);
    parse_case_args(argc, argv);
    if (server_mode && opt.box && opt.net_epoch >= 0 && opt.net_epoch != server_net_epoch) enter_epoch();
    if (server_mode) set_cpu(opt.cpu);  /* the interactor (and a one-case box) forked below inherit it */

    PHASE(1);
    sigset_t mask, held;
    sigemptyset(&mask);
    sigaddset(&mask, SIGCHLD);
    held = mask;
    sigaddset(&held, SIGUSR1);  /* held for a box's init until it can handle it */
    if (!server_mode) {  /* (a server did both at its start) */
        prctl(PR_SET_CHILD_SUBREAPER, 1);
        sigprocmask(SIG_BLOCK, &held, NULL);  /* before any fork: an early exit is a pending SIGCHLD */
    }
    int errpipe[2], recpipe[2] = {-1, -1};
    if (pipe2(errpipe, O_CLOEXEC) < 0) die("pipe");

    struct proc sol = {0}, itr = {0};
    int pending_fd = -1;
    long long prefill_bytes = 0;
    const char *prefill_how = NULL;
    pid_t relay_pid = 0, relay_pid_seen = 0;
    int to_inter[2] = {-1, -1}, to_solver[2] = {-1, -1}, case_fd = -1, i_err = -1;
    struct deadlock_watch dl = {0, 0, 0, 0, 0};
    long start = now_us();  /* the run's (and the interactor's) clock; the solver's starts below */

    /* The interactor first, before the solver's side is prepared: a testlib interactor spends
     * about a millisecond of CPU starting up (the loader, libstdc++, testlib's set-up), the
     * longest part of a short case, and it owes nothing to the slot's cgroups or its box, so it
     * starts while the last case's box is cleaned and the counters are reset. It logs its query
     * limit before its first read, and the solver's first write then finds a reader. */
    if (opt.interactive) {
        if (pipe2(to_inter, O_CLOEXEC) < 0 || pipe2(to_solver, O_CLOEXEC) < 0) die("pipe");
        struct stat pa, pb;
        if (fstat(to_solver[0], &pa) == 0 && fstat(to_inter[0], &pb) == 0) {
            dl.sol_in = (unsigned long)pa.st_ino;
            dl.itr_in = (unsigned long)pb.st_ino;
        }
        case_fd = opt.case_path ? open(opt.case_path, O_RDONLY | O_CLOEXEC) : -1;
        if (opt.case_path && case_fd < 0) die("open case");
        i_err = open(opt.inter_stderr ? opt.inter_stderr : "/dev/null",
                     O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (i_err < 0) die("open interactor stderr");
        int inter_out = to_solver[1];  /* where the interactor writes */
        if (opt.prefill) {
            /* Before anything is spawned: the prefill comes first on the solver's stdin. */
            int pf = open(opt.prefill, O_RDONLY | O_CLOEXEC);
            struct stat pst;
            if (pf < 0) die("open prefill");
            if (fstat(pf, &pst) < 0 || !S_ISREG(pst.st_mode)) { errno = EINVAL; die("prefill is not a regular file"); }
            prefill_bytes = (long long)pst.st_size;
            long long done = prefill_direct(to_solver[1], pf, prefill_bytes);
            prefill_how = "direct";
            if (done < prefill_bytes) {
                int rp[2];
                if (pipe2(rp, O_CLOEXEC) < 0) die("pipe");
                relay_pid = relay_pid_seen = spawn_relay(pf, done, rp[0], to_solver[1]);
                close(rp[0]);
                inter_out = rp[1];
                prefill_how = "relay";
            }
            close(pf);
        }
        PHASE(2);
        itr.pid = spawn_interactor(to_inter[0], inter_out, i_err, case_fd, errpipe[1]);
        /* Only to measure what the solver wrote and its judge has not read yet (FIONREAD); closed
         * as soon as the interactor ends, so a solver writing after that still meets EPIPE. */
        pending_fd = fcntl(to_inter[0], F_DUPFD_CLOEXEC, 3);
        if (inter_out != to_solver[1]) close(inter_out);
        close(to_inter[0]);
        close(i_err);
        if (case_fd >= 0) close(case_fd);
    } else {
        PHASE(2);  /* no interactor: its reading is the descriptors' */
    }

    zygote_wait_clean();  /* the last case's box clean-up, before this case's counters start */
    /* Nothing but this server's own box may be in the slot's cgroups when the counters start:
     * another judge of the same process shares the slot (and may have left its box there). */
    if (opt.cg_pids || opt.cg_v2) kill_cgroup_but(opt.cg_pids ? opt.cg_pids : opt.cg_v2, zy.pid);
    /* Reset the slot's cgroup counters and set its limits for this case. */
    char num[64];
    /* The limits are written when they differ from the last ones this server wrote to the same
     * cgroup (it is the one writer of its slot's cgroups; a process that moves to another slot
     * keeps its server, so the cgroup is part of what is compared); the counters every time. */
    static char last_mem[4200], last_pids[4200];
    if (opt.cg_mem) {
        snprintf(num, sizeof num, "%ld", opt.mem_kb * 1024);
        if (!same_limit(last_mem, sizeof last_mem, opt.cg_mem, num)) {
            last_mem[0] = 0;
            ctl_write(opt.cg_mem, "memory.memsw.limit_in_bytes", "-1");
            if (ctl_write(opt.cg_mem, "memory.limit_in_bytes", num) < 0) die("memory.limit_in_bytes");
            ctl_write(opt.cg_mem, "memory.memsw.limit_in_bytes", num);  /* absent without swap accounting */
            remember_limit(last_mem, sizeof last_mem, opt.cg_mem, num);
        }
        ctl_write(opt.cg_mem, "memory.max_usage_in_bytes", "0");
    }
    if (opt.cg_pids) {
        snprintf(num, sizeof num, "%ld", opt.nproc);
        if (!same_limit(last_pids, sizeof last_pids, opt.cg_pids, num)) {
            last_pids[0] = 0;
            if (ctl_write(opt.cg_pids, "pids.max", num) < 0) die("pids.max");
            remember_limit(last_pids, sizeof last_pids, opt.cg_pids, num);
        }
    }
    if (opt.cg_cpu && ctl_write(opt.cg_cpu, "cpuacct.usage", "0") < 0) die("cpuacct.usage");
    long long oom_before = opt.cg_mem ? read_key(opt.cg_mem, "memory.oom_control", "oom_kill") : -1;
    long long oom_before_v2 = opt.cg_v2 ? read_key(opt.cg_v2, "memory.events", "oom_kill") : -1;
    long long cpu_before_v2 = opt.cg_v2 ? read_key(opt.cg_v2, "cpu.stat", "usage_usec") : -1;
    long long cg_v2_base = cpu_before_v2 > 0 ? cpu_before_v2 : 0;
    if (opt.cg_v2) {
        snprintf(num, sizeof num, "%ld", opt.mem_kb * 1024);
        if (ctl_write(opt.cg_v2, "memory.max", num) < 0) die("memory.max");
        ctl_write(opt.cg_v2, "memory.swap.max", "0");
        ctl_write(opt.cg_v2, "memory.peak", "0");  /* resettable on recent kernels */
        snprintf(num, sizeof num, "%ld", opt.nproc);
        ctl_write(opt.cg_v2, "pids.max", num);
    }
    sol.cg_v2_base_us = cg_v2_base;
    /* One signalfd and two timers serve every case of a process: each case arms both timers
     * before it waits, which drops an expiry left over from the case before; a SIGCHLD left
     * pending only makes the loop look for exited children once more. */
    static int sfd = -1, tfd = -1, cpu_tfd = -1, dl_tfd = -1;
    if (sfd < 0) sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
    if (tfd < 0) tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
    if (cpu_tfd < 0) cpu_tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
    if (dl_tfd < 0) dl_tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
    /* Without a memory cgroup nothing stops a process whose resident memory passes the limit
     * (RLIMIT_AS caps reservations, not use): the supervisor looks every 10 ms, as the cgroup would
     * stop it, so MLE does not wait for the CPU time the page faults cost (and turn into TLE). */
    int mem_tfd = (!opt.cg_mem && !opt.cg_v2) ? timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC) : -1;
    if (sfd < 0 || tfd < 0 || cpu_tfd < 0) die("signalfd/timerfd");
    long long rss_at_kill_kb = -1;
    static long cpus = 0, cpus_for = -4;  /* how many CPUs this process may use (per affinity set) */
    if (cpus == 0 || cpus_for != cpu_applied) {
        cpu_set_t cs;
        cpus = sched_getaffinity(0, sizeof cs, &cs) == 0 && CPU_COUNT(&cs) > 0 ? CPU_COUNT(&cs) : 1;
        cpus_for = cpu_applied;
    }
    int exe_fd = open(opt.solver, O_PATH | O_CLOEXEC);
    if (exe_fd < 0) die("open solver");
    /* A one-case box (a compile) leaves the slot's box as it is: idle, it holds no case's
     * descriptor, and the next sample's cases find it (their epoch and binds decide). */
    int use_zy = zygote_usable();
    if (!opt.box && zy.pid > 0) zygote_drop();  /* a run without a box: the slot has none either */
    if (opt.box && !use_zy && pipe2(recpipe, O_CLOEXEC | O_NONBLOCK) < 0) die("pipe");
    record_fd = recpipe[0];
    /* The export target is created here, by the judge's side, and never opened through a link. */
    int export_fd = -1;
    if (opt.export_name && opt.export_to) {
        export_fd = open(opt.export_to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (export_fd < 0) die("create export file");
    }

    int s_err = open(opt.solver_stderr ? opt.solver_stderr : "/dev/null",
                     O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (s_err < 0) die("open solver stderr");

    /* Every wall-clock limit counts from the solver's start, whatever the set-up above took. */
    long sol_start = now_us();
    long deadline = sol_start + opt.wall_ms * 1000;
    if (opt.interactive) {
        if (use_zy && zy.pid > 0) sol.init_children_base_us = waited_children_us(zy.pid);
        sol.pid = use_zy ? zygote_case(to_solver[0], to_inter[1], s_err, exe_fd, errpipe[1])
                         : spawn_solver(to_solver[0], to_inter[1], s_err, exe_fd, errpipe[1], recpipe[1], export_fd);
        close(to_inter[1]); close(to_solver[0]); close(to_solver[1]);
    } else {
        int in = open(opt.solver_stdin ? opt.solver_stdin : "/dev/null", O_RDONLY | O_CLOEXEC);
        int out = open(opt.solver_stdout ? opt.solver_stdout : "/dev/null",
                       O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (in < 0 || out < 0) die("open batch stdin/stdout");
        if (use_zy && zy.pid > 0) sol.init_children_base_us = waited_children_us(zy.pid);
        sol.pid = use_zy ? zygote_case(in, out, s_err, exe_fd, errpipe[1])
                         : spawn_solver(in, out, s_err, exe_fd, errpipe[1], recpipe[1], export_fd);
        close(in); close(out);
    }
    PHASE(3);
    close(s_err);
    close(errpipe[1]);
    if (recpipe[1] >= 0) close(recpipe[1]);
    if (use_zy) record_fd = zy.rec;

    struct itimerspec its = {{0, 0}, {0, 0}};
    its.it_value.tv_sec = deadline / 1000000;
    its.it_value.tv_nsec = (deadline % 1000000) * 1000;
    timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
    /* CPU checks: the first when the solver could have used its whole limit, then again for what
     * is left. CPU time advances at most `cpus` times as fast as the clock. */
    if (cpu_tfd >= 0) arm_at(cpu_tfd, sol_start + opt.cpu_ms * 1000 / cpus + 1000);
    if (mem_tfd >= 0) {
        struct itimerspec every = {{0, 10000000}, {0, 10000000}};
        timerfd_settime(mem_tfd, 0, &every, NULL);
    }
    /* Deadlock looks while both sides run (not through a prefill relay, a third party to the
     * solver's input); armed every case, which also drops an expiry left from the case before. */
    int dl_on = opt.interactive && relay_pid <= 0 && dl.sol_in && dl.itr_in && dl_tfd >= 0;
    {
        struct itimerspec every = {{0, dl_on ? DL_CHECK_US * 1000L : 0}, {0, dl_on ? DL_CHECK_US * 1000L : 0}};
        if (dl_tfd >= 0) timerfd_settime(dl_tfd, 0, &every, NULL);
    }
    int deadlock = 0;
    long deadlock_after_us = -1;
    struct activity act = {sol_start, 0, 0, 0};  /* the solver's CPU and run-delay: none at its start */
    int grace_sampled = 0;

    int grace_phase = 0;
    int first = 0;  /* 1 solver first, 2 interactor first */
    long long sol_cpu_at_inter_exit = -1;
    int wall_timeout = 0;
    int sol_runnable_at_kill = -1, inter_runnable_at_kill = -1, sol_exiting_at_inter_exit = -1;
    int sol_output_pending = -1, sol_blocked_writing = -1, sol_output_closed = -1;
    int inter_term_sent = 0;
    long hard_deadline = sol_start + (opt.wall_hard_ms > opt.wall_ms ? opt.wall_hard_ms : opt.wall_ms) * 1000;
    long starve_deadline = sol_start + 4 * (hard_deadline - sol_start);

    /* In a box the solver has ended when its init's record arrives; a one-case box's init is
     * still waited for (it may have an export to finish), a sample's box is kept. */
    int init_reaped = 0;
    int wait_for_init = opt.box && !use_zy;
    while (!sol.done || (itr.pid && !itr.done) || (wait_for_init && !init_reaped)) {
        struct pollfd pf[6] = {{sfd, POLLIN, 0}, {tfd, POLLIN, 0}, {-1, POLLIN, 0}, {cpu_tfd, POLLIN, 0},
                               {sol.done || sol.killed ? -1 : mem_tfd, POLLIN, 0},
                               {dl_on && !sol.done && !sol.killed && !itr.done ? dl_tfd : -1, POLLIN, 0}};
        if (opt.box && !sol.done) pf[2].fd = record_fd;
        if (poll(pf, 6, -1) < 0) {
            if (errno == EINTR) continue;
            die("poll");
        }
        if (pf[4].revents & POLLIN) {
            uint64_t ticks;
            (void)!read(mem_tfd, &ticks, sizeof ticks);
            if (!sol.done && !sol.killed) {
                long long rss = solver_tree_rss_kb(&sol);
                if (rss > opt.mem_kb) {
                    rss_at_kill_kb = rss;
                    sol.killed = 5;  /* over the memory limit, resident: MLE, as a cgroup would rule */
                    end_solver(&sol);
                }
            }
        }
        if (pf[5].revents & POLLIN) {
            uint64_t ticks;
            (void)!read(dl_tfd, &ticks, sizeof ticks);
            if (!sol.done && !sol.killed && itr.pid && !itr.done && deadlock_look(&dl, &sol, itr.pid, pending_fd)) {
                /* Each side waits to read what only the other can write: nothing can happen.
                 * IDLE now, as the wall cap would rule it later (the interactor's SIGTERM and
                 * transcript as there). */
                deadlock = 1;
                deadlock_after_us = now_us() - dl.first_us;
                wall_timeout = 1;
                sol_runnable_at_kill = 0;
                inter_runnable_at_kill = 0;
                sol.killed = 3;
                end_solver(&sol);
                itr.killed = 3;
                kill(itr.pid, SIGTERM);
                inter_term_sent = 1;
                arm_at(tfd, now_us() + 100000);
            }
        }
        if (pf[3].revents & POLLIN) {
            uint64_t ticks;
            (void)!read(cpu_tfd, &ticks, sizeof ticks);
            if (!sol.done && !sol.killed) {
                long long used = solver_tree_cpu_us(&sol);
                long long left = opt.cpu_ms * 1000LL - used;
                if (left < 0) {
                    sol.killed = 4;  /* over the limit by an exact reading: TLE */
                    end_solver(&sol);
                } else {
                    long step = (long)(left / cpus);
                    arm_at(cpu_tfd, now_us() + (step < 2000 ? 2000 : step));
                }
            }
        }
        if ((pf[2].revents & (POLLIN | POLLHUP)) && !sol.done) take_record(&sol, &first);
        if (pf[0].revents & POLLIN) {
            struct signalfd_siginfo si;
            while (read(sfd, &si, sizeof si) > 0) {}
            for (;;) {
                int st;
                struct rusage ru;
                pid_t p = wait4(-1, &st, WNOHANG, &ru);
                if (p <= 0) break;
                if (p == relay_pid) relay_pid = 0;  /* reaped: its pid is no longer ours to kill */
                if (itr.pid && p == itr.pid && pending_fd >= 0) {
                    /* Had the solver closed its output (no writer left on the interactor's input)? */
                    struct pollfd q = {pending_fd, POLLIN, 0};
                    sol_output_closed = poll(&q, 1, 0) > 0 && (q.revents & POLLHUP) ? 1 : 0;
                    close(pending_fd);
                    pending_fd = -1;
                }
                if (p == sol.pid && opt.box) init_reaped = 1;
                if (p == sol.pid && sol.done) continue;  /* the box's init, after its record */
                struct proc *which = p == sol.pid ? &sol : (itr.pid && p == itr.pid) ? &itr : NULL;
                if (!which) {
                    /* an orphaned descendant we adopted (no box): still the solver's cost */
                    if (p != relay_pid_seen) {
                        sol.others_cpu_us += ru_us(&ru);
                        sol.others_maxrss_kb += ru.ru_maxrss;
                    }
                    continue;
                }
                which->done = 1;
                which->status = st;
                which->ru = ru;
                which->end_us = now_us();
                if (which == &sol && opt.box && poll_record(&sol)) {
                    /* the init's record is the solver's own status; none: the init itself failed */
                    sol.status = sol.rec_status;
                    sol.ru = sol.rec_ru;
                    if (sol.rec_end_us > 0 && sol.rec_end_us < sol.end_us) sol.end_us = sol.rec_end_us;
                }
                if (!first) first = which == &sol ? 1 : 2;
                if (which == &sol && !opt.box) {
                    /* The program ends with its main process: whatever it forked dies now, so
                     * leftovers can neither hold the pipes open nor keep a core busy. (A box's
                     * init does the same inside the box.) */
                    kill_group(sol.pid);
                    kill_cgroup(opt.cg_pids ? opt.cg_pids : opt.cg_v2);
                }
                if (which == &itr && !sol.done) {
                    sol_exiting_at_inter_exit = solver_exiting(&sol);
                    sol_cpu_at_inter_exit = sol.rec_ready && !opt.cg_cpu && !opt.cg_v2
                        ? ru_us(&sol.rec_ru) + sol.others_cpu_us
                        : solver_tree_cpu_us(&sol);
                    int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
                    /* A record read just now: the solver ended on its own, nothing to stop (its
                     * record is consumed, so it must count as the solver's end here). */
                    if (sol.rec_ready) take_record(&sol, &first);
                    if (sol.done) {
                    } else if (sol.killed) {
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
                    } else if (sol_output_closed == 1) {
                        /* It rejected what ended with the solver's output: the solver's own end
                         * decides (a crash is RE, a spin TLE), as the ICPC tools wait for it. It
                         * runs on within its limits; the clock and its CPU check stop it. */
                    } else if (!sol.killed) {
                        /* The interactor has given its verdict: stop the solver at once. */
                        sol.killed = 1;
                        end_solver(&sol);
                    }
                }
            }
        }
        if (pf[1].revents & POLLIN) {
            uint64_t ticks;
            (void)!read(tfd, &ticks, sizeof ticks);
            if (inter_term_sent && itr.pid && !itr.done) {
                kill_group(itr.pid);  /* the interactor had its 100 ms after SIGTERM */
                continue;
            }
            if (sol.done && (!itr.pid || itr.done)) continue;  /* only a box's init is left: no timeout */
            int sol_active = 0;  /* read once per expiry (it moves the window on), below */
            if (grace_phase && now_us() < deadline) {
                if (!sol.done) {
                    /* The grace is the solver's own time, not the clock's: a solver that is
                     * runnable but has not had the CPU (a loaded node), or that still waits for
                     * the relay to pass on the interactor's end, gets its turn. */
                    if (!grace_sampled) {
                        /* the solver's activity is read over a window of its own, from now */
                        activity_sample(&sol, &act);
                        grace_sampled = 1;
                        arm_at(tfd, now_us() + 50000);
                        continue;
                    }
                    int runnable = activity_since(&sol, &act);
                    long long used = solver_tree_cpu_us(&sol) - (sol_cpu_at_inter_exit > 0 ? sol_cpu_at_inter_exit : 0);
                    long long want = opt.grace_ms * 1000LL;
                    if ((runnable || relay_pid > 0) && used < want && now_us() < starve_deadline) {
                        long g = now_us() + (long)(want - used);
                        if (g > starve_deadline) g = starve_deadline;
                        arm_at(tfd, g);
                        continue;
                    }
                    sol_runnable_at_kill = runnable;
                    sol.killed = 2;
                    end_solver(&sol);
                }
                grace_phase = 0;
                its.it_value.tv_sec = deadline / 1000000;
                its.it_value.tv_nsec = (deadline % 1000000) * 1000;
                timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
            } else if ((!sol.done && (sol_active = activity_since(&sol, &act)) && now_us() < starve_deadline &&
                        solver_tree_cpu_us(&sol) <= opt.cpu_ms * 1000) ||
                       (now_us() < hard_deadline && itr.pid && !itr.done && proc_runnable(itr.pid))) {
                /* Someone is still computing within its CPU budget (for the solver: its whole
                 * process tree, which a per-process CPU timer cannot see), nobody is stuck. Under
                 * load a working solver (or an interactor checking a final answer) must not be
                 * cut short by wall time alone; the cap is for runs where both sides wait. A
                 * runnable solver within its CPU limit is given up to four times the interactor's
                 * hard cap: its CPU check, not the clock, ends it. */
                arm_at(tfd, now_us() + 250000);
            } else {
                wall_timeout = 1;
                if (!sol.done) sol_runnable_at_kill = sol_active;
                if (itr.pid && !itr.done) inter_runnable_at_kill = proc_runnable(itr.pid);
                if (!sol.done && pending_fd >= 0) {
                    /* Is the interactor still busy because of the solver's own output? */
                    int n = 0;
                    if (ioctl(pending_fd, FIONREAD, &n) == 0) sol_output_pending = n;
                    sol_blocked_writing = blocked_in_pipe_write(solver_pid(&sol));
                }
                if (!sol.done) {
                    if (!sol.killed) sol.killed = 3;
                    end_solver(&sol);
                }
                if (itr.pid && !itr.done) {
                    /* SIGTERM first: ibench's header then writes its transcript (the exchange of
                     * an IDLE case is worth reading); SIGKILL follows in 100 ms. */
                    itr.killed = 3;
                    kill(itr.pid, SIGTERM);
                    inter_term_sent = 1;
                    arm_at(tfd, now_us() + 100000);
                }
            }
        }
    }
    long end = now_us();
    PHASE(4);
    if (use_zy && zy.pid > 0) zy.dirty = 1;  /* its "clean" record comes while this report is read */

    /* Whatever the solver left behind (forked children, a process that changed its group)
     * dies with the case; a sample's box is kept for the next case. */
    if (use_zy) {
        if (init_reaped) {  /* the sample's box died: the next case builds a new one */
            zy.pid = 0;
            zygote_drop();
        }
    } else {
        kill_group(sol.pid);
    }
    if (itr.pid) kill_group(itr.pid);
    if (relay_pid > 0) kill(relay_pid, SIGKILL);  /* reaped below with every other child */
    if (zy.pid <= 0) {
        kill_cgroup(opt.cg_pids ? opt.cg_pids : opt.cg_v2);
        kill_cgroup(opt.cg_mem);
    }
    for (;;) {
        char dir[64], buf[4096];
        static pid_t self = 0;
        if (!self) self = getpid();
        snprintf(dir, sizeof dir, "/proc/self/task/%d", self);
        ssize_t n = ctl_read(dir, "children", buf, sizeof buf) == 0 ? (ssize_t)strlen(buf) : -1;
        if (n > 0) {
            buf[n] = 0;
            int others = 0;
            for (char *p = buf; *p;) {
                long pid = strtol(p, &p, 10);
                if (pid > 0 && pid != zy.pid) {
                    kill((pid_t)pid, SIGKILL);
                    others++;
                }
                while (*p == ' ' || *p == '\n') p++;
            }
            if (!others) n = 0;  /* only the sample's box, kept for the next case */
        }
        struct rusage ru;
        pid_t p = wait4(-1, NULL, n > 0 ? 0 : WNOHANG, &ru);
        if (p < 0 && errno == ECHILD) break;
        if (p == 0 && n <= 0) break;
        if (p > 0 && !opt.box && p != relay_pid_seen && p != itr.pid) {
            sol.others_cpu_us += ru_us(&ru);  /* what the solver left running, ended just now */
            sol.others_maxrss_kb += ru.ru_maxrss;
        }
    }

    /* Without a box the working dir is the host scratch dir: its export is read from there,
     * never through a link. */
    if (!opt.box && export_fd >= 0) {
        int dirfd = open(opt.solver_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dirfd >= 0) {
            export_file(dirfd, export_fd);
            close(dirfd);
        }
    }
    if (export_fd >= 0) close(export_fd);
    if (recpipe[0] >= 0) {
        /* a one-case box's init wrote what it reaped after the solver before it exited */
        struct box_record late;
        if (init_reaped && read(recpipe[0], &late, sizeof late) == (ssize_t)sizeof late && late.late) {
            sol.others_cpu_us = late.others_cpu_us;
            sol.others_maxrss_kb = late.others_maxrss_kb;
            sol.tmpfs_kb = late.tmpfs_kb;
        }
        close(recpipe[0]);
    }
    record_fd = -1;

    char errbuf[512];
    ssize_t en = read(errpipe[0], errbuf, sizeof errbuf - 1);
    close(errpipe[0]);
    close(exe_fd);
    if (mem_tfd >= 0) close(mem_tfd);
    if (pending_fd >= 0) close(pending_fd);
    if (en > 0) {
        errbuf[en] = 0;
        printf("setup_error=%s\n", errbuf);
    } else if (opt.box && !sol.rec_ready && sol.done && WIFEXITED(sol.status) && WEXITSTATUS(sol.status) == 125) {
        /* the box's init could not start the solver (its clone failed): nothing of the
         * program's ran, so nothing about it can be reported */
        printf("setup_error=the box's init could not start the solver (clone failed)\n");
    }

    PHASE(5);
    if (phases_on > 0)  /* setup, interactor spawned, solver handed over, run over, cleaned up; solver's end */
        printf("phases_us=%ld,%ld,%ld,%ld,%ld,%ld\n", phase_at[1] - phase_at[0], phase_at[2] - phase_at[0],
               phase_at[3] - phase_at[0], phase_at[4] - phase_at[0], phase_at[5] - phase_at[0], sol.end_us - phase_at[0]);
    printf("wall_us=%ld\nwall_timeout=%d\nfirst_exit=%s\n", end - start, wall_timeout,
           first == 1 ? "solver" : first == 2 ? "interactor" : "none");
    print_proc("solver", &sol);
    printf("solver_wall_us=%ld\n", sol.end_us - sol_start);
    printf("solver_others_cpu_us=%lld\nsolver_others_maxrss_kb=%ld\n", sol.others_cpu_us, sol.others_maxrss_kb);
    if (opt.box) printf("box_tmpfs_kb=%ld\n", sol.tmpfs_kb);
    if (sol_runnable_at_kill >= 0) printf("solver_runnable_at_kill=%d\n", sol_runnable_at_kill);
    if (deadlock) printf("deadlock=1\ndeadlock_after_us=%ld\n", deadlock_after_us);
    if (sol_exiting_at_inter_exit >= 0) printf("solver_exiting_at_interactor_exit=%d\n", sol_exiting_at_inter_exit);
    if (inter_runnable_at_kill >= 0) printf("interactor_runnable_at_kill=%d\n", inter_runnable_at_kill);
    if (sol_output_pending >= 0) printf("solver_output_pending=%d\n", sol_output_pending);
    if (sol_output_closed >= 0) printf("solver_output_closed_at_interactor_exit=%d\n", sol_output_closed);
    if (rss_at_kill_kb >= 0) printf("solver_rss_at_kill_kb=%lld\n", rss_at_kill_kb);
    if (sol_blocked_writing >= 0) printf("solver_blocked_writing=%d\n", sol_blocked_writing);
    if (prefill_how) printf("prefill=%s\nprefill_bytes=%lld\n", prefill_how, prefill_bytes);
    if (sol_cpu_at_inter_exit >= 0) printf("solver_cpu_at_interactor_exit_us=%lld\n", sol_cpu_at_inter_exit);
    if (itr.pid) {
        print_proc("interactor", &itr);
        printf("interactor_wall_us=%ld\n", itr.end_us - start);
    }
    {  /* so that the judge reads only the captures that hold something */
        struct stat st;
        if (opt.solver_stderr && stat(opt.solver_stderr, &st) == 0) printf("solver_stderr_bytes=%lld\n", (long long)st.st_size);
        if (opt.inter_stderr && stat(opt.inter_stderr, &st) == 0) printf("interactor_stderr_bytes=%lld\n", (long long)st.st_size);
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
    if (!server_mode) fflush(stdout);  /* a server sends the report and its end mark in one write */
    return 0;
}
