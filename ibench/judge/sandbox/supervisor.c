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
    int box, userns, landlock;
    int sockets;                /* a runtime that needs AF_UNIX sockets (the JVM's socketpair at start) */
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

/* The server's control files (the slot's cgroup limits and counters, its own children list)
 * stay open for its life and are read and written at offset 0: every case uses the same few,
 * and on a virtual machine an open and a close cost more than the access itself. An access that
 * fails on a kept descriptor (the cgroup was removed and made again) is tried once more on a
 * fresh one. Only the process that opened them uses them: the box's init and every child use
 * write_file/read_file (a child that closed its inherited descriptors must never write through
 * a number that now names something else). */
#define CTL_KEPT 24
static struct { char path[512]; int flags; int fd; } ctl_kept[CTL_KEPT];
static int ctl_n;

static int ctl_open(const char *path, int flags, int fresh, int *kept) {
    for (int i = 0; i < ctl_n; i++)
        if (ctl_kept[i].flags == flags && strcmp(ctl_kept[i].path, path) == 0) {
            if (!fresh) {
                *kept = 1;
                return ctl_kept[i].fd;
            }
            close(ctl_kept[i].fd);
            ctl_kept[i] = ctl_kept[--ctl_n];
            break;
        }
    int fd = open(path, flags | O_CLOEXEC);
    *kept = fd >= 0 && ctl_n < CTL_KEPT && strlen(path) < sizeof ctl_kept[0].path;
    if (*kept) {
        snprintf(ctl_kept[ctl_n].path, sizeof ctl_kept[0].path, "%s", path);
        ctl_kept[ctl_n].flags = flags;
        ctl_kept[ctl_n++].fd = fd;
    }
    return fd;
}

/* One access at offset 0: a write of `len` bytes (O_WRONLY) or a read of at most `len` bytes
 * (O_RDONLY); the bytes done, or -1. */
static ssize_t ctl_io(const char *dir, const char *name, int flags, void *buf, size_t len) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ssize_t n = -1;
    for (int fresh = 0; fresh < 2 && n < 0; fresh++) {
        int kept, fd = ctl_open(path, flags, fresh, &kept);
        if (fd < 0) return -1;
        n = flags == O_WRONLY ? pwrite(fd, buf, len, 0) : pread(fd, buf, len, 0);
        if (!kept) close(fd);
    }
    return n;
}

static int ctl_write(const char *dir, const char *name, const char *value) {
    return ctl_io(dir, name, O_WRONLY, (void *)value, strlen(value)) < 0 ? -1 : 0;
}

static int ctl_read(const char *dir, const char *name, char *buf, size_t size) {
    ssize_t n = ctl_io(dir, name, O_RDONLY, buf, size - 1);
    if (n < 0) return -1;
    buf[n] = 0;
    return 0;
}

static long long read_ll(const char *dir, const char *name) {
    char buf[256];
    if (!dir || ctl_read(dir, name, buf, sizeof buf) < 0) return -1;
    return atoll(buf);
}

/* Value of "key N" inside a flat-keyed control file (memory.oom_control, memory.events, cpu.stat). */
static long long read_key(const char *dir, const char *name, const char *key) {
    char buf[8192];
    if (!dir || ctl_read(dir, name, buf, sizeof buf) < 0) return -1;
    size_t kl = strlen(key);
    for (char *line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, key, kl) == 0 && line[kl] == ' ') return atoll(line + kl + 1);
    }
    return -1;
}

/* Kill every process listed in a cgroup but `keep` until none is left (a fork bomb keeps
 * adding some). */
