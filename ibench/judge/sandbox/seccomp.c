/* Part of supervisor.c, one translation unit (included there, in order): the solver's seccomp filter: what it refuses and why, built as a search tree over syscall numbers. */

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

