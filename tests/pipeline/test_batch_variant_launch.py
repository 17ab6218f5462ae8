"""The batch variant end to end (InteractBench C.1): ``python -m ibench.launch model=reference
bench.variant=batch`` replays the batch-variant known solutions, each judged with its hidden case
on stdin first, and every verdict is the label its task card declares; the interactive variant of
the same tasks keeps its keys; the prompt tells the model the data comes first; the study report
pairs the two runs (pass@1 and failure composition, the paper's Table 9)."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import logging
import shutil
from pathlib import Path

import polars as pl
import pytest
from rich.console import Console

REPO = Path(__file__).resolve().parents[2]
CASES = 6
# Trimmed copies: the batch-variant solutions and a few interactive ones (quick to judge).
KEEP = {
    "guess-the-number": ["ok_binary_search.cpp", "wa_flipped_reply.cpp", "pe_malformed_token.cpp",
                         "qle_linear_scan.cpp"],
    "missing-number-bit-probe": ["ok_lsb_counts.cpp", "wa_flipped_side.cpp"],
}
IDS = "[guess-the-number,missing-number-bit-probe]"


@pytest.fixture(scope="module")
def tasks_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("tasks")
    for name, keep in KEEP.items():
        d = root / name
        shutil.copytree(REPO / "tasks" / name, d)
        expected = json.loads((d / "solutions" / "expected.json").read_text())
        kept = {k: v for k, v in expected.items() if k in keep or v.get("variant") == "batch"}
        for f in (d / "solutions").iterdir():
            if f.name != "expected.json" and f.name not in kept:
                f.unlink()
        (d / "solutions" / "expected.json").write_text(json.dumps(kept))
    # a batch task and a grader-linked one: the batch variant leaves both out
    for name in ("distinct-in-range", "sort-the-boxes"):
        shutil.copytree(REPO / "tasks" / name, root / name)
    return root


def compose(tasks_dir: Path, *extra: str):
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    from ibench.run.config import CONF_DIR

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return hydra_compose("config", overrides=[f"bench.tasks_dir={tasks_dir}", f"bench.non_adaptive_cases={CASES}",
                                                  "pipeline.progress=false", "wandb.mode=disabled", *extra])


def launch(tasks_dir: Path, run_dir: Path, *extra: str):
    from ibench.run.driver import run

    buf = io.StringIO()
    summary = run(compose(tasks_dir, "model=reference", *extra), run_dir, console=Console(file=buf, width=200))
    return summary, buf.getvalue()


def labels(tasks_dir: Path, variant: str) -> dict[tuple[str, str], str]:
    out = {}
    for name in KEEP:
        for f, e in json.loads((tasks_dir / name / "solutions" / "expected.json").read_text()).items():
            if f.endswith(".cpp") and e.get("variant", "interactive") == variant:
                out[(name, f)] = e.get("expected_early_exit", e["expected"])
    return out


def stored_verdicts(run_dir: Path) -> dict[tuple[str, str], str]:
    verdicts = pl.read_parquet(run_dir / "results" / "verdicts.parquet")
    samples = pl.read_parquet(run_dir / "results" / "samples.parquet")
    joined = verdicts.join(samples.select("sample_id", "source"), on="sample_id")
    return {(r["task_id"], r["source"]): r["verdict"] for r in joined.iter_rows(named=True)}


@pytest.fixture(scope="module")
def runs(ray_session, tasks_dir, tmp_path_factory):
    base = tmp_path_factory.mktemp("runs")
    inter = launch(tasks_dir, base / "interactive", f"bench.ids={IDS}")
    batch_variant = launch(tasks_dir, base / "batch_variant", "bench.variant=batch",
                           f"bench.ids={IDS[:-1]},distinct-in-range,sort-the-boxes]")
    return base, inter, batch_variant


def test_batch_variant_run_verdicts_match_the_labels(runs, tasks_dir):
    base, _, (summary, printed) = runs
    want = labels(tasks_dir, "batch")
    got = stored_verdicts(base / "batch_variant")
    assert got == want  # every batch-variant solution, and nothing else, each with its label
    assert summary.n_tasks == 2 and summary.n_judge_errors == 0
    ident = json.loads((base / "batch_variant" / "summary.json").read_text())["meta"]["identity"]
    assert ident["variant"] == "batch"
    samples = pl.read_parquet(base / "batch_variant" / "results" / "samples.parquet")
    for row in samples.iter_rows(named=True):
        user = json.loads(row["prompt"])[-1]["content"]
        assert "complete hidden test data" in user
        assert str(tasks_dir) not in row["prompt"] and "cases/" not in row["prompt"]


def test_interactive_run_is_unchanged(runs, tasks_dir):
    base, (summary, _), _ = runs
    assert stored_verdicts(base / "interactive") == labels(tasks_dir, "interactive")
    ident = json.loads((base / "interactive" / "summary.json").read_text())["meta"]["identity"]
    assert ident["variant"] == "interactive"


def test_batch_variant_leaves_out_other_kinds_with_a_warning(tasks_dir, caplog):
    from ibench.run.selection import load_bench

    with caplog.at_level(logging.WARNING, logger="ibench.launch"):
        tasks = load_bench(compose(tasks_dir, "bench.variant=batch"))
    assert sorted(t.task_id for t in tasks) == sorted(KEEP)
    lines = [r.getMessage() for r in caplog.records if "bench.variant=batch" in r.getMessage()]
    assert len(lines) == 1 and "distinct-in-range" in lines[0] and "sort-the-boxes" in lines[0]
    assert len(load_bench(compose(tasks_dir))) == 4  # the interactive variant keeps them all


def test_keys_of_the_interactive_variant_do_not_move(tasks_dir):
    """The judge key, the backend identity and the prompt fingerprint of an interactive run are
    what they were before the setting existed; the batch variant changes each."""
    from dataclasses import asdict

    from omegaconf import OmegaConf

    from ibench.generate.reference import ReferenceBackend
    from ibench.judge import JudgeSettings
    from ibench.results.records import fingerprint, run_keys

    from ibench.generate.base import SamplingSettings

    prompts = {}
    for v in ("interactive", "batch"):
        prompts[v] = OmegaConf.to_object(compose(tasks_dir, f"bench.variant={v}").prompt)
    p = prompts["interactive"]
    old = hashlib.sha256(json.dumps([p.system, p.interactive, p.batch], ensure_ascii=False,
                                    sort_keys=True).encode()).hexdigest()[:12]
    assert p.fingerprint() == old and prompts["batch"].fingerprint() != old
    assert "variant" not in ReferenceBackend().identity()
    assert ReferenceBackend(variant="batch").identity()["variant"] == "batch"
    keys = run_keys(ReferenceBackend(), SamplingSettings(), p, "cpp", False, JudgeSettings())
    old_judge = asdict(JudgeSettings())
    old_judge.pop("variant")
    old_judge.pop("transcript_bytes")  # added later: left out of the key at its default, as variant is
    old_judge.pop("static_link")  # likewise
    old_judge.pop("interactor_wall_s")  # likewise
    assert keys.judge_identity == old_judge and keys.judge_key == fingerprint(old_judge)
    batch_variant = run_keys(ReferenceBackend(variant="batch"), SamplingSettings(), prompts["batch"], "cpp", False,
                             JudgeSettings(variant="batch"))
    assert batch_variant.judge_identity["variant"] == "batch"
    assert batch_variant.judge_key != keys.judge_key and batch_variant.gen_key != keys.gen_key


def test_the_prompt_says_the_data_comes_first(tasks_dir):
    from omegaconf import OmegaConf

    from ibench.generate.prompt import HIDDEN_EXAMPLE_BYTES
    from ibench.tasks.load import load_task

    prompt = OmegaConf.to_object(compose(tasks_dir, "bench.variant=batch").prompt)
    plain = OmegaConf.to_object(compose(tasks_dir).prompt)
    guess = load_task(tasks_dir / "guess-the-number")
    text = prompt.render(guess)[-1]["content"]
    assert "complete hidden test data" in text and guess.meta["hidden_input_format"] in text
    assert (guess.root / "cases" / "001.in").read_text().strip() in text
    assert guess.statement().strip() in text
    assert str(tasks_dir) not in text and "001.in" not in text
    assert "hidden test data" not in plain.render(guess)[-1]["content"]
    # a long first case is cut, visibly, and the cut is bounded
    missing = load_task(tasks_dir / "missing-number-bit-probe")
    mtext = prompt.render(missing)[-1]["content"]
    assert "[... cut here:" in mtext and len(mtext) < len(missing.statement()) + HIDDEN_EXAMPLE_BYTES + 3000
    # a batch task keeps its own wording under either variant
    batch_task = load_task(tasks_dir / "distinct-in-range")
    assert prompt.render(batch_task) == plain.render(batch_task)


def test_few_shot_examples_come_from_the_same_variant(tasks_dir):
    from omegaconf import OmegaConf

    from ibench.tasks.load import load_tasks

    pool = load_tasks(tasks_dir)
    guess = next(t for t in pool if t.task_id == "guess-the-number")
    for v in ("interactive", "batch"):
        prompt = OmegaConf.to_object(compose(tasks_dir, "prompt=few_shot", f"bench.variant={v}").prompt)
        prompt.bind_examples(pool)
        ex = prompt.example_for(guess)
        assert ex.task_id == "missing-number-bit-probe"
        sol = json.loads((tasks_dir / ex.task_id / "solutions" / "expected.json").read_text())[ex.solution]
        assert sol["expected"] == "OK" and sol.get("variant", "interactive") == v
        messages = prompt.render(guess)
        assert ("complete hidden test data" in messages[1]["content"]) == (v == "batch")


def test_a_bad_variant_is_refused_naming_bench_variant(tasks_dir):
    from ibench.run.preflight import ConfigError, preflight

    with pytest.raises(ConfigError) as e:
        preflight(compose(tasks_dir, "bench.variant=batched"))
    assert str(e.value).count("bench.variant") == 1 and "'batched'" in str(e.value)


def test_study_report_pairs_the_variants(runs, tasks_dir):
    from ibench.results.study import C1_LABELS, study

    base, (inter, _), (batch_variant, _) = runs
    buf = io.StringIO()
    files = study([base / "interactive", base / "batch_variant"], base / "report", console=Console(file=buf, width=220))
    assert files["batch_vs_interactive_png"].stat().st_size > 0
    with open(files["batch_vs_interactive_csv"]) as fh:
        rows = {r["variant"]: r for r in csv.DictReader(fh)}
    assert set(rows) == {"interactive", "batch"}
    for variant, summary in (("interactive", inter), ("batch", batch_variant)):
        want = labels(tasks_dir, variant)
        per_task = {}
        for (task, _), label in want.items():
            per_task.setdefault(task, []).append(label)
        pass1 = sum(v.count("OK") / len(v) for v in per_task.values()) / len(per_task)
        assert float(rows[variant]["pass@1"]) == pytest.approx(pass1)
        failed = [x for v in per_task.values() for x in v if x != "OK"]
        assert int(rows[variant]["n_failed"]) == len(failed)
        for lab in C1_LABELS:
            assert float(rows[variant][lab]) == pytest.approx(failed.count(lab) / len(failed)), (variant, lab)
    assert "Batch variant vs interactive (C.1)" in buf.getvalue()
