/*
 * Is a solver that has not finished working, starved, or stuck? Included by supervisor.c after
 * its /proc helpers (read_proc, walk_tree, solver_pid, solver_tree_cpu_us).
 *
 * Two questions, each answered from the kernel's own records (CPU time, scheduler run-delay,
 * the system call a thread waits in), not from the state letter alone:
 *
 *  - At the wall-clock cap (and at the end of the post-accept grace): over the last window, did
 *    the solver's processes get the CPU (working: its CPU limit will end it) or wait for one
 *    (starved: the node is loaded, keep waiting)? The second is the scheduler's run-delay
 *    (/proc/PID/task/TID/schedstat, field 2); a thread in state R counts too (a cgroup throttled
 *    by its CPU quota accrues no run-delay). State D does not: a vfork() parent waiting for a
 *    sleeping child, or anything else the solver blocks itself on, is the solver's own stall
 *    (TLE or IDLE), not the judge's failure.
 *
 *  - While both run: are the solver and the interactor each blocked reading the other's pipe,
 *    with nothing else of theirs able to wake them? Then nothing can ever happen (the classic
 *    missing flush), and the case is IDLE at once instead of at the wall cap.
 */
#ifndef IBENCH_STALL_H
#define IBENCH_STALL_H

/* ---- activity over a window ---- */
struct activity { long at_us; long long cpu_us, delay_us; int running; };

static void add_delay(pid_t pid, void *arg) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *d = opendir(path);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        char sp[320], buf[128];
        snprintf(sp, sizeof sp, "/proc/%d/task/%s/schedstat", pid, e->d_name);
        long long run = 0, wait = 0;
        struct activity *a = arg;
        if (read_proc(sp, buf, sizeof buf) > 0 && sscanf(buf, "%lld %lld", &run, &wait) == 2) a->delay_us += wait / 1000;
        /* R: on a CPU or queued for one. A task of a cgroup that its CPU quota has throttled is
         * off the run queue (no run-delay accrues) but still R: it wants the CPU. D is not
         * counted: a solver blocked on itself (a vfork() parent) waits there forever. */
        snprintf(sp, sizeof sp, "/proc/%d/task/%s/stat", pid, e->d_name);
        if (!a->running && read_proc(sp, buf, sizeof buf) > 0) {
            char *q = strrchr(buf, ')');
            if (q && q[1] == ' ' && q[2] == 'R') a->running = 1;
        }
    }
    closedir(d);
}

static void activity_sample(struct proc *s, struct activity *a) {
    a->at_us = now_us();
    a->cpu_us = solver_tree_cpu_us(s);
    a->delay_us = 0;
    a->running = 0;
    walk_tree(solver_pid(s), 0, 512, add_delay, a);
}

/* Since `a` was sampled (and `a` moves on to now): did the solver use the CPU, or wait for it,
 * for at least a fifth of the window, or is it running now? A blocked solver does none of
 * these, however loaded the node. */
static int activity_since(struct proc *s, struct activity *a) {
    struct activity b;
    activity_sample(s, &b);
    long win = b.at_us - a->at_us;
    int active = b.running || (win > 0 && ((b.cpu_us - a->cpu_us) * 5 >= win || (b.delay_us - a->delay_us) * 5 >= win));
    *a = b;
    return active;
}

/* ---- deadlock: each side blocked reading the other ---- */
#define DL_CHECK_US 20000  /* how often it is looked for while both run */
#define DL_CONFIRM 3       /* consecutive looks that must agree, nothing read or written between */

struct deadlock_watch {
    unsigned long sol_in, itr_in;  /* inodes of the solver's and the interactor's input pipes */
    int seen;                      /* consecutive looks that found both blocked */
    long long io;                  /* bytes read and written by both sides at the last look */
    long first_us;                 /* when the first of those looks was taken */
};

/* One side's threads: how many wait reading its input pipe, how many do anything else, what it
 * has read and written so far. `by_state`: the interactor, which is not dumpable (the solver
 * shares its uid without root), so where its /proc/PID/syscall and io cannot be read, a sleeping
 * thread with its input pipe empty counts as waiting there, and its CPU time stands for io. */
struct dl_scan { unsigned long pipe; int readers, others, by_state, guessed, runtime_parks; long long io; };

