/* Part of supervisor.c, one translation unit (included there, in order): a case's report, key=value lines the judge parses (run.py, messages.py). */

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
