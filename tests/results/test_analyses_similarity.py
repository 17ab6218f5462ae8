"""Code similarity by tokenised winnowing (issue 31): Dolos's numbers on recorded pairs, the
properties of the method, and the analysis of accepted samples against the known solutions."""

from __future__ import annotations

import csv
import os
import shutil
from pathlib import Path

import pytest
from analyses_synth import REPO, Sample, budget_sweep, write_run

from ibench.results.analyses.cli import main
from ibench.results.analyses.common import open_runs
from ibench.results.analyses.similarity import similarity_rows
from ibench.results.analyses.winnow import Fingerprints, code_similarity, kgram_hashes, tokens, winnow

TASKS = REPO / "tasks"
PAIRS = REPO / "tests" / "fixtures" / "dolos" / "pairs.csv"  # similarities the real Dolos (dolos-lib 3.5.1) gave


def _src(task: str, name: str) -> str:
    return (TASKS / task / "solutions" / name).read_text()


def test_the_similarity_of_recorded_pairs_is_doloss_own():
    rows = list(csv.DictReader(open(PAIRS)))
    assert len(rows) == 30 and len({r["dolos"] for r in rows}) > 20  # a spread of values, 0 to ~1
    for r in rows:
        got = code_similarity(_src(r["task"], r["left"]), _src(r["task"], r["right"]))
        assert got == pytest.approx(float(r["dolos"]), abs=1e-12), (r["task"], r["left"], r["right"])


def test_structure_counts_names_comments_and_layout_do_not():
    code = _src("distinct-in-range", "ok_mo.cpp")
    renamed = code.replace("cnt", "counter_of_values").replace("\n", "\n\n  // a note\n")
    assert code_similarity(code, code) == 1.0 and code_similarity(code, renamed) == 1.0
    other = _src("distinct-in-range", "ok_offline_bit.cpp")
    assert code_similarity(code, other) < 0.2
    assert tokens("int main(){return 0;} // x")[:4] == ["(", "translation_unit", "(", "function_definition"]
    assert "comment" not in tokens("// only a comment\nint x;")


def test_winnowing_keeps_a_fingerprint_in_every_window():
    toks = tokens(_src("sort-the-boxes", "ok_merge_sort.cpp"))
    hashes = kgram_hashes(toks)
    assert len(hashes) == len(toks) - 23 + 1
    picked = {i for _, i in winnow(hashes)}
    assert all(picked & set(range(s, s + 17)) for s in range(len(hashes) - 17 + 1))
    assert len(picked) < len(hashes) / 4  # a density near 2 / (w + 1)
    assert Fingerprints.of("int x;").hashes == ()  # fewer than k tokens: no k-gram


def test_accepted_samples_are_compared_with_the_other_known_solutions(tmp_path):
    mo, bit = _src("distinct-in-range", "ok_mo.cpp"), _src("distinct-in-range", "ok_offline_bit.cpp")
    samples = [Sample("distinct-in-range", 0, "OK", 10, 0.1, [1.0], mo, source="ok_mo.cpp", score=100.0),
               Sample("distinct-in-range", 1, "OK", 10, 0.1, [1.0], mo.replace("cnt", "c2"), score=100.0),
               Sample("distinct-in-range", 2, "WA", 10, 0.1, [1.0], mo, score=0.0)]
    (run,) = open_runs([write_run(tmp_path / "sim", samples)])
    rows = {r["sample_index"]: r for r in similarity_rows(run)}
    assert set(rows) == {0, 1}  # the WA sample is not compared
    # the replayed ok_mo.cpp is not compared with itself; a model's copy of it is
    assert rows[0]["closest"] == "ok_offline_bit.cpp" and rows[0]["max_similarity"] == pytest.approx(code_similarity(mo, bit))
    assert rows[1]["closest"] == "ok_mo.cpp" and rows[1]["max_similarity"] == 1.0


def test_the_command_writes_the_histogram_and_the_scatter(tmp_path):
    budget_sweep(tmp_path / "sweep", budgets=(1024, 16384), n=3)
    out = tmp_path / "out"
    assert main(["similarity", str(tmp_path / "sweep"), "--out", str(out)]) == 0
    for name in ("similarity_hist.png", "similarity_hist.pdf", "similarity_scatter.png", "similarity_scatter.pdf",
                 "similarity.csv", "similarity_tasks.csv"):
        assert (out / name).stat().st_size > 0
    rows = list(csv.DictReader(open(out / "similarity.csv")))
    assert rows and all(0.0 <= float(r["max_similarity"]) <= 1.0 for r in rows)


@pytest.mark.skipif(not os.environ.get("IBENCH_DOLOS_DIR") or not shutil.which("node"),
                    reason="the real Dolos: IBENCH_DOLOS_DIR names a folder where @dodona/dolos-lib is installed")
def test_the_real_dolos_agrees_on_a_task():
    from ibench.results.analyses.dolos import agreement

    root = Path(os.environ["IBENCH_DOLOS_DIR"])
    tasks = Path(os.environ.get("TMPDIR", "/tmp")) / "ibench_dolos_tasks"
    shutil.rmtree(tasks, ignore_errors=True)
    shutil.copytree(TASKS / "and-mask-group-testing", tasks / "and-mask-group-testing")
    rows, summary = agreement(tasks, root)
    assert summary["pairs"] == len(rows) > 10 and summary["max_abs_diff"] < 1e-9