static int fd_is_pipe(pid_t pid, unsigned long fd, unsigned long ino) {
    char path[64], link[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%lu", pid, fd);
    ssize_t n = readlink(path, link, sizeof link - 1);
    if (n <= 0) return 0;
    link[n] = 0;
    unsigned long got = 0;
    return sscanf(link, "pipe:[%lu]", &got) == 1 && got == ino;
}

/* A futex wait with a timeout (FUTEX_WAIT, _BITSET, _LOCK_PI, _WAIT_REQUEUE_PI with a timeout
 * argument; futex_waitv with one): the thread wakes by the clock and may then write. */
#ifndef SYS_futex_waitv
#define SYS_futex_waitv 449
#endif
static int timed_futex(long nr, unsigned long op, unsigned long timeout) {
    if (nr == SYS_futex_waitv) return timeout != 0;
    unsigned long cmd = op & 127;  /* without FUTEX_PRIVATE_FLAG and FUTEX_CLOCK_REALTIME */
    return (cmd == 0 || cmd == 9 || cmd == 6 || cmd == 11) && timeout != 0;
}

/* One process: every thread must be blocked either reading the watched pipe or in a wait that
 * only another thread or process of the same side can end (futex, wait4, waitid). A thread that
 * runs, sleeps on a clock (nanosleep: a solver that sleeps then answers), waits on a futex with a
 * timeout (a worker's condition_variable::wait_for) or on anything else may still write: no
 * deadlock. The one exception is a runtime whose own threads park with timeouts (the JVM's and
 * Go's: --runtime-parks), where a timed futex is the runtime's, not the program's. */
static void dl_visit(pid_t pid, void *arg) {
    struct dl_scan *sc = arg;
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/io", pid);
    if (read_proc(path, buf, sizeof buf) > 0) {
        long long r = 0, w = 0;
        char *p = strstr(buf, "rchar:"), *q = strstr(buf, "wchar:");
        if (p) r = atoll(p + 6);
        if (q) w = atoll(q + 6);
        sc->io += r + w;
    } else if (sc->by_state) {
        sc->io += proc_cpu_us(pid);
    } else {
        sc->others++;
    }
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *d = opendir(path);
    if (!d) { sc->others++; return; }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        char sp[320];
        snprintf(sp, sizeof sp, "/proc/%d/task/%s/syscall", pid, e->d_name);
        long nr = -2;
        unsigned long a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        if (read_proc(sp, buf, sizeof buf) <= 0 || sscanf(buf, "%ld %lx %lx %lx %lx", &nr, &a0, &a1, &a2, &a3) < 2) {
            int denied = errno == EACCES || errno == EPERM;
            snprintf(sp, sizeof sp, "/proc/%d/task/%s/stat", pid, e->d_name);
            char *q = denied && sc->by_state && read_proc(sp, buf, sizeof buf) > 0 ? strrchr(buf, ')') : NULL;
            if (q && q[1] == ' ' && q[2] == 'S') {
                sc->readers++;
                sc->guessed = 1;
            } else {
                sc->others++;
            }
            continue;
        }
        if ((nr == SYS_read || nr == SYS_readv) && fd_is_pipe(pid, a0, sc->pipe)) sc->readers++;
        else if ((nr == SYS_futex || nr == SYS_futex_waitv) && timed_futex(nr, a1, a3) && !sc->runtime_parks) sc->others++;
        else if (nr == SYS_futex || nr == SYS_futex_waitv || nr == SYS_wait4 || nr == SYS_waitid) continue;
        else sc->others++;
    }
    closedir(d);
}

/* Called every DL_CHECK_US while both sides run: 1 when the case is deadlocked. `pending` is
 * the supervisor's copy of the interactor's input pipe (what the solver wrote, unread). */
static int deadlock_look(struct deadlock_watch *w, struct proc *s, pid_t inter, int pending) {
    struct dl_scan a = {w->sol_in, 0, 0, 0, 0, opt.runtime_parks, 0}, b = {w->itr_in, 0, 0, 1, 0, 0, 0};
    walk_tree(solver_pid(s), 0, 256, dl_visit, &a);
    if (a.readers && !a.others) walk_tree(inter, 0, 64, dl_visit, &b);
    int unread = 0;
    if (b.guessed && (pending < 0 || ioctl(pending, FIONREAD, &unread) != 0 || unread != 0)) b.others++;
    if (!(a.readers && !a.others && b.readers && !b.others)) {
        w->seen = 0;
        return 0;
    }
    if (w->seen && a.io + b.io != w->io) w->seen = 0;  /* something was read or written: look again */
    if (!w->seen) w->first_us = now_us();
    w->io = a.io + b.io;
    return ++w->seen >= DL_CONFIRM;
}

#endif
