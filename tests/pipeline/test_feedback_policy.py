"""Refinement feedback follows a stated policy (issue 21, item 6): by default the verdict and the
limits, and only what the program itself could see — no interactor message (guess-the-number's
"hidden number is N"), and in the batch variant none of the program's own output or stderr, which
can echo the hidden case it read first. Checked on round 2's stored prompts of real launches
(the reference model replays known solutions; its round-2 request carries the feedback turn), and
on the feedback renderer with the policy switched on and off.

Before the change, round 2's prompt held "game 1: answered 1, hidden number is 2" and, in the
batch variant, the program's stderr copy of its hidden case."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from rich.console import Console

REPO = Path(__file__).resolve().parents[2]
ECHO = "HIDDEN-CASE-ECHO"

# Batch variant: copies its hidden case to stderr, then answers the first game with n >= 2 wrongly.
ECHO_STDERR = r"""
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T; if (!(cin >> T)) return 0;
    vector<long long> n(T), x(T);
    cerr << "HIDDEN-CASE-ECHO " << T << "\n";
    for (int i = 0; i < T; i++) { cin >> n[i] >> x[i]; cerr << "HIDDEN-CASE-ECHO " << n[i] << " " << x[i] << "\n"; }
    long long t, q; if (!(cin >> t >> q)) return 0;
    bool wrong = false;
    for (int g = 0; g < T; g++) {
        long long m; cin >> m; if (m == -1) return 0;
        long long y = x[g];
        if (!wrong && n[g] >= 2) { y = x[g] < n[g] ? x[g] + 1 : x[g] - 1; wrong = true; }
        cout << "! " << y << endl;
    }
}
"""
# Batch variant: copies its hidden case to stdout (the interactor's input): PE.
ECHO_STDOUT = r"""
#include <bits/stdc++.h>
using namespace std;
int main() {
    int T; if (!(cin >> T)) return 0;
    cout << "HIDDEN-CASE-ECHO " << T;
    for (int i = 0; i < 2 * T; i++) { long long v; cin >> v; cout << " " << v; }
    cout << endl;
}
"""


def make_tasks(root: Path) -> Path:
    """guess-the-number with a few known solutions: two wrong and one accepted interactive
    program, two echoing and one accepted batch-variant program."""
    src = REPO / "tasks" / "guess-the-number"
    dst = root / "guess-the-number"
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("solutions"))
    (dst / "solutions").mkdir()
    expected = json.loads((src / "solutions" / "expected.json").read_text())
    keep = ("wa_flipped_reply.cpp", "wa_early_stop.cpp", "ok_binary_search.cpp", "batch_ok_read_case.cpp")
    for name in keep:
        shutil.copy(src / "solutions" / name, dst / "solutions" / name)
    out = {name: expected[name] for name in keep}
    (dst / "solutions" / "batch_wa_echo_stderr.cpp").write_text(ECHO_STDERR)
    (dst / "solutions" / "batch_pe_echo_stdout.cpp").write_text(ECHO_STDOUT)
    out["batch_wa_echo_stderr.cpp"] = {"expected": "WA", "variant": "batch", "note": "echoes its case to stderr"}
    out["batch_pe_echo_stdout.cpp"] = {"expected": "PE", "variant": "batch", "note": "echoes its case to stdout"}
    (dst / "solutions" / "expected.json").write_text(json.dumps(out, indent=1))
    return root


@pytest.fixture(scope="module")
def tasks_dir(tmp_path_factory):
    return make_tasks(tmp_path_factory.mktemp("tasks"))


def launch(tasks_dir: Path, run_dir: Path, *extra: str):
    from hydra import compose, initialize_config_dir

    from ibench.run.config import CONF_DIR
    from ibench.run.driver import run
    from ibench.results.store import read_table

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose("config", overrides=[f"bench.tasks_dir={tasks_dir}", "bench.non_adaptive_cases=3",
                                           "pipeline.progress=false", "wandb.mode=disabled",
                                           "sampling.refine_rounds=2", *extra])
    run(cfg, run_dir, console=Console(file=io.StringIO(), width=200))
    samples = read_table(run_dir / "results", "samples")
    cases = read_table(run_dir / "results", "cases")
    feedback = [json.loads(p)[-1]["content"] for p in samples.filter(samples["round"] == 2)["prompt"].to_list()]
    return feedback, cases


def test_round_two_never_sees_the_interactors_message(ray_session, tasks_dir, tmp_path):
    feedback, cases = launch(tasks_dir, tmp_path / "run")
    # the leak's source is there: round 1's wrong answers were told the hidden number
    assert any("hidden number is" in m for m in cases["message"].to_list())
    assert len(feedback) == 2
    for text in feedback:
        assert "Wrong Answer" in text and "hidden number is" not in text and "Judge's message" not in text
        assert "CPU time:" in text and "the limit (1000 ms)" in text and "Queries:" in text and "the budget (" in text
        assert "What the judge replied" in text and "What your program wrote" in text  # both the program saw


def test_batch_variant_round_two_never_sees_its_echoed_case(ray_session, tasks_dir, tmp_path):
    feedback, cases = launch(tasks_dir, tmp_path / "run", "bench.variant=batch")
    tails = cases["solver_stderr_tail"].to_list() + cases["solver_to_judge_tail"].to_list()
    assert any(ECHO in t for t in tails)  # the programs did echo their hidden case
    assert len(feedback) == 2
    for text in feedback:
        assert ECHO not in text and "stderr" not in text and "What your program wrote" not in text
        assert "What the judge replied" in text  # the interactor's replies: the program read them


def test_policy_switches(tasks_dir):
    """The renderer alone: each switch shows its part; the defaults are the safe ones."""
    from ibench.generate.feedback import FeedbackSettings
    from ibench.tasks.load import load_task

    task = load_task(tasks_dir / "guess-the-number")
    case = {"case": "002", "verdict": "WA", "message": "game 1: answered 1, hidden number is 2", "cpu_ms": 3.0,
            "peak_kb": 2048, "queries": 1, "query_limit": 2, "solver_exit": "exit 0",
            "solver_to_judge_tail": "? 1\n! 1\n", "judge_to_solver_tail": "1 2\n2\n>\n-1\n",
            "solver_stderr_tail": f"{ECHO} 2 2\n"}
    result = {"verdict": "WA", "message": "case 002: WA: game 1: answered 1, hidden number is 2",
              "cases": [case], "compile": {"ok": True}}
    default = FeedbackSettings()
    assert not default.judge_message and not default.tails_from_hidden_input
    text = default.render(task, "cpp", "WA", result, 1)
    assert "hidden number is" not in text and ECHO in text  # interactive: its own stderr is its own
    assert "hidden number is 2" in FeedbackSettings(judge_message=True).render(task, "cpp", "WA", result, 1)
    batch_variant = FeedbackSettings(variant="batch")
    text = batch_variant.render(task, "cpp", "WA", result, 1)
    assert ECHO not in text and "? 1" not in text and "-1" in text
    assert ECHO in FeedbackSettings(variant="batch", tails_from_hidden_input=True).render(task, "cpp", "WA", result, 1)
    quiet = FeedbackSettings(judge_replies=False, program_output=False, program_stderr=False)
    text = quiet.render(task, "cpp", "WA", result, 1)
    assert "What" not in text and "stderr" not in text and "Queries: 10-50% of the budget (2)." in text
    # the policy is in the fingerprint: a resumed run never mixes feedback of two policies
    fps = {s.fingerprint() for s in (default, batch_variant, quiet, FeedbackSettings(judge_message=True))}
    assert len(fps) == 4
    # the variant is checked once, as bench.variant (ibench.run.spec.RunSpec), not again by each part
    assert not FeedbackSettings(variant="nope").problems()
    assert FeedbackSettings(figures="all").problems()


def test_figures_are_coarse_unless_asked(tasks_dir):
    """A program sets its own CPU time, memory, query count and exit code, from whatever it read
    (the batch variant reads its hidden case): the default feedback shows each only as a share of
    its limit in a few buckets, and how the program ended without the code."""
    from ibench.generate.feedback import FeedbackSettings
    from ibench.tasks.load import load_task

    task = load_task(tasks_dir / "guess-the-number")
    texts = set()
    for cpu, peak, code in ((3.0, 2048, 91), (7.0, 3000, 17), (44.0, 9000, 200)):
        case = {"case": "002", "verdict": "RE", "message": "", "cpu_ms": cpu, "peak_kb": peak, "queries": 1,
                "query_limit": 2, "solver_exit": f"exit {code}"}
        result = {"verdict": "RE", "message": "", "cases": [case], "compile": {"ok": True}}
        text = FeedbackSettings(variant="batch").render(task, "cpp", "RE", result, 1)
        assert str(code) not in text and f"{cpu:.0f} ms" not in text, text
        assert "exited with a non-zero status" in text and "under 10% of the limit (1000 ms)" in text, text
        texts.add(text)
        exact = FeedbackSettings(variant="batch", figures="exact").render(task, "cpp", "RE", result, 1)
        assert f"exit {code}" in exact and f"CPU time: {cpu:.0f} ms" in exact
    assert len(texts) == 1  # three programs that set their figures differently: one feedback
    assert FeedbackSettings().fingerprint() != FeedbackSettings(figures="exact").fingerprint()


def test_the_configured_policy_follows_the_variant():
    from hydra import compose, initialize_config_dir
    from omegaconf import OmegaConf

    from ibench.run.config import CONF_DIR

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        for variant in ("interactive", "batch"):
            cfg = compose("config", overrides=[f"bench.variant={variant}"])
            fb = OmegaConf.to_object(cfg.feedback)
            assert fb.variant == variant and not fb.judge_message and not fb.tails_from_hidden_input
