"""Judge stability (issue 31): ``rejudge`` judges a run's stored samples again with the
settings the run was made with, and counts the flips per stored verdict."""

from __future__ import annotations

import csv
from types import SimpleNamespace

from ibench.judge.verdict import Verdict
from ibench.results.analyses.rejudge import judge_settings, main, rejudge
from ibench.results.runlog import load

FIXTURES = "tests/fixtures/runs"


class ScriptedJudge:
    """Answers each judging with the next verdict of a script (a judge that flips on cue)."""

    def __init__(self, verdicts):
        self.verdicts = list(verdicts)
        self.calls = []

    def judge(self, task, code, language="cpp"):
        self.calls.append((task.task_id, language, bool(code)))
        return SimpleNamespace(verdict=Verdict(self.verdicts.pop(0)), score=None, message="scripted")


def test_the_runs_own_judge_settings_are_used():
    default = judge_settings(load(f"{FIXTURES}/default"))
    assert (default.all_cases, default.transcript_bytes, default.variant) == (False, 16384, "interactive")
    made = judge_settings(load(f"{FIXTURES}/repeat_n3_judge"))  # judge.all_cases=true judge.transcript_bytes=1024
    assert (made.all_cases, made.transcript_bytes) == (True, 1024)
    assert judge_settings(load(f"{FIXTURES}/batch_variant")).variant == "batch"


def test_flips_are_counted_per_stored_verdict():
    # the default fixture: by task and index, fx-guess-a 0 OK, 1 WA; fx-guess-b 0 OK, 1 WA
    stored = ["OK", "WA", "OK", "WA"]
    second = ["OK", "WA", "TLE", "WA"]  # the second judging flips one OK to TLE
    judge = ScriptedJudge(stored + second)
    rows, summary = rejudge(f"{FIXTURES}/default", times=2, judge=judge)
    assert len(judge.calls) == 8 and all(c[2] for c in judge.calls)
    assert [r["stored"] for r in rows[:4]] == stored
    by = {s["stored_verdict"]: (s["samples"], s["judgings"], s["flips"]) for s in summary}
    assert by == {"OK": (2, 4, 1), "WA": (2, 4, 0), "all": (4, 8, 1)}
    (flip,) = [r for r in rows if r["flipped"]]
    assert (flip["task_id"], flip["attempt"], flip["new"]) == ("fx-guess-b", 2, "TLE")


def test_the_real_judge_gives_the_stored_verdict_again(tmp_path):
    out = tmp_path / "out"
    assert main([f"{FIXTURES}/default", "--times", "1", "--limit", "2", "--out", str(out)]) == 0
    rows = list(csv.DictReader(open(out / "rejudge.csv")))
    assert [(r["task_id"], r["stored"], r["new"], r["flipped"]) for r in rows] == [
        ("fx-guess-a", "OK", "OK", "False"), ("fx-guess-a", "WA", "WA", "False")]
    summary = list(csv.DictReader(open(out / "rejudge_summary.csv")))
    assert summary[-1]["stored_verdict"] == "all" and summary[-1]["flips"] == "0"
    assert main([f"{FIXTURES}/default", "--times", "0"]) == 2
    assert main([f"{FIXTURES}/default", "--tasks", str(tmp_path)]) == 2  # no task folders there
