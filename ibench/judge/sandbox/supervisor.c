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
 *   --box                the solver runs in an allowlist box built from nothing for this case:
 *                        fresh mount, PID, IPC, network and UTS namespaces; a root filesystem
 *                        that is an empty read-only tmpfs holding only the --bind paths
 *                        (read-only), a minimal /dev, /proc of its own PID namespace, and
 *                        size-capped private tmpfs instances for its working dir and /tmp.
 *                        Nothing written inside survives the case.
 *   --userns             build the box through an unprivileged user namespace (judge not root)
 *   --uid/--gid          run the solver as an unprivileged user (judge running as root)
 *   --cg-mem/--cg-pids/--cg-cpu   cgroup v1 slot directories (or one v2 dir in --cg-v2)
 *   seccomp (always)     no sockets (AF_UNIX with --sockets), no ptrace / process_vm_*, no io_uring,
 *                        keyrings, bpf, perf, mounts, new namespaces or affinity changes
 *   rlimits (always)     CPU, stack = memory limit, file size, core 0, processes
 * In a box the solver's parent is a small init (PID 1 of the box) that reaps it, hands its wait
 * status and rusage to the supervisor through a pipe, copies the one file the caller asked to
 * --export (a compiler's output) into a descriptor the supervisor opened, and exits: its exit
 * ends every process of the box.
 * Every descendant ends with the case: the supervisor is a child subreaper and kills what is
 * left of the solver's process group, its cgroup and its own children before it exits.
 *
 * --prefill FILE (interactive runs; the batch variant): the file's bytes reach the solver's stdin
 * before anything the interactor writes. When they fit, the supervisor enlarges the solver's
 * stdin pipe (F_SETPIPE_SZ, up to fs/pipe-max-size, keeping a default pipe's room for the
 * interactor on top) and writes them into it before anything is spawned; otherwise a relay child
 * of the supervisor (outside the box and the slot's cgroups) writes them and then splices the
 * interactor's output on, closing the solver's stdin when that output ends.
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
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <grp.h>
#include <dirent.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define MAX_LIST 64   /* arguments and environment entries (sandbox/run.py refuses more) */
#define MAX_BINDS 256 /* --bind entries (sandbox/run.py refuses more) */

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
    const char *prefill;        /* interactive: bytes the solver reads before the interactor's */
    const char *inter_args[MAX_LIST];
    int n_inter_args;
    const char *inter_env[MAX_LIST];
    int n_inter_env;
    const char *argv0;
    const char *solver_args[MAX_LIST];
    int n_solver_args;
    const char *solver_env[MAX_LIST];
    int n_solver_env;
    long cpu_ms, mem_kb, wall_ms, grace_ms, nproc, fsize_kb, inter_cpu_ms, inter_as_kb, as_kb;
    long uid, gid;
    long wall_hard_ms;
    long inter_wall_ms;         /* the interactor's own wall budget while it computes (0: the hard cap) */
    int box, userns, landlock;
    int sockets;                /* a runtime that needs AF_UNIX sockets (the JVM's socketpair at start) */
    int runtime_parks;          /* a runtime whose own threads park on timed futexes (the JVM, Go) */
    int hold_output;            /* the interactor sees the solver's output end only after the solver's end (ICPC) */
    const char *bind_src[MAX_BINDS], *bind_dst[MAX_BINDS];
    int n_bind;
    const char *workdir;        /* the solver's working dir inside the box */
    const char *export_name;    /* a file of the working dir handed back after the run */
    const char *export_to;      /* where: created here, never followed if it exists */
    long box_kb;                /* size of each writable tmpfs of the box */
    long cpu;                   /* the case's CPU: N, -1 every CPU the server may use, -2 as it is */
    long outer_uid, outer_gid;  /* the judge's ids, mapped into a user namespace */
    long net_epoch;             /* server: cases of one epoch (a sample) share a fresh network namespace */
    const char *cg_mem, *cg_pids, *cg_cpu, *cg_v2;
};
static const struct options DEFAULTS = {.cpu_ms = 1000, .mem_kb = 262144, .wall_ms = 5000, .grace_ms = 1000,
                                        .nproc = 16, .fsize_kb = 65536, .inter_cpu_ms = 20000, .uid = -1,
                                        .gid = -1, .workdir = "/box", .net_epoch = -1, .cpu = -2};
static struct options opt;
static int server_mode;
/* A server keeps the network namespace of the current epoch as its own, so a case need not
 * create one (the most expensive namespace to make): -1 none yet. */
static long server_net_epoch = -1;
static cpu_set_t server_cpus;  /* what the server may use (at its start): `--cpu -1` */

/* Where this process and what it forks run: one CPU (a full node: solver and interactor trade a
 * core, judges side by side do not slow each other) or all of the server's (an idle one: the
 * interactor and the solver start side by side, as two processes anywhere would). */
static long cpu_applied = -3;  /* the last `cpu` this process applied to itself */

static void set_cpu(long cpu) {
    if (cpu < -1 || cpu == cpu_applied) return;
    cpu_applied = cpu;
    cpu_set_t one;
    CPU_ZERO(&one);
    if (cpu >= 0) CPU_SET((int)cpu, &one);
    sched_setaffinity(0, sizeof(cpu_set_t), cpu >= 0 ? &one : &server_cpus);
}

static void die(const char *what) {
    printf("setup_error=%s: %s\n", what, strerror(errno));
    if (server_mode) printf("__end__\n");  /* the caller restarts a server that died */
    fflush(stdout);
    exit(2);
}

static void kill_cgroup_but(const char *dir, pid_t keep);
static void kill_cgroup(const char *dir) { kill_cgroup_but(dir, 0); }

static long now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

/* The parts, one concern each (nsjail-like), compiled as one translation unit in this order:
 * each may use what the ones before it define. */
#include "cgroups.c"
#include "seccomp.c"
#include "confine.c"
#include "box.c"
#include "zygote.c"
#include "spawn.c"
#include "proc.c"
#include "stall.h"
#include "options.c"
#include "case.c"
#include "watch.c"
#include "report.c"
#include "server.c"