static void kill_cgroup_but(const char *dir, pid_t keep) {
    if (!dir) return;
    for (int round = 0; round < 200; round++) {
        char buf[65536];
        if (ctl_read(dir, "cgroup.procs", buf, sizeof buf) < 0) return;
        int others = 0;
        for (char *p = buf; *p;) {
            long pid = strtol(p, &p, 10);
            if (pid > 0 && pid != keep) {
                kill((pid_t)pid, SIGKILL);
                others++;
            }
            while (*p == '\n') p++;
        }
        if (!others) return;
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

/* Syscalls the solver never needs and that reach past its box: debugging other processes,
 * asynchronous I/O that bypasses this filter (io_uring opens sockets), kernel keyrings (state
 * that outlives the case), bpf and perf, mounts and new namespaces, and CPU affinity (the slot's
 * pinned CPU is part of the measurement). Each returns EPERM. */
/* Newer than some build hosts' headers; one number on every architecture since 4.x */
#ifndef __NR_cachestat
#define __NR_cachestat 451
#endif
#ifndef __NR_setxattrat
#define __NR_setxattrat 463
#endif
static const int DENIED[] = {
    __NR_ptrace, __NR_process_vm_readv, __NR_process_vm_writev,
#ifdef __NR_io_uring_setup
    __NR_io_uring_setup, __NR_io_uring_enter, __NR_io_uring_register,
#endif
    __NR_keyctl, __NR_add_key, __NR_request_key, __NR_bpf, __NR_perf_event_open,
    __NR_unshare, __NR_setns, __NR_mount, __NR_umount2, __NR_pivot_root, __NR_chroot,
#ifdef __NR_open_tree
    __NR_open_tree, __NR_move_mount, __NR_fsopen, __NR_fsconfig, __NR_fsmount, __NR_fspick,
#endif
#ifdef __NR_mount_setattr
    __NR_mount_setattr,
#endif
    __NR_sched_setaffinity, __NR_userfaultfd, __NR_name_to_handle_at, __NR_open_by_handle_at,
    __NR_kexec_load, __NR_init_module, __NR_finit_module, __NR_delete_module, __NR_acct,
    __NR_swapon, __NR_swapoff, __NR_reboot, __NR_quotactl,
    /* memory that no limit of a box without a cgroup would count: anonymous memory files, and
     * descriptors held in flight in a socket (each pinning its buffers, where no descriptor
     * limit counts them, and able to carry state from case to case). A socket's own buffers
     * are bounded by the descriptor limit; the JVM needs a socketpair to start. */
    __NR_memfd_create, __NR_sendmsg, __NR_sendmmsg,
#ifdef __NR_memfd_secret
    __NR_memfd_secret,
#endif
    /* Nothing may cross from one case or sample to a later one (docs/JUDGE.md, "Nothing
     * crosses"). SysV and POSIX message-queue objects: their ids and names are state of the IPC
     * namespace that a later program could read (and, without a memory cgroup, memory no limit
     * counts). Extended attributes: kernel memory without a cgroup. The page cache of files every
     * box shares: evicting a page (fadvise DONTNEED) or asking whether one is cached without
     * reading it (preadv2's RWF_NOWAIT, cachestat) writes and reads a bit a later sample sees. */
    __NR_shmget, __NR_msgget, __NR_semget, __NR_mq_open,
    __NR_setxattr, __NR_lsetxattr, __NR_fsetxattr,
#ifdef __NR_setxattrat
    __NR_setxattrat,
#endif
#ifdef __NR_fadvise64
    __NR_fadvise64,
#endif
    __NR_preadv2, __NR_pwritev2,
#ifdef __NR_cachestat
    __NR_cachestat,
#endif
};
#define IB_F_SETPIPE_SZ 1031
/* clone() flags that create namespaces (CLONE_NEWTIME shares its bit with the exit signal in
 * clone() and is only valid for unshare/clone3, both refused). */
#define NS_CLONE_FLAGS (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | \
                        CLONE_NEWPID | CLONE_NEWNET)

/* The filter is a search tree over the syscall numbers it has something to say about, not a
 * list: the kernel runs it for every syscall number when it is attached (to cache the ones it
 * always allows), and a list of ~50 checks made that cost ~0.1 ms, the longest step of a
 * solver's start. Each number's rule is as before (tests/judge/test_seccomp_filter.py runs this
 * filter for every syscall number and checks each rule). */
enum sc_rule { SC_EPERM, SC_ENOSYS, SC_CLONE, SC_SOCKET, SC_FCNTL };
struct sc_entry { unsigned nr; enum sc_rule rule; };
#define SC_MAX_INSNS 320

static unsigned sc_emit_rule(struct sock_filter *f, unsigned n, enum sc_rule rule) {
#define EMIT(x) (f[n++] = (struct sock_filter)x)
    switch (rule) {
    case SC_EPERM:
        EMIT(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM));
        break;
    case SC_ENOSYS:  /* clone3 passes its flags in memory a filter cannot read: ENOSYS, so libc
                      * falls back to clone(), whose flags it can */
        EMIT(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS));
        break;
    case SC_CLONE:  /* clone(flags, ...): threads and processes, not namespaces */
        EMIT(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])));
        EMIT(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, NS_CLONE_FLAGS, 0, 1));
        EMIT(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM));
        EMIT(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
        break;
    case SC_SOCKET:  /* socket(domain, ...): only AF_UNIX, and only for a runtime that needs it */
        if (opt.sockets) {
            EMIT(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])));
            EMIT(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1));
            EMIT(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
        }
        EMIT(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES));
        break;
    case SC_FCNTL:  /* fcntl(fd, F_SETPIPE_SZ, ...): a pipe grown to 1 MB is kernel memory outside every limit */
        EMIT(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])));
        EMIT(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, IB_F_SETPIPE_SZ, 0, 1));
        EMIT(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM));
        EMIT(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
        break;
    }
    return n;
}

