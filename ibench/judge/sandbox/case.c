/* Part of supervisor.c, one translation unit (included there, in order): one case: ending the solver, the init's records, the case's state and its set-up and clean-up phases, and run_case itself (its watch is watch.c, its report report.c). */

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

/* The case's other parts (watch.c, report.c), defined after this file in the same unit. */
static void watch_case(struct case_run *c);
static void report_case(struct case_run *c);

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
