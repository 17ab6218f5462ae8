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
        else if (ARG("--interactor-wall-ms")) opt.inter_wall_ms = atol(v);
        else if (ARG("--uid")) opt.uid = atol(v);
        else if (ARG("--gid")) opt.gid = atol(v);
        else if (ARG("--cg-mem")) opt.cg_mem = v;
        else if (ARG("--cg-pids")) opt.cg_pids = v;
        else if (ARG("--cg-cpu")) opt.cg_cpu = v;
        else if (ARG("--cg-v2")) opt.cg_v2 = v;
        else if (strcmp(k, "--box") == 0) opt.box = 1;
        else if (strcmp(k, "--sockets") == 0) opt.sockets = 1;
        else if (strcmp(k, "--runtime-parks") == 0) opt.runtime_parks = 1;
        else if (strcmp(k, "--hold-solver-output") == 0) opt.hold_output = 1;
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

/* ---- one case, in phases: set-up, the watch, clean-up, the report ---- */

/* Everything one case knows, from its set-up to its report. */
struct case_run {
    struct proc sol, itr;
    int errpipe[2], recpipe[2];
    int to_inter[2], to_solver[2];
    int pending_fd;                 /* the interactor's input, read-only for FIONREAD / POLLHUP */
    int held_out;                   /* the solver's output, held open until the solver has ended */
    int released_first;             /* at that release the interactor still ran: 1, 0, -1 unknown */
    long long prefill_bytes;
    const char *prefill_how;
    pid_t relay_pid, relay_pid_seen;
    struct deadlock_watch dl;
    int exe_fd, export_fd, mem_tfd, use_zy;
    long long oom_before, oom_before_v2, cpu_before_v2;
    /* clocks: the run's (and the interactor's), the solver's, and its caps */
    long start, sol_start, deadline, hard_deadline, starve_deadline, end;
    long inter_deadline;            /* how long a computing interactor may run: its own budget */
    /* the watch */
    int dl_on, deadlock;
    long deadlock_after_us;
    struct activity act;
    int grace_sampled, grace_phase;
    int first;                      /* 1 solver first, 2 interactor first */
    int init_reaped, wait_for_init;
    int inter_term_sent;
    /* what the report says beyond the processes' own records */
    long long rss_at_kill_kb, sol_cpu_at_inter_exit;
    int wall_timeout;
    int sol_runnable_at_kill, inter_runnable_at_kill, sol_exiting_at_inter_exit;
    int sol_output_pending, sol_blocked_writing, sol_output_closed;
};

/* One signalfd and three timers serve every case of a process: each case arms the timers before
 * it waits, which drops an expiry left over from the case before; a SIGCHLD left pending only
 * makes the watch look for exited children once more. */
static int sfd = -1, tfd = -1, cpu_tfd = -1, dl_tfd = -1;
static long cpus = 0, cpus_for = -4;  /* how many CPUs this process may use (per affinity set) */

static void case_begin(struct case_run *c) {
    memset(c, 0, sizeof *c);
    c->recpipe[0] = c->recpipe[1] = -1;
    c->to_inter[0] = c->to_inter[1] = c->to_solver[0] = c->to_solver[1] = -1;
    c->pending_fd = c->export_fd = c->mem_tfd = c->held_out = -1;
    c->released_first = -1;
    c->rss_at_kill_kb = c->sol_cpu_at_inter_exit = -1;
    c->deadlock_after_us = -1;
    c->sol_runnable_at_kill = c->inter_runnable_at_kill = c->sol_exiting_at_inter_exit = -1;
    c->sol_output_pending = c->sol_blocked_writing = c->sol_output_closed = -1;
    if (pipe2(c->errpipe, O_CLOEXEC) < 0) die("pipe");
    c->start = now_us();
}

/* The interactor first, before the solver's side is prepared: a testlib interactor spends about
 * a millisecond of CPU starting up (the loader, libstdc++, testlib's set-up), the longest part
 * of a short case, and it owes nothing to the slot's cgroups or its box, so it starts while the
 * last case's box is cleaned and the counters are reset. It logs its query limit before its
 * first read, and the solver's first write then finds a reader. */
