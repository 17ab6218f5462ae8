"""The parquet store: rows survive a crash (journal), de-duplicate, and compact."""

import dataclasses
import json

import polars as pl

from ibench.results.store import RunStore, SampleRecord, read_table


def sample(i, gen_key="g"):
    return SampleRecord(sample_id=f"s{i}", gen_key=gen_key, task_id="t", sample_index=i, model="m", language="cpp",
                        prompt="[]", response="r", reasoning="", code=None if i % 2 else "int x;",
                        extract_error="", prompt_tokens=None, completion_tokens=5, reasoning_tokens=None,
                        finish_reason="stop", seed=i, latency_s=0.1, error="", source="", attempts=1,
                        created_at=0.0)


def test_rows_written_before_a_crash_are_read_back(tmp_path):
    store = RunStore(tmp_path, flush_rows=3, flush_seconds=3600)
    for i in range(5):
        store.add_sample(sample(i))
    # Simulate a crash: no close(), no flush. 3 rows are in a part, 2 only in the journal.
    assert len(list((tmp_path / "samples").glob("part-*.parquet"))) == 1
    df = read_table(tmp_path, "samples")
    assert df["sample_id"].to_list() == [f"s{i}" for i in range(5)]
    assert df["code"].to_list()[:2] == ["int x;", None]
    # A new store over the same folder turns the journal into a part and keeps everything.
    store2 = RunStore(tmp_path, flush_rows=3)
    store2.add_sample(dataclasses.replace(sample(1), response="again"))  # same key: last write wins
    store2.close()
    df = read_table(tmp_path, "samples")
    assert df.height == 5
    assert df.filter(pl.col("sample_id") == "s1")["response"].item() == "again"
    assert (tmp_path / "samples.parquet").exists() and not list((tmp_path / "samples").glob("part-*"))


def test_torn_journal_line_is_ignored(tmp_path):
    store = RunStore(tmp_path, flush_rows=100)
    store.add_sample(sample(0))
    with open(tmp_path / "samples" / "_journal.jsonl", "a") as fh:
        fh.write(json.dumps(dataclasses.asdict(sample(1)))[:40])  # a write cut in half
    assert read_table(tmp_path, "samples")["sample_id"].to_list() == ["s0"]
