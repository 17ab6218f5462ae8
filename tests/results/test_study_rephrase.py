"""The rephrasing study: a run with ``prompt.rephrase=true`` is paired with the run on the original
statements that matches it in everything else (model, language, prompt, variant, other settings);
pass@1 of both, the paired difference per task and its bootstrap interval."""

from __future__ import annotations

import csv
import json

import pytest
from analyses_synth import Sample, write_run

from ibench.results.study import study

CODE = "int main(){}"
TASKS = ("guess-the-number", "sort-the-boxes", "kth-of-two-sorted")


def _run(root, name, oks, overrides=(), model="synth", **kw):
    samples = [Sample(t, i, "OK" if i < k else "WA", 10, 0.1, [1.0], CODE)
               for t, k in zip(TASKS, oks) for i in range(4)]
    return write_run(root / name, samples, overrides=list(overrides), model=model, **kw)


def test_the_rephrased_run_is_paired_with_its_original(tmp_path):
    _run(tmp_path, "orig", (4, 2, 0))
    reph = _run(tmp_path, "reph", (3, 2, 1), ["prompt.rephrase=true", "prompt.rephrase_model=openai-api"])
    (reph / "rephrased.json").write_text(json.dumps({"tasks": {t: {"rephrased_by": "gpt-x"} for t in TASKS}}))
    _run(tmp_path, "other-n", (1, 1, 1), ["sampling.n=7"], sampling={"n": 7})  # another cohort: never a partner
    _run(tmp_path, "other-model", (0, 0, 0), ["prompt.rephrase=true"], model="m2")  # no original: no row
    files = study([tmp_path], tmp_path / "out")
    rows = list(csv.DictReader(open(files["rephrase_csv"])))
    assert len(rows) == 1
    (row,) = rows
    assert row["model"] == "synth" and row["rephrased_by"] == "gpt-x" and int(row["n_tasks"]) == 3
    assert float(row["pass@1 original"]) == pytest.approx((1 + 0.5 + 0) / 3)
    assert float(row["pass@1 rephrased"]) == pytest.approx((0.75 + 0.5 + 0.25) / 3)
    assert float(row["difference"]) == pytest.approx(0.0)
    assert float(row["ci_low"]) <= 0.0 <= float(row["ci_high"])
    assert row["original_run"].endswith("orig") and row["run_dir"].endswith("reph")
    per_task = {r["task_id"]: float(r["difference"]) for r in csv.DictReader(open(files["rephrase_tasks_csv"]))}
    assert per_task == pytest.approx({"guess-the-number": -0.25, "sort-the-boxes": 0.0, "kth-of-two-sorted": 0.25})
    assert files["rephrase_png"].is_file() and files["rephrase_png"].with_suffix(".pdf").is_file()


def test_no_pair_no_section(tmp_path):
    _run(tmp_path, "a", (4, 2, 0))
    _run(tmp_path, "b", (1, 2, 0), ["bench.language=python"], language="python")
    files = study([tmp_path], tmp_path / "out")
    assert "rephrase_csv" not in files