static void start_interactor(struct case_run *c) {
    if (pipe2(c->to_inter, O_CLOEXEC) < 0 || pipe2(c->to_solver, O_CLOEXEC) < 0) die("pipe");
    struct stat pa, pb;
    if (fstat(c->to_solver[0], &pa) == 0 && fstat(c->to_inter[0], &pb) == 0) {
        c->dl.sol_in = (unsigned long)pa.st_ino;
        c->dl.itr_in = (unsigned long)pb.st_ino;
    }
    int case_fd = opt.case_path ? open(opt.case_path, O_RDONLY | O_CLOEXEC) : -1;
    if (opt.case_path && case_fd < 0) die("open case");
    int i_err = open(opt.inter_stderr ? opt.inter_stderr : "/dev/null",
                     O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (i_err < 0) die("open interactor stderr");
    int inter_out = c->to_solver[1];  /* where the interactor writes */
    if (opt.prefill) {
        /* Before anything is spawned: the prefill comes first on the solver's stdin. */
        int pf = open(opt.prefill, O_RDONLY | O_CLOEXEC);
        struct stat pst;
        if (pf < 0) die("open prefill");
        if (fstat(pf, &pst) < 0 || !S_ISREG(pst.st_mode)) { errno = EINVAL; die("prefill is not a regular file"); }
        c->prefill_bytes = (long long)pst.st_size;
        long long done = prefill_direct(c->to_solver[1], pf, c->prefill_bytes);
        c->prefill_how = "direct";
        if (done < c->prefill_bytes) {
            int rp[2];
            if (pipe2(rp, O_CLOEXEC) < 0) die("pipe");
            c->relay_pid = c->relay_pid_seen = spawn_relay(pf, done, rp[0], c->to_solver[1]);
            close(rp[0]);
            inter_out = rp[1];
            c->prefill_how = "relay";
        }
        close(pf);
    }
    PHASE(2);
    c->itr.pid = spawn_interactor(c->to_inter[0], inter_out, i_err, case_fd, c->errpipe[1]);
    /* Only to measure what the solver wrote and its judge has not read yet (FIONREAD); closed as
     * soon as the interactor ends, so a solver writing after that still meets EPIPE. */
    c->pending_fd = fcntl(c->to_inter[0], F_DUPFD_CLOEXEC, 3);
    /* The ICPC tools let a validator see the end of the solver's output only once the solver has
     * exited (problemtools' interactive, BAPCtools' relay): the solver's own end comes first, and a
     * crash after closing its output is its RE, not the validator's WA on end of input. */
    if (opt.hold_output) c->held_out = fcntl(c->to_inter[1], F_DUPFD_CLOEXEC, 3);
    if (inter_out != c->to_solver[1]) close(inter_out);
    close(c->to_inter[0]);
    close(i_err);
    if (case_fd >= 0) close(case_fd);
}

/* The slot's cgroups for this case: nothing of anyone else's in them, this case's limits, and
 * counters from zero. */
static void prepare_slot(struct case_run *c) {
    zygote_wait_clean();  /* the last case's box clean-up, before this case's counters start */
    /* Nothing but this server's own box may be in the slot's cgroups when the counters start:
     * another judge of the same process shares the slot (and may have left its box there). */
    if (opt.cg_pids || opt.cg_v2) kill_cgroup_but(opt.cg_pids ? opt.cg_pids : opt.cg_v2, zy.pid);
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
    c->oom_before = opt.cg_mem ? read_key(opt.cg_mem, "memory.oom_control", "oom_kill") : -1;
    c->oom_before_v2 = opt.cg_v2 ? read_key(opt.cg_v2, "memory.events", "oom_kill") : -1;
    c->cpu_before_v2 = opt.cg_v2 ? read_key(opt.cg_v2, "cpu.stat", "usage_usec") : -1;
    if (opt.cg_v2) {
        snprintf(num, sizeof num, "%ld", opt.mem_kb * 1024);
        if (ctl_write(opt.cg_v2, "memory.max", num) < 0) die("memory.max");
        ctl_write(opt.cg_v2, "memory.swap.max", "0");
        ctl_write(opt.cg_v2, "memory.peak", "0");  /* resettable on recent kernels */
        snprintf(num, sizeof num, "%ld", opt.nproc);
        ctl_write(opt.cg_v2, "pids.max", num);
    }
    c->sol.cg_v2_base_us = c->cpu_before_v2 > 0 ? c->cpu_before_v2 : 0;
}

/* The process's clocks (made once), this case's memory clock, and how many CPUs it may use. */
static void open_clocks(struct case_run *c) {
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGCHLD);
    if (sfd < 0) sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
    if (tfd < 0) tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
    if (cpu_tfd < 0) cpu_tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
    if (dl_tfd < 0) dl_tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
    /* Without a memory cgroup nothing stops a process whose resident memory passes the limit
     * (RLIMIT_AS caps reservations, not use): the supervisor looks every 10 ms, as the cgroup would
     * stop it, so MLE does not wait for the CPU time the page faults cost (and turn into TLE). */
    c->mem_tfd = (!opt.cg_mem && !opt.cg_v2) ? timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC) : -1;
    if (sfd < 0 || tfd < 0 || cpu_tfd < 0) die("signalfd/timerfd");
    if (cpus == 0 || cpus_for != cpu_applied) {
        cpu_set_t cs;
        cpus = sched_getaffinity(0, sizeof cs, &cs) == 0 && CPU_COUNT(&cs) > 0 ? CPU_COUNT(&cs) : 1;
        cpus_for = cpu_applied;
    }
}

