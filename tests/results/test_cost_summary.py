"""Cost in the summary, W&B and the viewer (issue 31): one computation
(:func:`ibench.results.cost.run_cost`) for ``summary.json`` ``cost``, the console report and
``cost.csv``, the ``cost/...`` summary keys W&B gets, and the viewer's run page (from the
summary, or from the store for a run whose summary predates it)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from analyses_synth import Sample, write_run
from rich.console import Console

from ibench.results.cost import cost_lines, cost_of_log, price_for, run_cost
from ibench.results.metrics import RunSummary
from ibench.results.runlog import load

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "runs"


def _run(tmp_path):
    samples = [Sample("guess-the-number", 0, "OK", 1000, 2.0, [100.0, 300.0], "int main(){}", reasoning_tokens=600),
               Sample("guess-the-number", 1, "WA", 3000, 4.0, [200.0], "int main(){}", reasoning_tokens=2000),
               Sample("sort-the-boxes", 0, "TLE", 2000, 6.0, [400.0], "int main(){}", reasoning_tokens=None)]
    return write_run(tmp_path / "run", samples, model="priced")


def test_per_sample_and_per_solved_task_with_money(tmp_path):
    log = load(_run(tmp_path))
    s, v, c = log.current()
    cost = run_cost(s, v, c, {"prompt_per_mtok": 1.0, "completion_per_mtok": 4.0})
    assert (cost["samples"], cost["judged"], cost["accepted"], cost["solved_tasks"]) == (3, 3, 1, 1)
    assert cost["completion_tokens"] == 6000 and cost["completion_tokens/sample"] == 2000
    assert cost["completion_tokens/solved_task"] == 6000  # one task solved: all of it
    assert cost["generation_s"] == pytest.approx(12.0) and cost["generation_s/sample"] == pytest.approx(4.0)
    assert cost["judge_cpu_s"] == pytest.approx(1.0) and cost["judge_cpu_s/sample"] == pytest.approx(1 / 3)
    assert cost["money"] == pytest.approx((3 * 800 * 1.0 + 6000 * 4.0) / 1e6)
    assert cost["money/solved_task"] == pytest.approx(cost["money"])
    assert "money" not in run_cost(s, v, c, None)  # no price: no money
    assert price_for({"priced": {"prompt_per_mtok": 1, "completion_per_mtok": 2}}, (None, "x", "priced"))
    assert cost_of_log(log, {})["judged"] == 3


def test_the_summary_keeps_it_reports_it_and_flattens_it_for_wandb(tmp_path):
    from ibench.results.report import render, write_files

    log = load(_run(tmp_path))
    summary = log.run_summary
    summary.cost = cost_of_log(log, {"priced": {"prompt_per_mtok": 1.0, "completion_per_mtok": 4.0}})
    files = write_files(summary, tmp_path / "out", plots=False)
    again = RunSummary.from_dict(json.loads(files["summary_json"].read_text()))
    assert again.cost == summary.cost
    flat = again.flat()
    assert flat["cost/completion_tokens/solved_task"] == 6000 and flat["cost/money"] == pytest.approx(summary.cost["money"])
    rows = {r["figure"]: r for r in csv.DictReader(open(files["cost_csv"]))}
    assert float(rows["judge_cpu_s"]["per_sample"]) == pytest.approx(1 / 3) and "money" in rows
    con = Console(width=150, record=True)
    render(again, con)
    text = con.export_text()
    assert "Cost — priced: 3 samples, 3 judged, 1 solved task(s)" in text and "judge CPU s (solver)" in text
    # a summary from before cost existed reads, renders and flattens without one
    old = json.loads(files["summary_json"].read_text())
    del old["cost"]
    plain = RunSummary.from_dict(old)
    assert plain.cost == {} and not any(k.startswith("cost/") for k in plain.flat())


def test_cost_lines_only_what_has_a_value():
    rows = cost_lines({"generation_s": 0.5, "generation_s/sample": 0.25, "judge_cpu_s": None, "money": 12345.0})
    assert [r[0] for r in rows] == ["generation s (latency)", "money"]
    assert rows[0][1:] == ("0.5", "0.25", "—") and rows[1][1] == "12,345"


def test_the_viewer_run_page_has_the_cost_of_an_old_summary_too():
    from ibench.results.viewer import _cost_entry

    log = load(FIXTURES / "default")
    assert "cost" not in log.summary  # made before the summary had a cost: computed from the store
    s, v, c = log.current()
    entry = _cost_entry(log, s, v, c)
    assert entry["judged"] == v.height and entry["priced"] is False
    assert "judge CPU s (solver)" in [r[0] for r in entry["rows"]]


def test_the_launch_reads_it_from_the_open_store_by_its_keys(tmp_path):
    from ibench.results.cost import cost_of_store
    from ibench.results.store import RunStore

    run = _run(tmp_path)
    log = load(run)
    meta = log.summary["meta"]
    with RunStore(run / "results") as store:
        cost = cost_of_store(store, meta["gen_key"], meta["judge_key"], ("nobody", "priced"),
                             {"priced": {"prompt_per_mtok": 1.0, "completion_per_mtok": 4.0}})
        other = cost_of_store(store, "another-gen-key", meta["judge_key"], ("priced",), {})
    assert cost == cost_of_log(log, {"priced": {"prompt_per_mtok": 1.0, "completion_per_mtok": 4.0}})
    assert other["samples"] == 0 and other["judge_cpu_s"] is None  # another configuration's rows are not its own


def test_wandb_gets_the_cost_keys_and_a_table_of_its_own(tmp_path, monkeypatch, caplog):
    import glob
    import time

    from ibench.results.report import per_task_rows
    from ibench.results.wandb_sink import WandbSink, read_offline_run

    monkeypatch.setenv("WANDB_SILENT", "true")
    log = load(_run(tmp_path))
    summary = log.run_summary
    summary.cost = cost_of_log(log, {})
    sink = WandbSink(mode="offline", dir=tmp_path / "wb", name="cost-test")
    sink.start()
    assert sink.run is not None
    sink.summary(summary, per_task_rows(summary))
    sink.finish(0, status="finished")
    (run,) = glob.glob(str(tmp_path / "wb" / "wandb" / "offline-run-*"))
    for _ in range(100):  # the run file is written by W&B's own process
        got = read_offline_run(run)["summary"]
        if "ibench/status" in got:
            break
        time.sleep(0.1)
    assert got["cost/completion_tokens/sample"] == 2000 and got["cost/solved_tasks"] == 1
    assert got["cost_table/nrows"] == len(cost_lines(summary.cost)) and got["cost_table/ncols"] == 4
    assert not any(k.startswith("cost/_") for k in got)  # the table's own record stays out of cost/...
    assert "wandb summary failed" not in caplog.text


def test_show_prints_the_cost_of_an_old_run_from_its_store():
    from ibench.results.runs import show

    con = Console(width=150, record=True)
    summary = show(FIXTURES / "default", con)
    assert summary.cost["judged"] == 4 and "Cost — reference: 4 samples, 4 judged" in con.export_text()
