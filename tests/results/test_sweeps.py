"""Every ``-m`` invocation is a sweep with a folder and a record of its own; ``results sweep`` and
the viewer take the swept key from that record, sort values by type, and compare runs of
different task sets on their common tasks (saying so) or refuse (``--strict``)."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
import yaml
from rich.console import Console

from ibench.run.config import SWEEP_KEYS_ENV, run_leaf
from ibench.results import sweep as sw
from ibench.results import sweeps
from ibench.results.runlog import RunLog

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "runs"
BUDGETS = (16384, 1024, 4096)  # made out of order: the report sorts them by value


def _run(sweep_dir: Path, budget: int, tasks: dict[str, float]) -> Path:
    """A copy of the fixture run `default`, as a job of ``sweep_dir`` with its budget and task set."""
    run = sweep_dir / "reference" / f"sampling.reasoning_budget={budget}"
    shutil.copytree(FIXTURES / "default", run)
    cfg = yaml.safe_load((run / ".hydra" / "config.yaml").read_text())
    cfg["sampling"]["reasoning_budget"] = budget
    cfg["pipeline"]["flush_rows"] = budget  # an execution setting that differs too: never the axis
    (run / ".hydra" / "config.yaml").write_text(yaml.safe_dump(cfg))
    summary = json.loads((run / "summary.json").read_text())
    summary["tasks"] = [dict(t, pass_at={"1": tasks[t["task_id"]], "5": None}) for t in summary["tasks"]
                        if t["task_id"] in tasks]
    summary["n_tasks"] = len(tasks)
    summary["overall"]["pass_at"]["1"] = sum(tasks.values()) / len(tasks)
    (run / "summary.json").write_text(json.dumps(summary))
    spec = json.loads((run / "spec.json").read_text())
    spec["tasks"] = [{"id": t, "fingerprint": None} for t in sorted(tasks)]
    (run / "spec.json").write_text(json.dumps(spec))
    return run


@pytest.fixture
def two_sweeps(tmp_path):
    """Two reasoning-budget sweeps of one model: A on two tasks, B on one of them."""
    a, b = tmp_path / "sweeps" / "reasoning_budget-aaaa", tmp_path / "sweeps" / "reasoning_budget-bbbb"
    for d, sid, tasks in ((a, "reasoning_budget-aaaa", {"fx-guess-a": 0.25, "fx-guess-b": 0.75}),
                          (b, "reasoning_budget-bbbb", {"fx-guess-a": 0.5})):
        sweeps.write_record(d, sid, ["sampling.reasoning_budget"], ["sampling.reasoning_budget=1024,4096,16384"])
        for budget in BUDGETS:
            _run(d, budget, {t: v + budget / 1e5 for t, v in tasks.items()})
    return a, b


def test_one_sweep_takes_its_key_from_its_record_and_sorts_values_by_type(two_sweeps):
    a, _ = two_sweeps
    key, runs, note = sw.prepare([RunLog.open(p) for p in sorted(a.rglob("summary.json"))
                                  for p in [p.parent]], [1, 5])
    assert key == "sampling.reasoning_budget" and note is None
    assert [r.value for r in runs] == [1024, 4096, 16384]
    assert {r.sweep for r in runs} == {"reasoning_budget-aaaa"} and {r.model for r in runs} == {"reference"}


def test_two_sweeps_of_different_task_sets_are_restricted_to_the_common_tasks(two_sweeps, tmp_path):
    a, b = two_sweeps
    out = tmp_path / "report"
    assert sw.main([str(a), str(b), "--out", str(out)]) == 0
    md = (out / "sweep.md").read_text()
    assert md.startswith("Note: restricted to the 1 task(s) all runs have")
    assert "reference · reasoning_budget-aaaa (3 runs): 2 task(s) (+fx-guess-b)" in md
    assert "reference · reasoning_budget-bbbb (3 runs): 1 task(s)" in md
    rows = list(__import__("csv").DictReader(open(out / "sweep.csv")))
    assert {r["model"] for r in rows} == {"reference · reasoning_budget-aaaa", "reference · reasoning_budget-bbbb"}
    assert all(r["n_tasks"] == "1" for r in rows)
    a1024 = next(r for r in rows if r["model"].endswith("aaaa") and r["sampling.reasoning_budget"] == "1024")
    assert float(a1024["pass@1"]) == pytest.approx(0.25 + 1024 / 1e5)  # fx-guess-a alone, not the 2-task mean
    assert "pass@5" not in rows[0]  # n < 5: no pass@5 column
    assert (out / "sweep.png").is_file() and (out / "sweep.pdf").is_file()


def test_strict_refuses_naming_the_difference(two_sweeps, tmp_path):
    a, b = two_sweeps
    with pytest.raises(SystemExit) as err:
        sw.main([str(a), str(b), "--strict", "--out", str(tmp_path / "r")])
    assert "task sets differ" in str(err.value) and "fx-guess-b" in str(err.value)


def test_no_common_task_is_refused(two_sweeps, tmp_path):
    a, _ = two_sweeps
    c = tmp_path / "sweeps" / "reasoning_budget-cccc"
    sweeps.write_record(c, "reasoning_budget-cccc", ["sampling.reasoning_budget"], None)
    _run(c, 1024, {"fx-guess-z": 0.5})
    logs = [RunLog.open(p.parent) for p in [*a.rglob("summary.json"), *c.rglob("summary.json")]]
    with pytest.raises(sw.SweepError, match="share no task"):
        sw.prepare(logs, [1])


def test_without_a_record_only_measured_settings_are_guessed(two_sweeps):
    a, _ = two_sweeps
    (a / "sweep.json").unlink()
    key, runs, _ = sw.prepare([RunLog.open(p.parent) for p in a.rglob("summary.json")], [1])
    assert key == "sampling.reasoning_budget"  # not pipeline.flush_rows, which differs as much
    assert [r.value for r in runs] == [1024, 4096, 16384]


def test_the_viewer_sweep_page_uses_the_record_and_the_common_tasks(two_sweeps, tmp_path):
    from ibench.results.viewer import _sweep

    a, b = two_sweeps
    logs = [RunLog.open(p.parent) for p in sorted([*a.rglob("summary.json"), *b.rglob("summary.json")])]
    got = _sweep(logs, tmp_path)
    assert got["key"] == "sampling.reasoning_budget" and "restricted to the 1 task(s)" in got["note"]
    assert (tmp_path / "sweep.png").is_file() and got["ks"] == [1]


def test_show_of_a_sweep_sorts_budgets_by_value(two_sweeps):
    from ibench.results.runs import show_many

    a, _ = two_sweeps
    order = show_many(a, Console(file=io.StringIO(), width=200))
    assert [p.name for p in order] == [f"sampling.reasoning_budget={b}" for b in (1024, 4096, 16384)]


def test_sweep_ids_are_deterministic_and_part_by_what_is_measured():
    base = ["sampling.reasoning_budget=1024,4096", "bench.ids=[a,b,c]", "cluster.num_cpus=2"]
    sid = sweeps.sweep_id(["sampling.reasoning_budget"], base)
    assert sid.startswith("reasoning_budget-") and len(sid) == len("reasoning_budget-") + 8
    assert sweeps.sweep_id(["sampling.reasoning_budget"], [*base[:2], "cluster.num_cpus=8"]) == sid  # execution
    assert sweeps.sweep_id(["sampling.reasoning_budget"], [base[0], "bench.ids=[a,b]"]) != sid  # other tasks


def test_a_sweep_job_folder_is_named_by_its_swept_values(monkeypatch):
    overrides = ["sampling.reasoning_budget=4096", "bench.ids=[a,b,c,d,e]", "model.model=Qwen/Qwen3-32B"]
    monkeypatch.setenv(SWEEP_KEYS_ENV, "sampling.reasoning_budget")
    assert run_leaf(overrides) == "sampling.reasoning_budget=4096"
    monkeypatch.delenv(SWEEP_KEYS_ENV)
    assert run_leaf(overrides).startswith("bench.ids=")


def test_record_of_finds_the_sweep_above_a_job(two_sweeps):
    a, _ = two_sweeps
    rec = sweeps.record_of(a / "reference" / "sampling.reasoning_budget=1024")
    assert rec and rec["id"] == "reasoning_budget-aaaa" and rec["swept"] == ["sampling.reasoning_budget"]
    assert sweeps.record_of(FIXTURES / "default") is None


def test_compare_over_different_task_sets_says_what_it_left_out(tmp_path):
    from ibench.results.runs import compare

    a = tmp_path / "a"
    shutil.copytree(FIXTURES / "default", a)
    b = _run(tmp_path / "b", 1024, {"fx-guess-a": 0.5})
    buf = io.StringIO()
    files = compare([a, b], out=tmp_path / "cmp", console=Console(file=buf, width=200))
    text = " ".join(buf.getvalue().split())
    assert "on 1 common task(s)" in text and "restricted to the 1 task(s) every run has; left out:" in text
    assert files["md"].read_text().startswith("Note: restricted to the 1 task(s) every run has")
