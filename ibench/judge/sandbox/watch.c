/* Part of supervisor.c, one translation unit (included there, in order): a case's watch, from the solver's start to the end of both sides: one handler per event (the memory, deadlock and CPU looks, a reaped child, the interactor's exit, the held output, the grace, the wall clock). */

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
