/* Part of supervisor.c, one translation unit (included there, in order): a box that serves every case of a sample: its key, its init's case loop and clean-up, handing it a case. */

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

