"""Transcripts through a launch (issue 19, part 1): every case of a judged sample lands in
cases.parquet with its exchange turn by turn (a JSON list in the ``transcript`` column), the old
tail columns beside it; the stored turns read back as the judge made them, and as the viewer
reads them; the verdict's result_json does not hold them a second time."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import polars as pl
from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "judge"))
from judge_fixtures import HIDDEN_VALUES, build_guess_task, solver  # noqa: E402
from test_transcripts import binary_search_dialogue  # noqa: E402

WRONG = solver().replace('cout << "! " << lo << endl;', 'cout << "! " << (lo == 3 ? 4 : lo) << endl;')


def test_a_launch_stores_each_cases_transcript(ray_session, tmp_path):
    from hydra import compose, initialize_config_dir

    from ibench.run.config import CONF_DIR
    from ibench.run.driver import run
    from ibench.results.store import read_table
    from ibench.results.viewer import normalize_transcript

    root = build_guess_task(tmp_path / "tasks")
    (root / "solutions" / "wa.cpp").write_text(WRONG)
    (root / "solutions" / "expected.json").write_text(json.dumps({"ok.cpp": {"expected": "OK"},
                                                                  "wa.cpp": {"expected": "WA"}}))
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose("config", overrides=[f"bench.tasks_dir={tmp_path / 'tasks'}", "pipeline.progress=false",
                                           "wandb.mode=disabled"])
    summary = run(cfg, tmp_path / "run", console=Console(file=io.StringIO(), width=200))
    assert summary.n_samples == 2 and summary.n_judge_errors == 0

    results = tmp_path / "run" / "results"
    cases = pl.read_parquet(results / "cases.parquet")
    assert cases.schema["transcript"] == pl.String
    samples = read_table(results, "samples")
    by_source = dict(zip(samples["sample_id"], samples["source"]))
    x_of = {f"{i:03d}": x for i, x in enumerate(HIDDEN_VALUES, 1)}
    seen = set()
    for row in cases.iter_rows(named=True):
        turns = json.loads(row["transcript"])
        x = x_of[row["case"]]
        want = binary_search_dialogue(x)
        if Path(by_source[row["sample_id"]]).name == "wa.cpp" and x == 3:
            want[-1] = ("solver", "! 4\n")
            assert row["verdict"] == "WA"
        assert [(t["who"], t["text"]) for t in turns] == want, (row["case"], by_source[row["sample_id"]])
        assert all(isinstance(t["t_ms"], float) for t in turns)
        # the tail columns stay, from the same records
        assert row["solver_to_judge_tail"] == "".join(t for w, t in want if w == "solver")
        assert row["judge_to_solver_tail"] == "".join(t for w, t in want if w == "judge")
        assert json.loads(row["extra_json"]) == {}
        # the viewer's reading of the column is the same turns
        assert [(t["who"], t["text"], t["t_ms"]) for t in normalize_transcript(row["transcript"])] == \
            [(t["who"], t["text"], t["t_ms"]) for t in turns]
        seen.add((Path(by_source[row["sample_id"]]).name, row["case"]))
    assert {c for s, c in seen if s == "ok.cpp"} == set(x_of)  # an accepted sample runs every case
    assert ("wa.cpp", "002") in seen  # the failing case (x = 3) was judged and stored
    for v in read_table(results, "verdicts").iter_rows(named=True):
        assert all("transcript" not in c for c in json.loads(v["result_json"])["cases"])
