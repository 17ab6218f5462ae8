"""SPEC §4's verdict rules on measured outcomes: every interplay of solver and interactor,
decided from supervisor reports built by hand (the end-to-end tests run real programs)."""

from __future__ import annotations

import pytest

from ibench.judge.sandbox.messages import ProcReport, RunReport, parse_report
from ibench.judge.verdict import (
    Verdict,
    decide_batch_run,
    decide_checker,
    decide_interactive,
    most_severe,
    parse_points,
    verdict_message,
    parse_verdict,
)

LIMITS = dict(cpu_limit_ms=1000, mem_kb=256 * 1024, wall_ms=3000, grace_ms=1000)


def report(solver: ProcReport, inter: ProcReport | None, **kw) -> RunReport:
    base = dict(wall_us=10_000, wall_timeout=False, first_exit="interactor")
    base.update(kw)
    return RunReport(solver=solver, interactor=inter, **base)


def decide(r: RunReport, msg: str = "", queries: int | None = 3, limit: int | None = 10) -> Verdict:
    return decide_interactive(r, interactor_message=msg, queries=queries, query_limit=limit, **LIMITS).verdict


def ok_exit() -> ProcReport:
    return ProcReport(exit_code=0, cpu_us=2000, maxrss_kb=3000)


def test_clean_accept():
    assert decide(report(ok_exit(), ProcReport(exit_code=0)), "ok fine") is Verdict.OK


def test_segfault_then_interactor_eof_is_re_not_pe():
    r = report(ProcReport(signal=11, cpu_us=1000, maxrss_kb=3000), ProcReport(exit_code=2), first_exit="interactor")
    assert decide(r, "wrong output format Unexpected end of file - int32 expected") is Verdict.RE


def test_segfault_then_eof_code_8_is_re():
    r = report(ProcReport(signal=11), ProcReport(exit_code=8))
    assert decide(r, "unexpected eof") is Verdict.RE


def test_crash_after_correct_answer_is_re():
    assert decide(report(ProcReport(signal=6), ProcReport(exit_code=0)), "ok") is Verdict.RE
    assert decide(report(ProcReport(exit_code=3), ProcReport(exit_code=0)), "ok") is Verdict.RE


def test_wa_then_spin_is_wa_not_tle():
    # The interactor said WA; the solver spun on until the judge killed it. Only the CPU spent
    # before the verdict counts, and the kill is not the solver's fault.
    s = ProcReport(signal=9, killed="judge", cpu_us=5_000_000)
    r = report(s, ProcReport(exit_code=1), solver_cpu_at_interactor_exit_us=20_000, cg_cpu_us=5_000_000)
    assert decide(r, "wrong answer 3 vs 4") is Verdict.WA


def test_sigpipe_after_interactor_verdict_is_not_re():
    s = ProcReport(signal=13, killed="judge")
    assert decide(report(s, ProcReport(exit_code=2)), "wrong output format Expected integer") is Verdict.PE
    s = ProcReport(signal=13)
    assert decide(report(s, ProcReport(exit_code=1)), "wrong answer") is Verdict.WA


def test_interactor_fail_and_crash_are_judge_errors():
    assert decide(report(ok_exit(), ProcReport(exit_code=3)), "FAIL bad case") is Verdict.SE
    assert decide(report(ok_exit(), ProcReport(signal=11)), "") is Verdict.SE
    assert decide(report(ok_exit(), ProcReport(exit_code=42)), "") is Verdict.SE


def test_interactor_fail_outranks_solver_crash():
    assert decide(report(ProcReport(signal=11), ProcReport(exit_code=3)), "FAIL") is Verdict.SE


def test_qle_over_wa_and_ok_pe_over_qle():
    assert decide(report(ok_exit(), ProcReport(exit_code=1)), "wrong answer", queries=11, limit=10) is Verdict.QLE
    assert decide(report(ok_exit(), ProcReport(exit_code=0)), "ok", queries=11, limit=10) is Verdict.QLE
    assert decide(report(ok_exit(), ProcReport(exit_code=2)), "wrong output format x", queries=11, limit=10) is Verdict.PE
    assert decide(report(ok_exit(), ProcReport(exit_code=0)), "ok", queries=10, limit=10) is Verdict.OK


