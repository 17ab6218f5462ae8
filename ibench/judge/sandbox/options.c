/* Part of supervisor.c, one translation unit (included there, in order): one case's options, read from its request and checked. */

static void usage(void) {
    fprintf(stderr,
            "usage: supervisor --solver EXE [--interactor EXE --case FILE --iarg A ...] [options]\n"
            "       supervisor --server   (requests on stdin: NUL-separated arguments, an empty one ends each)\n");
    errno = EINVAL;
    die("bad arguments");
}

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