/* Entries [lo, hi) (sorted by number), the syscall number in the accumulator: a few in a row,
 * otherwise split at the middle one (jumps only go forward, so the lower half comes first). */
static unsigned sc_emit_tree(struct sock_filter *f, unsigned n, const struct sc_entry *e, int lo, int hi) {
    if (n + 64 > SC_MAX_INSNS) return SC_MAX_INSNS + 1;  /* cannot happen with ~50 entries: refused below */
    if (hi - lo <= 4) {
        for (int i = lo; i < hi; i++) {
            unsigned at = n;
            EMIT(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, e[i].nr, 0, 0));
            n = sc_emit_rule(f, n, e[i].rule);
            f[at].jf = (unsigned char)(n - at - 1);
        }
        EMIT(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
        return n;
    }
    int mid = lo + (hi - lo) / 2;
    unsigned at = n;
    EMIT(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, e[mid].nr, 0, 0));
    n = sc_emit_tree(f, n, e, lo, mid);
    if (n > SC_MAX_INSNS || n - at - 1 > 255) return SC_MAX_INSNS + 1;
    f[at].jt = (unsigned char)(n - at - 1);
    return sc_emit_tree(f, n, e, mid, hi);
}

/* The solver's filter; 0 instructions where this architecture has none. */
static unsigned build_seccomp(struct sock_filter *f) {
#ifdef IB_AUDIT_ARCH
    struct sc_entry e[sizeof DENIED / sizeof DENIED[0] + 5];
    int k = 0;
    for (size_t i = 0; i < sizeof DENIED / sizeof DENIED[0]; i++) e[k++] = (struct sc_entry){(unsigned)DENIED[i], SC_EPERM};
#ifdef __NR_clone3
    e[k++] = (struct sc_entry){__NR_clone3, SC_ENOSYS};
#endif
    e[k++] = (struct sc_entry){__NR_clone, SC_CLONE};
    e[k++] = (struct sc_entry){__NR_socket, SC_SOCKET};
    /* A socket's buffers are kernel memory that no limit of a box without a memory cgroup counts
     * (4 processes held 531 MB in socketpairs): no sockets but where a runtime needs them (the
     * JVM's file channels start from a socketpair; its descriptor limit bounds the rest). */
    if (!opt.sockets) e[k++] = (struct sc_entry){__NR_socketpair, SC_EPERM};
    e[k++] = (struct sc_entry){__NR_fcntl, SC_FCNTL};
    for (int i = 1; i < k; i++)  /* insertion sort: no allocation before the solver's exec */
        for (int j = i; j > 0 && e[j - 1].nr > e[j].nr; j--) {
            struct sc_entry t = e[j];
            e[j] = e[j - 1];
            e[j - 1] = t;
        }
    unsigned n = 0;
    EMIT(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)));
    EMIT(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, IB_AUDIT_ARCH, 1, 0));
    EMIT(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    EMIT(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
#if defined(__x86_64__)
    /* x32 syscall numbers would bypass the checks below */
    EMIT(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1));
    EMIT(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM));
#endif
    return sc_emit_tree(f, n, e, 0, k);
#else
    (void)f;
    return 0;
#endif
}
#undef EMIT