def test_resources_outrank_protocol():
    tle = ProcReport(signal=27, cpu_us=1_050_000)
    assert decide(report(tle, ProcReport(exit_code=2)), "wrong output format Unexpected end of file") is Verdict.TLE
    oom = report(ProcReport(signal=9), ProcReport(exit_code=2), oom_killed=True)
    assert decide(oom, "wrong output format Unexpected end of file") is Verdict.MLE
    big = ProcReport(exit_code=0, maxrss_kb=300 * 1024)
    assert decide(report(big, ProcReport(exit_code=0)), "ok") is Verdict.MLE


def test_wall_cap_idle_vs_tle_by_scheduler_state():
    # Blocked at the cap: IDLE, even with some CPU used before blocking.
    idle = report(ProcReport(signal=9, killed="wall", cpu_us=600_000), ProcReport(signal=9, killed="wall"),
                  wall_timeout=True, solver_runnable_at_kill=False, interactor_runnable_at_kill=False)
    assert decide(idle) is Verdict.IDLE
    # Runnable at the cap but within its CPU limit: the node starved it (the supervisor waits
    # four times the hard cap for such a solver before it gives up): a judge error, never TLE.
    starved = report(ProcReport(signal=9, killed="wall", cpu_us=100_000), ProcReport(signal=9, killed="wall"),
                     wall_timeout=True, solver_runnable_at_kill=True)
    assert decide(starved) is Verdict.SE
    # Ended by the supervisor's exact CPU check: TLE.
    over = report(ProcReport(signal=9, killed="cpu", cpu_us=1_000_400), ProcReport(signal=9, killed="wall"))
    assert decide(over) is Verdict.TLE
    # Without the state, the CPU share decides.
    spin = report(ProcReport(signal=9, killed="wall", cpu_us=900_000), ProcReport(signal=9, killed="wall"),
                  wall_timeout=True, cg_cpu_us=900_000)
    assert decide(spin) is Verdict.TLE


def test_interactor_busy_while_solver_waits_is_judge_error():
    r = report(ProcReport(signal=9, killed="wall", cpu_us=1000), ProcReport(signal=9, killed="wall"),
               wall_timeout=True, solver_runnable_at_kill=False, interactor_runnable_at_kill=True,
               solver_output_pending=12, solver_blocked_writing=False)
    assert decide(r) is Verdict.SE


def test_interactor_busy_with_the_solvers_flood_is_the_solvers_idle():
    for kw in ({"solver_blocked_writing": True, "solver_output_pending": 0},
               {"solver_blocked_writing": False, "solver_output_pending": 65536}):
        r = report(ProcReport(signal=9, killed="wall", cpu_us=1000), ProcReport(signal=9, killed="wall"),
                   wall_timeout=True, solver_runnable_at_kill=False, interactor_runnable_at_kill=True, **kw)
        assert decide(r) is Verdict.IDLE, kw


def test_a_cpu_timer_signal_below_the_limit_is_the_programs_crash():
    # The kernel's timers are backstops well past the limit; below it the program signalled itself.
    r = report(ProcReport(signal=27, cpu_us=300_000), ProcReport(exit_code=2), first_exit="solver")
    assert decide(r, "wrong output format Unexpected end of file") is Verdict.RE
    over = report(ProcReport(signal=27, cpu_us=1_500_000), ProcReport(exit_code=2), first_exit="solver")
    assert decide(over, "wrong output format Unexpected end of file") is Verdict.TLE