/* The solver, in the slot's box (kept from the last case) or in a one-case box or none; every
 * wall-clock limit counts from here, whatever the set-up took. */
static void start_solver(struct case_run *c) {
    c->exe_fd = open(opt.solver, O_PATH | O_CLOEXEC);
    if (c->exe_fd < 0) die("open solver");
    /* A one-case box (a compile) leaves the slot's box as it is: idle, it holds no case's
     * descriptor, and the next sample's cases find it (their epoch and binds decide). */
    c->use_zy = zygote_usable();
    if (!opt.box && zy.pid > 0) zygote_drop();  /* a run without a box: the slot has none either */
    if (opt.box && !c->use_zy && pipe2(c->recpipe, O_CLOEXEC | O_NONBLOCK) < 0) die("pipe");
    record_fd = c->recpipe[0];
    /* The export target is created here, by the judge's side, and never opened through a link. */
    if (opt.export_name && opt.export_to) {
        c->export_fd = open(opt.export_to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (c->export_fd < 0) die("create export file");
    }
    int s_err = open(opt.solver_stderr ? opt.solver_stderr : "/dev/null",
                     O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (s_err < 0) die("open solver stderr");

    int in, out;
    if (opt.interactive) {
        in = c->to_solver[0];
        out = c->to_inter[1];
    } else {
        in = open(opt.solver_stdin ? opt.solver_stdin : "/dev/null", O_RDONLY | O_CLOEXEC);
        out = open(opt.solver_stdout ? opt.solver_stdout : "/dev/null",
                   O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (in < 0 || out < 0) die("open batch stdin/stdout");
    }
    c->sol_start = now_us();
    c->deadline = c->sol_start + opt.wall_ms * 1000;
    if (c->use_zy && zy.pid > 0) c->sol.init_children_base_us = waited_children_us(zy.pid);
    c->sol.pid = c->use_zy ? zygote_case(in, out, s_err, c->exe_fd, c->errpipe[1])
                           : spawn_solver(in, out, s_err, c->exe_fd, c->errpipe[1], c->recpipe[1], c->export_fd);
    if (opt.interactive) {
        close(c->to_inter[1]); close(c->to_solver[0]); close(c->to_solver[1]);
    } else {
        close(in); close(out);
    }
    PHASE(3);
    close(s_err);
    close(c->errpipe[1]);
    if (c->recpipe[1] >= 0) close(c->recpipe[1]);
    if (c->use_zy) record_fd = zy.rec;
}

/* The wall clock, the first CPU check, the memory looks and the deadlock looks. */
static void arm_watches(struct case_run *c) {
    arm_at(tfd, c->deadline);
    /* CPU checks: the first when the solver could have used its whole limit, then again for what
     * is left. CPU time advances at most `cpus` times as fast as the clock. */
    if (cpu_tfd >= 0) arm_at(cpu_tfd, c->sol_start + opt.cpu_ms * 1000 / cpus + 1000);
    if (c->mem_tfd >= 0) {
        struct itimerspec every = {{0, 10000000}, {0, 10000000}};
        timerfd_settime(c->mem_tfd, 0, &every, NULL);
    }
    /* Deadlock looks while both sides run (not through a prefill relay, a third party to the
     * solver's input); armed every case, which also drops an expiry left from the case before. */
    c->dl_on = opt.interactive && c->relay_pid <= 0 && c->dl.sol_in && c->dl.itr_in && dl_tfd >= 0;
    long every_ns = c->dl_on ? DL_CHECK_US * 1000L : 0;
    struct itimerspec dl_every = {{0, every_ns}, {0, every_ns}};
    if (dl_tfd >= 0) timerfd_settime(dl_tfd, 0, &dl_every, NULL);
    c->act = (struct activity){c->sol_start, 0, 0, 0};  /* the solver's CPU and run-delay: none at its start */
    c->hard_deadline = c->sol_start + (opt.wall_hard_ms > opt.wall_ms ? opt.wall_hard_ms : opt.wall_ms) * 1000;
    c->starve_deadline = c->sol_start + 4 * (c->hard_deadline - c->sol_start);
    /* The interactor's wall budget is its own (from its start), never shorter than the solver's
     * hard cap: a slow but correct judge program checking a final answer is not a judge error. */
    long own = c->start + opt.inter_wall_ms * 1000;
    c->inter_deadline = own > c->hard_deadline ? own : c->hard_deadline;
    /* In a box the solver has ended when its init's record arrives; a one-case box's init is
     * still waited for (it may have an export to finish), a sample's box is kept. */
    c->wait_for_init = opt.box && !c->use_zy;
}

static void drain_timer(int fd) {
    uint64_t ticks;
    (void)!read(fd, &ticks, sizeof ticks);
}

/* The interactor ends both sides with SIGTERM first: ibench's header then writes its transcript
 * (the exchange of an IDLE case is worth reading); SIGKILL follows in 100 ms. */
static void end_interactor_gently(struct case_run *c) {
    c->itr.killed = 3;
    kill(c->itr.pid, SIGTERM);
    c->inter_term_sent = 1;
    arm_at(tfd, now_us() + 100000);
}

/* Without a memory cgroup: over the memory limit, resident, is MLE, as a cgroup would rule. */
static void on_memory_look(struct case_run *c) {
    drain_timer(c->mem_tfd);
    if (c->sol.done || c->sol.killed) return;
    long long rss = solver_tree_rss_kb(&c->sol);
    if (rss > opt.mem_kb) {
        c->rss_at_kill_kb = rss;
        c->sol.killed = 5;
        end_solver(&c->sol);
    }
}

/* Each side waits to read what only the other can write: nothing can happen. IDLE now, as the
 * wall cap would rule it later (the interactor's SIGTERM and transcript as there). */
static void on_deadlock_look(struct case_run *c) {
    drain_timer(dl_tfd);
    if (c->sol.done || c->sol.killed || !c->itr.pid || c->itr.done) return;
    if (!deadlock_look(&c->dl, &c->sol, c->itr.pid, c->pending_fd)) return;
    c->deadlock = 1;
    c->deadlock_after_us = now_us() - c->dl.first_us;
    c->wall_timeout = 1;
    c->sol_runnable_at_kill = 0;
    c->inter_runnable_at_kill = 0;
    c->sol.killed = 3;
    end_solver(&c->sol);
    end_interactor_gently(c);
}

/* The solver's CPU time, read exactly: over the limit is TLE, else look again when it could be. */
static void on_cpu_look(struct case_run *c) {
    drain_timer(cpu_tfd);
    if (c->sol.done || c->sol.killed) return;
    long long left = opt.cpu_ms * 1000LL - solver_tree_cpu_us(&c->sol);
    if (left < 0) {
        c->sol.killed = 4;
        end_solver(&c->sol);
    } else {
        long step = (long)(left / cpus);
        arm_at(cpu_tfd, now_us() + (step < 2000 ? 2000 : step));
    }
}

/* The interactor has ended and the solver has not: what becomes of the solver. */
static void on_interactor_exit(struct case_run *c, int st) {
    struct proc *sol = &c->sol;
    c->sol_exiting_at_inter_exit = solver_exiting(sol);
    c->sol_cpu_at_inter_exit = sol->rec_ready && !opt.cg_cpu && !opt.cg_v2
        ? ru_us(&sol->rec_ru) + sol->others_cpu_us
        : solver_tree_cpu_us(sol);
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    /* A record read just now: the solver ended on its own, nothing to stop (its record is
     * consumed, so it must count as the solver's end here). */
    if (sol->rec_ready) take_record(sol, &c->first);
    if (sol->done || sol->killed) return;  /* ended, or already being ended by the wall-clock cap */
    if (code == 0 || code == 7) {
        /* Accepted: the solver gets a short grace to exit on its own. */
        long g = now_us() + opt.grace_ms * 1000;
        if (g < c->deadline) arm_at(tfd, g);
        c->grace_phase = 1;
    } else if (c->sol_output_closed == 1) {
        /* It rejected what ended with the solver's output: the solver's own end decides (a
         * crash is RE, a spin TLE), as the ICPC tools wait for it. It runs on within its
         * limits; the clock and its CPU check stop it. */
    } else {
        /* The interactor has given its verdict: stop the solver at once. */
        sol->killed = 1;
        end_solver(sol);
    }
}

/* One child reaped: the solver (or its box's init), the interactor, the relay or a leftover. */
static void on_reaped(struct case_run *c, pid_t p, int st, struct rusage *ru) {
    struct proc *sol = &c->sol, *itr = &c->itr;
    if (p == c->relay_pid) c->relay_pid = 0;  /* reaped: its pid is no longer ours to kill */
    if (itr->pid && p == itr->pid && c->pending_fd >= 0) {
        /* Had the solver closed its output (no writer left on the interactor's input)? */
        struct pollfd q = {c->pending_fd, POLLIN, 0};
        c->sol_output_closed = poll(&q, 1, 0) > 0 && (q.revents & POLLHUP) ? 1 : 0;
        close(c->pending_fd);
        c->pending_fd = -1;
    }
    if (p == sol->pid && opt.box) c->init_reaped = 1;
    if (p == sol->pid && sol->done) return;  /* the box's init, after its record */
    struct proc *which = p == sol->pid ? sol : (itr->pid && p == itr->pid) ? itr : NULL;
    if (!which) {
        /* an orphaned descendant we adopted (no box): still the solver's cost */
        if (p != c->relay_pid_seen) {
            sol->others_cpu_us += ru_us(ru);
            sol->others_maxrss_kb += ru->ru_maxrss;
        }
        return;
    }
    which->done = 1;
    which->status = st;
    which->ru = *ru;
    which->end_us = now_us();
    if (which == sol && opt.box && poll_record(sol)) {
        /* the init's record is the solver's own status; none: the init itself failed */
        sol->status = sol->rec_status;
        sol->ru = sol->rec_ru;
        if (sol->rec_end_us > 0 && sol->rec_end_us < sol->end_us) sol->end_us = sol->rec_end_us;
    }
    if (!c->first) c->first = which == sol ? 1 : 2;
    if (which == sol && !opt.box) {
        /* The program ends with its main process: whatever it forked dies now, so leftovers can
         * neither hold the pipes open nor keep a core busy. (A box's init does the same inside
         * the box.) */
        kill_group(sol->pid);
        kill_cgroup(opt.cg_pids ? opt.cg_pids : opt.cg_v2);
    }
    if (which == itr && !sol->done) on_interactor_exit(c, st);
}

/* Is a process under the interactor (the ICPC wrapper's validator) still running, not exiting?
 * -1 when its children cannot be read. */
static int interactor_child_running(pid_t pid) {
    char cp[64], buf[4096];
    snprintf(cp, sizeof cp, "/proc/%d/task/%d/children", pid, pid);
    if (read_proc(cp, buf, sizeof buf) < 0) return -1;
    for (char *q = buf; *q;) {
        long child = strtol(q, &q, 10);
        if (child > 0 && !proc_exiting((pid_t)child)) return 1;
        while (*q == ' ' || *q == '\n') q++;
    }
    return 0;
}

/* The solver has ended: its output, held open until now, ends for the interactor. Whether the
 * interactor (its validator) was still running decides whether its verdict can have followed
 * that end: one that had already exited judged what it had read. */
static void release_solver_output(struct case_run *c) {
    if (c->held_out < 0) return;
    c->released_first = !c->itr.pid || c->itr.done || proc_exiting(c->itr.pid) ? 0 : interactor_child_running(c->itr.pid);
    close(c->held_out);
    c->held_out = -1;
}

static void on_children(struct case_run *c) {
    struct signalfd_siginfo si;
    while (read(sfd, &si, sizeof si) > 0) {}
    for (;;) {
        int st;
        struct rusage ru;
        pid_t p = wait4(-1, &st, WNOHANG, &ru);
        if (p <= 0) break;
        on_reaped(c, p, st, &ru);
    }
}

/* The post-accept grace is over by the clock: is it over by the solver's own time? The grace is
 * the solver's, not the clock's: a solver that is runnable but has not had the CPU (a loaded
 * node), or that still waits for the relay to pass on the interactor's end, gets its turn. */
static void on_grace_over(struct case_run *c) {
    struct proc *sol = &c->sol;
    if (!sol->done) {
        if (!c->grace_sampled) {
            /* the solver's activity is read over a window of its own, from now */
            activity_sample(sol, &c->act);
            c->grace_sampled = 1;
            arm_at(tfd, now_us() + 50000);
            return;
        }
        int runnable = activity_since(sol, &c->act);
        long long used = solver_tree_cpu_us(sol) - (c->sol_cpu_at_inter_exit > 0 ? c->sol_cpu_at_inter_exit : 0);
        long long want = opt.grace_ms * 1000LL;
        if ((runnable || c->relay_pid > 0) && used < want && now_us() < c->starve_deadline) {
            long g = now_us() + (long)(want - used);
            arm_at(tfd, g > c->starve_deadline ? c->starve_deadline : g);
            return;
        }
        c->sol_runnable_at_kill = runnable;
        sol->killed = 2;
        end_solver(sol);
    }
    c->grace_phase = 0;
    arm_at(tfd, c->deadline);
}

/* Is the solver pushing output at the interactor (blocked writing, or at least a page of it
 * unread)? Then an interactor busy reading is busy because of the solver: it has the solver's
 * hard cap (the solver's IDLE there), not its own budget, which its CPU limit would end first
 * (an SE). */
#define FLOOD_BYTES 4096  /* verdict.py's FLOOD_BYTES */
static int solver_floods(struct case_run *c) {
    if (c->sol.done) return 0;
    int n = 0;
    if (c->pending_fd >= 0 && ioctl(c->pending_fd, FIONREAD, &n) == 0 && n >= FLOOD_BYTES) return 1;
    return blocked_in_pipe_write(solver_pid(&c->sol));
}

/* The wall-clock cap: ends the case only when nobody is computing. */
static void on_wall_clock(struct case_run *c) {
    struct proc *sol = &c->sol, *itr = &c->itr;
    drain_timer(tfd);
    if (c->inter_term_sent && itr->pid && !itr->done) {
        kill_group(itr->pid);  /* the interactor had its 100 ms after SIGTERM */
        return;
    }
    if (sol->done && (!itr->pid || itr->done)) return;  /* only a box's init is left: no timeout */
    if (c->grace_phase && now_us() < c->deadline) {
        on_grace_over(c);
        return;
    }
    int sol_active = 0;  /* read once per expiry (it moves the window on) */
    if ((!sol->done && (sol_active = activity_since(sol, &c->act)) && now_us() < c->starve_deadline &&
         solver_tree_cpu_us(sol) <= opt.cpu_ms * 1000) ||
        (itr->pid && !itr->done && proc_runnable(itr->pid) &&
         now_us() < (solver_floods(c) ? c->hard_deadline : c->inter_deadline))) {
        /* Someone is still computing within its CPU budget (for the solver: its whole process
         * tree, which a per-process CPU timer cannot see), nobody is stuck. Under load a working
         * solver (or an interactor checking a final answer) must not be cut short by wall time
         * alone; the cap is for runs where both sides wait. A runnable solver within its CPU
         * limit is given up to four times the hard cap: its CPU check, not the clock, ends it;
         * a runnable interactor its own wall budget (its CPU limit ends it sooner), unless the
         * solver's flood is what keeps it busy. */
        arm_at(tfd, now_us() + 250000);
        return;
    }
    c->wall_timeout = 1;
    if (!sol->done) c->sol_runnable_at_kill = sol_active;
    if (itr->pid && !itr->done) c->inter_runnable_at_kill = proc_runnable(itr->pid);
    if (!sol->done && c->pending_fd >= 0) {
        /* Is the interactor still busy because of the solver's own output? */
        int n = 0;
        if (ioctl(c->pending_fd, FIONREAD, &n) == 0) c->sol_output_pending = n;
        c->sol_blocked_writing = blocked_in_pipe_write(solver_pid(sol));
    }
    if (!sol->done) {
        if (!sol->killed) sol->killed = 3;
        end_solver(sol);
    }
    if (itr->pid && !itr->done) end_interactor_gently(c);
}

/* Until the solver and the interactor have ended (and a one-case box's init): every event of the
 * case, each handled by its own function. */
static void watch_case(struct case_run *c) {
    while (!c->sol.done || (c->itr.pid && !c->itr.done) || (c->wait_for_init && !c->init_reaped)) {
        struct proc *sol = &c->sol;
        int solver_live = !sol->done && !sol->killed;
        struct pollfd pf[6] = {{sfd, POLLIN, 0}, {tfd, POLLIN, 0}, {-1, POLLIN, 0}, {cpu_tfd, POLLIN, 0},
                               {solver_live ? c->mem_tfd : -1, POLLIN, 0},
                               {c->dl_on && solver_live && !c->itr.done ? dl_tfd : -1, POLLIN, 0}};
        if (opt.box && !sol->done) pf[2].fd = record_fd;
        if (poll(pf, 6, -1) < 0) {
            if (errno == EINTR) continue;
            die("poll");
        }
        if (pf[4].revents & POLLIN) on_memory_look(c);
        if (pf[5].revents & POLLIN) on_deadlock_look(c);
        if (pf[3].revents & POLLIN) on_cpu_look(c);
        if ((pf[2].revents & (POLLIN | POLLHUP)) && !sol->done) take_record(sol, &c->first);
        if (pf[0].revents & POLLIN) on_children(c);
        if (pf[1].revents & POLLIN) on_wall_clock(c);
        if (sol->done) release_solver_output(c);
    }
    c->end = now_us();
}

/* Whatever the solver left behind (forked children, a process that changed its group) dies with
 * the case; a sample's box is kept for the next case. Every other child is reaped. */
static void clean_case(struct case_run *c) {
    struct proc *sol = &c->sol;
    if (c->use_zy && zy.pid > 0) zy.dirty = 1;  /* its "clean" record comes while this report is read */
    if (c->use_zy) {
        if (c->init_reaped) {  /* the sample's box died: the next case builds a new one */
            zy.pid = 0;
            zygote_drop();
        }
    } else {
        kill_group(sol->pid);
    }
    if (c->itr.pid) kill_group(c->itr.pid);
    if (c->relay_pid > 0) kill(c->relay_pid, SIGKILL);  /* reaped below with every other child */
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
        if (p > 0 && !opt.box && p != c->relay_pid_seen && p != c->itr.pid) {
            sol->others_cpu_us += ru_us(&ru);  /* what the solver left running, ended just now */
            sol->others_maxrss_kb += ru.ru_maxrss;
        }
    }
}

/* The export, a one-case box's late record, and the descriptors; a set-up error is reported. */
static void close_case(struct case_run *c) {
    struct proc *sol = &c->sol;
    /* Without a box the working dir is the host scratch dir: its export is read from there,
     * never through a link. */
    if (!opt.box && c->export_fd >= 0) {
        int dirfd = open(opt.solver_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dirfd >= 0) {
            export_file(dirfd, c->export_fd);
            close(dirfd);
        }
    }
    if (c->export_fd >= 0) close(c->export_fd);
    if (c->recpipe[0] >= 0) {
        /* a one-case box's init wrote what it reaped after the solver before it exited */
        struct box_record late;
        if (c->init_reaped && read(c->recpipe[0], &late, sizeof late) == (ssize_t)sizeof late && late.late) {
            sol->others_cpu_us = late.others_cpu_us;
            sol->others_maxrss_kb = late.others_maxrss_kb;
            sol->tmpfs_kb = late.tmpfs_kb;
        }
        close(c->recpipe[0]);
    }
    record_fd = -1;

    char errbuf[512];
    ssize_t en = read(c->errpipe[0], errbuf, sizeof errbuf - 1);
    close(c->errpipe[0]);
    close(c->exe_fd);
    if (c->mem_tfd >= 0) close(c->mem_tfd);
    if (c->pending_fd >= 0) close(c->pending_fd);
    if (c->held_out >= 0) close(c->held_out);
    if (en > 0) {
        errbuf[en] = 0;
        printf("setup_error=%s\n", errbuf);
    } else if (opt.box && !sol->rec_ready && sol->done && WIFEXITED(sol->status) && WEXITSTATUS(sol->status) == 125) {
        /* the box's init could not start the solver (its clone failed): nothing of the
         * program's ran, so nothing about it can be reported */
        printf("setup_error=the box's init could not start the solver (clone failed)\n");
    }
}

/* The report: key=value lines the judge parses (ibench/judge/sandbox/run.py). */
static void report_case(struct case_run *c) {
    struct proc *sol = &c->sol, *itr = &c->itr;
    if (phases_on > 0)  /* setup, interactor spawned, solver handed over, run over, cleaned up; solver's end */
        printf("phases_us=%ld,%ld,%ld,%ld,%ld,%ld\n", phase_at[1] - phase_at[0], phase_at[2] - phase_at[0],
               phase_at[3] - phase_at[0], phase_at[4] - phase_at[0], phase_at[5] - phase_at[0], sol->end_us - phase_at[0]);
    printf("wall_us=%ld\nwall_timeout=%d\nfirst_exit=%s\n", c->end - c->start, c->wall_timeout,
           c->first == 1 ? "solver" : c->first == 2 ? "interactor" : "none");
    print_proc("solver", sol);
    printf("solver_wall_us=%ld\n", sol->end_us - c->sol_start);
    printf("solver_others_cpu_us=%lld\nsolver_others_maxrss_kb=%ld\n", sol->others_cpu_us, sol->others_maxrss_kb);
    if (opt.box) printf("box_tmpfs_kb=%ld\n", sol->tmpfs_kb);
    if (c->sol_runnable_at_kill >= 0) printf("solver_runnable_at_kill=%d\n", c->sol_runnable_at_kill);
    if (c->deadlock) printf("deadlock=1\ndeadlock_after_us=%ld\n", c->deadlock_after_us);
    if (c->sol_exiting_at_inter_exit >= 0) printf("solver_exiting_at_interactor_exit=%d\n", c->sol_exiting_at_inter_exit);
    if (c->inter_runnable_at_kill >= 0) printf("interactor_runnable_at_kill=%d\n", c->inter_runnable_at_kill);
    if (c->sol_output_pending >= 0) printf("solver_output_pending=%d\n", c->sol_output_pending);
    if (c->sol_output_closed >= 0) printf("solver_output_closed_at_interactor_exit=%d\n", c->sol_output_closed);
    if (opt.hold_output && c->released_first >= 0) printf("solver_output_released_first=%d\n", c->released_first);
    if (c->rss_at_kill_kb >= 0) printf("solver_rss_at_kill_kb=%lld\n", c->rss_at_kill_kb);
    if (c->sol_blocked_writing >= 0) printf("solver_blocked_writing=%d\n", c->sol_blocked_writing);
    if (c->prefill_how) printf("prefill=%s\nprefill_bytes=%lld\n", c->prefill_how, c->prefill_bytes);
    if (c->sol_cpu_at_inter_exit >= 0) printf("solver_cpu_at_interactor_exit_us=%lld\n", c->sol_cpu_at_inter_exit);
    if (itr->pid) {
        print_proc("interactor", itr);
        printf("interactor_wall_us=%ld\n", itr->end_us - c->start);
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
        printf("cg_oom=%d\n", oom >= 0 && c->oom_before >= 0 && oom > c->oom_before);
    }
    if (opt.cg_v2) {
        long long cpu = read_key(opt.cg_v2, "cpu.stat", "usage_usec");
        if (cpu >= 0 && c->cpu_before_v2 >= 0) printf("cg_cpu_us=%lld\n", cpu - c->cpu_before_v2);
        long long peak = read_ll(opt.cg_v2, "memory.peak");
        if (peak >= 0) printf("cg_peak_kb=%lld\n", peak / 1024);
        long long oom = read_key(opt.cg_v2, "memory.events", "oom_kill");
        printf("cg_oom=%d\n", oom >= 0 && c->oom_before_v2 >= 0 && oom > c->oom_before_v2);
    }
}

static int run_case(int argc, char **argv) {
    if (phases_on < 0) phases_on = getenv("IBENCH_SUPERVISOR_PHASES") != NULL;
    PHASE(0);
    parse_case_args(argc, argv);
    if (server_mode && opt.box && opt.net_epoch >= 0 && opt.net_epoch != server_net_epoch) enter_epoch();
    if (server_mode) set_cpu(opt.cpu);  /* the interactor (and a one-case box) forked below inherit it */

    PHASE(1);
    if (!server_mode) {  /* (a server did both at its start) */
        sigset_t held;
        sigemptyset(&held);
        sigaddset(&held, SIGCHLD);
        sigaddset(&held, SIGUSR1);  /* held for a box's init until it can handle it */
        prctl(PR_SET_CHILD_SUBREAPER, 1);
        sigprocmask(SIG_BLOCK, &held, NULL);  /* before any fork: an early exit is a pending SIGCHLD */
    }
    static struct case_run c;  /* static: a zeroed struct of this size is not kept on the stack */
    case_begin(&c);
    if (opt.interactive) start_interactor(&c);
    else PHASE(2);  /* no interactor: its reading is the descriptors' */
    prepare_slot(&c);
    open_clocks(&c);
    start_solver(&c);
    arm_watches(&c);
    watch_case(&c);
    PHASE(4);
    clean_case(&c);
    close_case(&c);
    PHASE(5);
    report_case(&c);
    if (!server_mode) fflush(stdout);  /* a server sends the report and its end mark in one write */
    return 0;
}