static int install_seccomp(void) {
    struct sock_filter f[SC_MAX_INSNS + 64];
    unsigned n = build_seccomp(f);
    if (n == 0) return 0;
    if (n > SC_MAX_INSNS) {
        errno = E2BIG;
        return -1;
    }
    struct sock_fprog prog = {.len = (unsigned short)n, .filter = f};
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

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

/* ---- a box that serves every case of a sample ----
 * Building a box costs more than many a case, so a server keeps one per sample: its init (the
 * "zygote") receives each case's descriptors over a socket, forks the solver, reports it, then
 * kills whatever is left in the box and reports; then it removes every SysV object and replaces
 * the working dir and /tmp with fresh tmpfs instances and says so (a second record, `late` 2):
 * the next case waits for that before it resets the slot's counters, so each case starts in a
 * box as clean as a new one, and the clean-up runs while the judge reads the last report. A box
 * whose key differs (other binds or settings: see box_key) is replaced. */
struct zygote {
    pid_t pid;
    int sock;      /* cases: SCM_RIGHTS of stdin, stdout, stderr, error pipe, program; limits */
    int rec;       /* records, two per case (the solver's end; the box clean again) */
    uint64_t key;  /* what the box was built for */
    int dirty;     /* a case ended here and its "clean" record has not been read yet */
};
static struct zygote zy = {0, -1, -1, 0, 0};

static uint64_t fnv(uint64_t h, const char *str) {
    for (const unsigned char *c = (const unsigned char *)(str ? str : "\1"); *c; c++) h = (h ^ *c) * 1099511628211ULL;
    return (h ^ 0xff) * 1099511628211ULL;
}

/* Everything that shapes the box: a request that differs gets a new box. What a case runs in it
 * (the program, its CPU, memory, file and process limits) comes with each case (struct
 * zy_case), so one box serves a slot's samples one after another while their binds and
 * settings agree; the Python side gives a sample whose binds it stages (a script, classes) an
 * epoch of its own, as a directory re-created between samples must be bound anew. */
static uint64_t box_key(void) {
    char num[256];
    uint64_t h = 1469598103934665603ULL;
    h = fnv(h, opt.solver_dir);
    h = fnv(h, opt.argv0);
    h = fnv(h, opt.workdir);
    for (int i = 0; i < opt.n_solver_args; i++) h = fnv(h, opt.solver_args[i]);
    h = fnv(h, "--env");
    for (int i = 0; i < opt.n_solver_env; i++) h = fnv(h, opt.solver_env[i]);
    h = fnv(h, "--bind");
    for (int i = 0; i < opt.n_bind; i++) { h = fnv(h, opt.bind_src[i]); h = fnv(h, opt.bind_dst[i]); }
    snprintf(num, sizeof num, "%ld %ld %ld %ld %d %d", opt.uid, opt.gid, opt.box_kb, opt.net_epoch, opt.userns,
             opt.sockets);
    h = fnv(h, num);
    const char *cgs[] = {opt.cg_mem, opt.cg_pids, opt.cg_cpu, opt.cg_v2};
    for (int i = 0; i < 4; i++) h = fnv(h, cgs[i]);
    return h;
}

static int zygote_usable(void) {
    if (!server_mode || !opt.box || opt.export_name || opt.net_epoch < 0) return 0;
    /* its writable tmpfs are replaced per case: nothing may be bound below them */
    size_t wl = strlen(opt.workdir);
    for (int i = 0; i < opt.n_bind; i++)
        if (strncmp(opt.bind_dst[i], "/tmp/", 5) == 0 || (strncmp(opt.bind_dst[i], opt.workdir, wl) == 0 &&
                                                           opt.bind_dst[i][wl] == '/'))
            return 0;
    return 1;
}

static void zygote_drop(void) {
    if (zy.pid > 0) {
        kill(zy.pid, SIGKILL);
        while (waitpid(zy.pid, NULL, 0) < 0 && errno == EINTR) {}
    }
    if (zy.sock >= 0) close(zy.sock);
    if (zy.rec >= 0) close(zy.rec);
    zy = (struct zygote){0, -1, -1, 0, 0};
}

/* A case as the box's init needs it: the limits exec_solver sets (the box's copy of `opt` is
 * the one of the request that built it). */
struct zy_case { long cpu_ms, mem_kb, fsize_kb, nproc, as_kb, cpu; };

static int send_fds(int sock, const int *fds, int n, const struct zy_case *data) {
    struct iovec iov = {(void *)data, sizeof *data};
    union { struct cmsghdr h; char buf[CMSG_SPACE(8 * sizeof(int))]; } u;
    memset(&u, 0, sizeof u);
    struct msghdr m = {0};
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = u.buf;
    m.msg_controllen = CMSG_SPACE((size_t)n * sizeof(int));
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN((size_t)n * sizeof(int));
    memcpy(CMSG_DATA(c), fds, (size_t)n * sizeof(int));
    return sendmsg(sock, &m, MSG_NOSIGNAL) == (ssize_t)sizeof *data ? 0 : -1;
}

static int recv_fds(int sock, int *fds, int n, struct zy_case *data) {
    struct iovec iov = {data, sizeof *data};
    union { struct cmsghdr h; char buf[CMSG_SPACE(8 * sizeof(int))]; } u;
    struct msghdr m = {0};
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = u.buf;
    m.msg_controllen = sizeof u.buf;
    ssize_t r;
    while ((r = recvmsg(sock, &m, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {}
    if (r != (ssize_t)sizeof *data) return -1;
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    if (!c || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN((size_t)n * sizeof(int))) return -1;
    memcpy(fds, CMSG_DATA(c), (size_t)n * sizeof(int));
    return 0;
}

/* Every SysV object in the box's IPC namespace, removed (a segment left behind would stay
 * charged to the slot's memory cgroup). */
static void sweep_ipc(void) {
    struct shm_info si;
    int max = shmctl(0, SHM_INFO, (struct shmid_ds *)(void *)&si);
    for (int i = 0; i <= max; i++) {
        struct shmid_ds ds;
        int id = shmctl(i, SHM_STAT, &ds);
        if (id >= 0) shmctl(id, IPC_RMID, NULL);
    }
    struct msginfo mi;
    max = msgctl(0, MSG_INFO, (struct msqid_ds *)(void *)&mi);
    for (int i = 0; i <= max; i++) {
        struct msqid_ds ds;
        int id = msgctl(i, MSG_STAT, &ds);
        if (id >= 0) msgctl(id, IPC_RMID, NULL);
    }
    struct seminfo sm;
    max = semctl(0, 0, SEM_INFO, &sm);
    for (int i = 0; i <= max; i++) {
        struct semid_ds ds;
        int id = semctl(i, 0, SEM_STAT, &ds);
        if (id >= 0) semctl(id, 0, IPC_RMID);
    }
}

static int fresh_tmpfs(const char *path, const char *opts) {
    if (umount2(path, MNT_DETACH) < 0) return -1;
    return mount("ibench-box", path, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, opts);
}

struct solver_spawn { int in_fd, out_fd, err_fd, exe_fd, errpipe; };

/* A case's solver, started by the box's init without copying the init's memory (CLONE_VM |
 * CLONE_VFORK, a stack of its own, until its exec): it only makes system calls and writes
 * nothing the init reads. */
static int solver_child(void *arg) {
    const struct solver_spawn *sp = arg;
    signal(SIGUSR1, SIG_DFL);
    setpgid(0, 0);
    exec_solver(sp->in_fd, sp->out_fd, sp->err_fd, sp->exe_fd, sp->errpipe);
    return 127;
}
static char solver_stack[256 * 1024] __attribute__((aligned(16)));

static void box_zygote(int sock, int record_fd, int errpipe) {
    /* no descriptor of the supervisor's but these: a copy of a case's pipe held here would hide
     * the solver's end of output from the interactor */
    for (int fd = 0; fd < 1024; fd++)
        if (fd != sock && fd != record_fd && fd != errpipe) close(fd);
    box_setup(errpipe);
    close(errpipe);  /* each case brings its own */
    for (int cap = 0; cap < 64; cap++) prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
    bounding_set_empty = 1;
    for (int i = 0; i < 3; i++) open("/dev/null", O_RDWR);  /* received descriptors land above 2 */
    char tmp_opts[128], work_opts[128];
    long uid = opt.uid >= 0 ? opt.uid : opt.outer_uid, gid = opt.gid >= 0 ? opt.gid : opt.outer_gid;
    snprintf(tmp_opts, sizeof tmp_opts, "size=%ldk,nr_inodes=%d,mode=1777", opt.box_kb, BOX_INODES);
    snprintf(work_opts, sizeof work_opts, "size=%ldk,nr_inodes=%d,mode=0700,uid=%ld,gid=%ld", opt.box_kb, BOX_INODES, uid, gid);
    for (;;) {
        int fds[5];
        struct zy_case c;
        if (recv_fds(sock, fds, 5, &c) < 0) _exit(0);  /* the server moved on */
        opt.cpu_ms = c.cpu_ms;
        opt.mem_kb = c.mem_kb;
        opt.fsize_kb = c.fsize_kb;
        opt.nproc = c.nproc;
        opt.as_kb = c.as_kb;
        set_cpu(c.cpu);  /* the solver forked below inherits it */
        box_kill_requested = 0;
        /* Every case's solver gets the same pid: the PID counter of the sample's box must not
         * carry a value from one case to the next. */
        static int lp = -2;  /* the box's own counter, kept open from its first case */
        if (lp == -2) lp = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);
        if (lp >= 0) (void)!pwrite(lp, "1", 1, 0);
        struct solver_spawn sp = {fds[0], fds[1], fds[2], fds[4], fds[3]};
        pid_t pid = clone(solver_child, solver_stack + sizeof solver_stack, CLONE_VM | CLONE_VFORK | SIGCHLD, &sp);
        if (pid < 0) _exit(125);
        box_solver = pid;
        if (box_kill_requested) kill(pid, SIGKILL);
        for (int i = 0; i < 5; i++) close(fds[i]);
        struct box_record rec = reap_solver(pid);
        reap_the_rest(&rec);  /* nothing of the case runs on, and what the rest used is counted */
        (void)!write(record_fd, &rec, sizeof rec);
        sweep_ipc();
        if (chdir("/") < 0 || fresh_tmpfs("/tmp", tmp_opts) < 0 || fresh_tmpfs(opt.workdir, work_opts) < 0 ||
            chdir(opt.workdir) < 0)
            _exit(124);  /* no clean box for the next case: the server builds a new one */
        struct box_record clean = {0};
        clean.late = 2;
        (void)!write(record_fd, &clean, sizeof clean);
    }
}

/* After a case in the box: wait until its init says the box is clean again (its tmpfs memory
 * freed, its SysV objects gone), before anything of the next case is counted. A box that does
 * not say so within 10 s, or says something else, is dropped: the next case builds a new one. */
static void zygote_wait_clean(void) {
    if (zy.pid <= 0 || !zy.dirty) return;
    zy.dirty = 0;
    struct pollfd p = {zy.rec, POLLIN, 0};
    struct box_record rec;
    long until = now_us() + 10000000L;
    for (;;) {
        long left_ms = (until - now_us()) / 1000;
        int r = left_ms > 0 ? poll(&p, 1, (int)left_ms) : 0;
        if (r < 0 && errno == EINTR) continue;
        if (r > 0 && read(zy.rec, &rec, sizeof rec) == (ssize_t)sizeof rec && rec.late == 2) return;
        break;
    }
    zygote_drop();
}

/* The case's solver in this sample's box: built (once) if needed, then handed the case. */
static pid_t zygote_case(int in_fd, int out_fd, int err_fd, int exe_fd, int errpipe) {
    uint64_t key = box_key();
    if (zy.pid > 0 && (zy.key != key || waitpid(zy.pid, NULL, WNOHANG) == zy.pid)) {
        if (zy.key == key) zy.pid = 0;  /* it died (another judge of this slot cleared it): reaped */
        zygote_drop();
    }
    for (int attempt = 0;; attempt++) {
    if (zy.pid <= 0) {
        int sv[2], rp[2];
        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) die("socketpair");
        if (pipe2(rp, O_CLOEXEC) < 0) die("pipe");
        fcntl(rp[0], F_SETFL, O_NONBLOCK);
        long flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | SIGCHLD;
        if (opt.net_epoch != server_net_epoch) flags |= CLONE_NEWNET;
        if (opt.userns) flags |= CLONE_NEWUSER;
        pid_t pid = (pid_t)syscall(SYS_clone, flags, NULL, NULL, NULL, NULL);
        if (pid < 0) die("clone box");
        if (pid == 0) {
            setpgid(0, 0);
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            box_zygote(sv[1], rp[1], errpipe);
        }
        close(sv[1]);
        close(rp[1]);
        zy = (struct zygote){pid, sv[0], rp[0], key, 0};
    }
    int fds[5] = {in_fd, out_fd, err_fd, errpipe, exe_fd};
    struct zy_case c = {opt.cpu_ms, opt.mem_kb, opt.fsize_kb, opt.nproc, opt.as_kb, opt.cpu};
    if (send_fds(zy.sock, fds, 5, &c) == 0) return zy.pid;
    if (attempt > 0) die("hand the case to the box");
    zygote_drop();  /* gone since its last case: a new one */
    }
}

static pid_t spawn_solver(int in_fd, int out_fd, int err_fd, int exe_fd, int errpipe, int record_fd, int export_fd) {
    pid_t pid;
    if (opt.box) {
        long flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | SIGCHLD;
        if (!(server_mode && opt.net_epoch >= 0 && opt.net_epoch == server_net_epoch)) flags |= CLONE_NEWNET;
        if (opt.userns) flags |= CLONE_NEWUSER;
        pid = (pid_t)syscall(SYS_clone, flags, NULL, NULL, NULL, NULL);
    } else {
        pid = fork();
    }
    if (pid < 0) die(opt.box ? "clone box" : "fork solver");
    if (pid > 0) return pid;

    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (opt.box) box_init(in_fd, out_fd, err_fd, exe_fd, errpipe, record_fd, export_fd);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    join_cgroups(errpipe);
    if (opt.solver_dir && chdir(opt.solver_dir) < 0) child_fail(errpipe, "chdir solver dir");
    exec_solver(in_fd, out_fd, err_fd, exe_fd, errpipe);
    return -1;
}

/* ---- prefill (the batch variant): data the solver reads before the interaction ---- */

/* Room the interactor keeps in the solver's stdin pipe on top of the prefill: a default pipe's. */
#define PREFILL_ROOM 65536

static long pipe_max_size(void) {
    char buf[64];
    long v = 0;
    if (read_file("/proc/sys/fs", "pipe-max-size", buf, sizeof buf) == 0) v = atol(buf);
    return v > 0 ? v : 1048576;
}

/* Write what fits of the prefill into the (still empty) solver's stdin pipe without blocking,
 * after enlarging it where the kernel grants that. Returns the bytes written. */
static long long prefill_direct(int pipe_w, int file_fd, long long size) {
    if (size <= 0) return 0;
    long long want = size + PREFILL_ROOM;
    if (want > pipe_max_size()) return 0;  /* does not fit: the relay writes all of it */
    int got = fcntl(pipe_w, F_SETPIPE_SZ, (int)want);
    if (got < want) return 0;  /* not granted (a user's pipe pages are spent): the relay */
    int fl = fcntl(pipe_w, F_GETFL);
    fcntl(pipe_w, F_SETFL, fl | O_NONBLOCK);
    long long done = 0;
    char buf[1 << 16];
    while (done < size) {
        ssize_t n = pread(file_fd, buf, sizeof buf, (off_t)done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        ssize_t w = write(pipe_w, buf, (size_t)n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        done += w;
        if (w < n) break;  /* full after all: the relay writes the rest */
    }
    fcntl(pipe_w, F_SETFL, fl);  /* the interactor inherits this file description: blocking again */
    return done;
}

/* The relay: a child of the supervisor, never in the box or the slot's cgroups. It writes the
 * prefill from `offset` on, then copies the interactor's output to the solver's stdin until that
 * output ends (then the solver's stdin closes with it) or the solver is gone (EPIPE). */
static pid_t spawn_relay(int file_fd, long long offset, int from_inter, int to_solver) {
    pid_t pid = fork();
    if (pid < 0) die("fork prefill relay");
    if (pid > 0) return pid;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    signal(SIGPIPE, SIG_IGN);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* nothing but its three descriptors: a copy of another end would hide an EOF */
    for (int fd = 0; fd < 1024; fd++)
        if (fd != file_fd && fd != from_inter && fd != to_solver) close(fd);
    static char buf[1 << 16];
    long long off = offset;
    for (;;) {
        ssize_t n = pread(file_fd, buf, sizeof buf, (off_t)off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        for (ssize_t w = 0; w < n;) {
            ssize_t k = write(to_solver, buf + w, (size_t)(n - w));
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) _exit(0);  /* the solver is gone */
            w += k;
        }
        off += n;
    }
    close(file_fd);
    int use_splice = 1;
    for (;;) {
        ssize_t n;
        if (use_splice) {
            n = splice(from_inter, NULL, to_solver, NULL, sizeof buf, SPLICE_F_MOVE);
            if (n < 0 && errno == EINVAL) { use_splice = 0; continue; }
        } else {
            n = read(from_inter, buf, sizeof buf);
            for (ssize_t w = 0; n > 0 && w < n;) {
                ssize_t k = write(to_solver, buf + w, (size_t)(n - w));
                if (k < 0 && errno == EINTR) continue;
                if (k <= 0) _exit(0);
                w += k;
            }
        }
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;  /* the interactor's output ended (or the solver is gone) */
    }
    _exit(0);
}

struct inter_spawn { int in_fd, out_fd, err_fd, case_fd, errpipe; };

/* The interactor's side of the spawn: it runs on a stack of its own in the server's memory until
 * its exec (CLONE_VM | CLONE_VFORK, as posix_spawn does), so it only makes system calls and
 * writes nothing the server reads. */
static int interactor_child(void *arg) {
    const struct inter_spawn *sp = arg;
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* A solver that closes its stdin must not be able to kill its judge with SIGPIPE (a judge
     * crash is SE): the interactor's write fails with EPIPE instead, whatever header it uses. */
    signal(SIGPIPE, SIG_IGN);
    setpgid(0, 0);
    if (dup2(sp->in_fd, 0) < 0 || dup2(sp->out_fd, 1) < 0 || dup2(sp->err_fd, 2) < 0) child_fail(sp->errpipe, "dup2");
    if (sp->case_fd >= 0 && dup2(sp->case_fd, 3) < 0) child_fail(sp->errpipe, "dup2 case");
    rlim_t cpu_s = (rlim_t)((opt.inter_cpu_ms + 999) / 1000);
    set_limit(RLIMIT_CPU, cpu_s, cpu_s + 1);
    set_limit(RLIMIT_CORE, 0, 0);
    /* Trusted task code, but a runaway one must not take the node down with it. */
    if (opt.inter_as_kb > 0) set_limit(RLIMIT_AS, (rlim_t)opt.inter_as_kb * 1024, (rlim_t)opt.inter_as_kb * 1024);
    if (opt.inter_dir && chdir(opt.inter_dir) < 0) child_fail(sp->errpipe, "chdir interactor dir");
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
    child_fail(sp->errpipe, "exec interactor");
    return 127;
}

/* The interactor, started without copying the server's memory: its start-up is the longest part
 * of a short case, and a fork's page-table copy would come before it. */
static pid_t spawn_interactor(int in_fd, int out_fd, int err_fd, int case_fd, int errpipe) {
    static char stack[256 * 1024] __attribute__((aligned(16)));
    struct inter_spawn sp = {in_fd, out_fd, err_fd, case_fd, errpipe};
    pid_t pid = clone(interactor_child, stack + sizeof stack, CLONE_VM | CLONE_VFORK | SIGCHLD, &sp);
    if (pid < 0) die("fork interactor");
    return pid;
}

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

#include "stall.h"

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

static int run_case(int argc, char **argv);

/* A new epoch (sample): the server moves into a fresh network namespace, with no interfaces but
 * a loopback that is down, which its cases (and their interactors) then share. Without root the
 * server first becomes the owner of a user namespace of its own, mapped to the judge's ids,
 * which a network namespace needs. If either step fails, cases make their own as before. */
static void enter_epoch(void) {
    static int own_userns;
    if (opt.userns && !own_userns) {
        char map[64];
        long uid = (long)getuid(), gid = (long)getgid();
        if (unshare(CLONE_NEWUSER) < 0) return;
        int ok = 1;
        int fd = open("/proc/self/setgroups", O_WRONLY | O_CLOEXEC);
        ok &= fd >= 0 && write(fd, "deny", 4) == 4;
        if (fd >= 0) close(fd);
        snprintf(map, sizeof map, "%ld %ld 1\n", uid, uid);
        fd = open("/proc/self/uid_map", O_WRONLY | O_CLOEXEC);
        ok &= fd >= 0 && write(fd, map, strlen(map)) == (ssize_t)strlen(map);
        if (fd >= 0) close(fd);
        snprintf(map, sizeof map, "%ld %ld 1\n", gid, gid);
        fd = open("/proc/self/gid_map", O_WRONLY | O_CLOEXEC);
        ok &= fd >= 0 && write(fd, map, strlen(map)) == (ssize_t)strlen(map);
        if (fd >= 0) close(fd);
        if (!ok) { printf("setup_error=user namespace of the server: %s\n__end__\n", strerror(errno)); fflush(stdout); exit(2); }
        own_userns = 1;
    }
    if (unshare(CLONE_NEWNET) == 0) server_net_epoch = opt.net_epoch;
}

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
        sched_getaffinity(0, sizeof server_cpus, &server_cpus);
        sigset_t mask;
        sigemptyset(&mask);
        sigaddset(&mask, SIGCHLD);
        sigaddset(&mask, SIGUSR1);  /* held for a box's init until it can handle it */
        sigprocmask(SIG_BLOCK, &mask, NULL);
        prctl(PR_SET_CHILD_SUBREAPER, 1);
        prctl(PR_SET_PDEATHSIG, SIGKILL);  /* dies with the judge that started it */
        return serve();
    }
    return run_case(argc, argv);
}

/* Where a case's time goes (scripts/bench_judge.py --phases): clock readings at fixed points of
 * run_case, reported relative to its start when IBENCH_SUPERVISOR_PHASES is set. */
static long phase_at[8];
static int phases_on = -1;
#define PHASE(i) (phase_at[i] = now_us())

static int run_case(int argc, char **argv) {
    if (phases_on < 0) phases_on = getenv("IBENCH_SUPERVISOR_PHASES") != NULL;
    PHASE(0);
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
