"""results sample: the reasoning, the answer and the exchange turn by turn, and samples listed by
verdict; failures.csv lists the failing samples (the composition is failure_composition.csv)."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

from rich.console import Console

from ibench.results.report import write_files
from ibench.results.runlog import RunLog
from ibench.results.cli import main
from ibench.results.runs import sample
from ibench.results.sample_view import list_samples

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "runs"
RUN = FIXTURES / "repeat_n3_judge"  # judge.transcript_bytes=1024: its cases keep their exchange


def _console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=160), buf


def test_sample_shows_reasoning_answer_and_the_failing_case_turn_by_turn():
    console, buf = _console()
    got = sample(RUN, "fx-guess-a", 1, console=console)
    text = buf.getvalue()
    assert got["verdict"] == "WA" and got["transcript_case"] == "001"
    assert got["answer"].startswith("```cpp") and "answer" in text and 'cout << "! 1"' in text
    assert "reasoning: (none recorded)" in text
    assert [t["who"] for t in got["transcript"]] == ["solver"] and "turn by turn" in text and "! 1" in text
    console, buf = _console()
    ok = sample(RUN, "fx-guess-a", 0, console=console)
    assert ok["verdict"] == "OK" and [t["who"] for t in ok["transcript"]][:2] == ["solver", "judge"]
    assert "? 50" in buf.getvalue()


def test_samples_are_listed_by_verdict(capsys):
    console, buf = _console()
    rows = list_samples(RUN, "WA", console)
    assert [(r["task_id"], r["sample_index"], r["verdict"]) for r in rows] == [("fx-guess-a", 1, "WA"),
                                                                                ("fx-guess-b", 1, "WA")]
    assert "OK: 4, WA: 2" in buf.getvalue()
    assert len(list_samples(RUN, None, _console()[0])) == 6
    assert len(list_samples(RUN, "fail", _console()[0])) == 2 and list_samples(RUN, "PE", _console()[0]) == []
    assert main(["sample", str(RUN), "--list", "--verdict", "WA"]) == 0
    assert "2 sample(s) with verdict WA" in " ".join(capsys.readouterr().out.split())


def test_failures_csv_lists_the_failing_samples(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(RUN, run)
    files = write_files(RunLog.open(run).run_summary, run, plots=False)
    rows = list(csv.DictReader(open(files["failures_csv"])))
    assert [(r["task_id"], r["sample_index"], r["verdict"], r["failing_case"]) for r in rows] == [
        ("fx-guess-a", "1", "WA", "001"), ("fx-guess-b", "1", "WA", "002")]
    assert all(r["sample_id"] and "wrong answer" in r["message"] for r in rows)
    comp = list(csv.DictReader(open(files["failure_composition_csv"])))
    assert comp[-1]["label"] == "SE" and {r["label"] for r in comp} >= {"WA", "PE", "IDLE"}