def test_grace_after_accept_blocked_or_spinning():
    blocked = report(ProcReport(signal=9, killed="grace", cpu_us=5000), ProcReport(exit_code=0),
                     solver_cpu_at_interactor_exit_us=4000, solver_runnable_at_kill=False)
    assert decide(blocked, "ok") is Verdict.IDLE
    # The grace is the solver's own CPU time: TLE once it has used all of it after the acceptance
    spinning = report(ProcReport(signal=9, killed="grace", cpu_us=1_020_000), ProcReport(exit_code=0),
                      solver_cpu_at_interactor_exit_us=10_000, solver_runnable_at_kill=True)
    assert decide(spinning, "ok") is Verdict.TLE
    # runnable but given almost no CPU since (a loaded node, past the supervisor's patience): SE
    starved = report(ProcReport(signal=9, killed="grace", cpu_us=15_000), ProcReport(exit_code=0),
                     solver_cpu_at_interactor_exit_us=10_000, solver_runnable_at_kill=True)
    assert decide(starved, "ok") is Verdict.SE


def test_solver_stops_early_is_pe():
    assert decide(report(ok_exit(), ProcReport(exit_code=2), first_exit="solver"),
                  "wrong output format Unexpected end of file - token expected") is Verdict.PE


def test_interactor_hang_after_solver_exit_is_judge_error():
    r = report(ok_exit(), ProcReport(signal=9, killed="wall"), wall_timeout=True, first_exit="solver")
    assert decide(r) is Verdict.SE


def test_setup_error_is_judge_error():
    assert decide(report(ProcReport(), ProcReport(), setup_error="exec solver: ENOENT")) is Verdict.SE


def test_batch_rules():
    lim = dict(cpu_limit_ms=1000, mem_kb=256 * 1024, wall_ms=3000)
    assert decide_batch_run(report(ok_exit(), None), **lim) is None
    assert decide_batch_run(report(ProcReport(signal=25), None), **lim).verdict is Verdict.RE
    assert decide_batch_run(report(ProcReport(exit_code=1), None), **lim).verdict is Verdict.RE
    assert decide_batch_run(report(ProcReport(signal=24, cpu_us=2_000_000), None), **lim).verdict is Verdict.TLE
    assert decide_batch_run(report(ProcReport(signal=9, killed="wall", cpu_us=100), None), **lim).verdict is Verdict.IDLE


def test_checker_codes():
    assert decide_checker(0, "ok").verdict is Verdict.OK
    assert decide_checker(1, "wrong answer x").verdict is Verdict.WA
    assert decide_checker(2, "wrong output format").verdict is Verdict.PE
    assert decide_checker(3, "FAIL").verdict is Verdict.SE
    assert decide_checker(None, "").verdict is Verdict.SE
    d = decide_checker(7, "points 0.25 partial")
    assert d.verdict is Verdict.WA and d.score == 0.25
    assert decide_checker(7, "points 1 full").verdict is Verdict.OK
    assert decide_checker(7, "points").verdict is Verdict.SE
    assert parse_points("points 2.0") == 1.0
    # `_pc(k)` exits with k itself (0 for _pc(0), 3 for _pc(3)): partial is never OK, PE or SE.
    for code in (0, 1, 2, 3, 50):
        d = decide_checker(code, f"partially correct ({code}) half the pairs")
        assert (d.verdict, d.score) == (Verdict.WA, 0.0), code


def test_interactor_points_and_partial_credit():
    """Exit 7 (quitp) is Accepted only at the full score; `_pc(k)` is never Accepted."""
    def run(code: int, msg: str, solver: ProcReport | None = None):
        return decide_interactive(report(solver or ok_exit(), ProcReport(exit_code=code)), interactor_message=msg,
                                  queries=3, query_limit=10, **LIMITS)
    d = run(7, "points 0.4 Ratio: 0.4")
    assert (d.verdict, d.score) == (Verdict.WA, 0.4)
    d = run(7, "points 1 Ratio: 1")
    assert (d.verdict, d.score) == (Verdict.OK, 1.0)
    assert run(7, "points").verdict is Verdict.SE
    for code in (0, 1, 2, 3, 16):
        assert run(code, f"partially correct ({code}) 3 of 5").verdict is Verdict.WA, code
    # A partial verdict is the interactor's own rejection: a crash or spin after it does not change it.
    assert run(2, "partially correct (2) x", ProcReport(signal=11, cpu_us=1000)).verdict is Verdict.WA
    # Over the budget it is QLE, as for WA.
    d = decide_interactive(report(ok_exit(), ProcReport(exit_code=7)), interactor_message="points 0.5",
                           queries=11, query_limit=10, **LIMITS)
    assert d.verdict is Verdict.QLE


def test_sample_label_is_most_severe_not_first():
    assert most_severe([Verdict.WA, Verdict.WA, Verdict.RE, Verdict.PE]) is Verdict.RE
    assert most_severe([Verdict.WA, Verdict.QLE]) is Verdict.QLE
    assert most_severe([Verdict.QLE, Verdict.PE]) is Verdict.PE
    assert most_severe([Verdict.IDLE, Verdict.MLE, Verdict.TLE]) is Verdict.TLE
    assert most_severe([Verdict.CE, Verdict.SE]) is Verdict.SE
    assert most_severe([]) is Verdict.OK


@pytest.mark.parametrize("text,v", [("AC", Verdict.OK), ("ok", Verdict.OK), ("ILE", Verdict.IDLE), ("qle", Verdict.QLE),
                                    ("RTE", Verdict.RE), ("TL", Verdict.TLE), ("ml", Verdict.MLE), ("IL", Verdict.IDLE)])
def test_parse_verdict(text, v):
    assert parse_verdict(text) is v


def test_parse_verdict_rejects_unknown():
    with pytest.raises(ValueError, match="expected one of"):
        parse_verdict("BAD")


def test_parse_report_roundtrip():
    text = ("wall_us=1234\nwall_timeout=0\nfirst_exit=interactor\nsolver_signal=11\nsolver_cpu_us=900\n"
            "solver_maxrss_kb=3000\nsolver_killed=none\nsolver_wall_us=1000\ninteractor_exit=2\n"
            "interactor_cpu_us=100\ninteractor_maxrss_kb=2000\ninteractor_killed=none\ncg_cpu_us=950\n"
            "cg_peak_kb=4000\ncg_oom=0\n")
    r = parse_report(text, "root")
    assert r.solver.signal == 11 and r.solver.status_text == "signal 11 (SIGSEGV)"
    assert r.interactor is not None and r.interactor.exit_code == 2
    assert r.solver_cpu_ms == pytest.approx(0.95) and r.solver_peak_kb == 3000 and not r.oom_killed


def test_rlimit_mode_allocation_failure_is_mle():
    r = report(ProcReport(signal=6, maxrss_kb=20_000), ProcReport(exit_code=2), sandbox="rlimit+seccomp",
               solver_stderr_tail="terminate called after throwing an instance of 'std::bad_alloc'")
    assert decide(r, "wrong output format Unexpected end of file") is Verdict.MLE
    plain_crash = report(ProcReport(signal=6, maxrss_kb=20_000), ProcReport(exit_code=2), sandbox="rlimit+seccomp")
    assert decide(plain_crash, "wrong output format Unexpected end of file") is Verdict.RE
    # Python's allocation failure under the address-space limit: MLE too.
    py = report(ProcReport(exit_code=1, maxrss_kb=20_000), ProcReport(exit_code=2), sandbox="rlimit+seccomp",
                solver_stderr_tail="    a = [0] * n\n        ^^^^^^^^^\nMemoryError\n")
    assert decide(py, "wrong output format Unexpected end of file") is Verdict.MLE


def test_verdict_message_is_found_past_debug_output_and_long_text():
    long = "partially correct (0) half right " + "x" * 1500
    msg = verdict_message("debug\n" * 500 + long + "\n", 1000)
    assert msg.startswith("partially correct (0)") and len(msg) == 1000
    assert decide_checker(0, msg).verdict is Verdict.WA
    assert verdict_message("noise\npoints 0.25 Ratio\n", 1000) == "points 0.25 Ratio"
    assert verdict_message("Segmentation fault", 1000) == "Segmentation fault"  # no testlib line: the tail
    assert verdict_message("okay, not testlib", 1000) == "okay, not testlib"
