"""The run log: typed records and their crash-safe parquet store.

Three tables, one typed record each (every writer — parquet, console, W&B — serialises these):

- ``samples``  :class:`SampleRecord`  — one per generated sample (prompt, response, reasoning,
  extracted code, usage, finish reason, seed, latency).
- ``verdicts`` :class:`VerdictRecord` — one per judged sample; holds the judge's
  ``SampleResult.to_dict(full=True)`` as-is in ``result_json``.
- ``cases``    :class:`CaseRecord`    — one per executed case, the judge's ``CaseResult`` flattened.

Layout under a run folder (``<hydra output dir>/results``)::

    samples.parquet            compacted rows (written when a run finishes)
    samples/part-*.parquet     parts appended while the run goes
    samples/_journal.jsonl     rows not yet in a part, one JSON line each, flushed per row

A record reaches the journal the moment it exists, so a crash loses nothing: the next open turns
a left-over journal into a part. Rows are keyed (``sample_id``; ``sample_id`` + ``judge_key``
for verdicts and cases) and de-duplicated on read, last write wins.
"""

from __future__ import annotations

import dataclasses
import json
import os
import threading
import time
import types
import typing
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import polars as pl

from ibench.judge.outcome import CaseResult
from ibench.run.keys import fingerprint  # noqa: F401 - the keys live in ibench.run.keys; importable here as before

SCHEMA_VERSION = 1


@dataclass
class SampleRecord:
    """One generated sample of one task."""

    sample_id: str  # hash of (gen_key, task_id, sample_index); later rounds: of the parent and the round
    gen_key: str  # hash of model identity, sampling settings, prompt wording, language
    task_id: str
    sample_index: int
    model: str
    language: str
    prompt: str  # chat messages as JSON
    response: str  # raw model output (may hold a <think> block)
    reasoning: str  # reasoning text (separate field or the <think> block)
    code: str | None  # the extracted program; None when the answer had no code block
    extract_error: str  # "no code block", or "" when code was found
    prompt_tokens: int | None
    completion_tokens: int | None
    reasoning_tokens: int | None
    finish_reason: str
    seed: int | None
    latency_s: float
    error: str  # non-empty when generation failed after retries (the sample still counts)
    source: str  # reference backend: the replayed solution file
    attempts: int
    created_at: float
    extra_json: str = "{}"
    # Iterative refinement: the round (1 = the first attempt) and the sample of the round before
    # ("" in round 1). The rounds of one sample share its sample_index (the chain).
    round: int = 1
    parent_id: str = ""


@dataclass
class VerdictRecord:
    """The judge's verdict on one sample."""

    sample_id: str
    judge_key: str  # hash of the judge settings (and case pools)
    gen_key: str
    task_id: str
    sample_index: int
    model: str
    verdict: str  # a Verdict value
    score: float | None
    message: str
    compile_ok: bool
    compile_ms: float
    compile_cached: bool
    sandbox: str
    n_cases: int
    n_failed_cases: int
    warnings_json: str
    result_json: str  # SampleResult.to_dict(full=True), as-is
    judge_wall_s: float
    judge_attempts: int
    node: str
    judged_at: float
    round: int = 1  # the sample's refinement round (1 = the first attempt)


_CASE_FIELDS = [f.name for f in dataclasses.fields(CaseResult)]


@dataclass
class CaseRecord:
    """One executed case (the judge's ``CaseResult``, flattened, plus its keys)."""

    sample_id: str
    judge_key: str
    task_id: str
    sample_index: int
    case: str
    verdict: str
    cpu_ms: float = 0.0
    wall_ms: float = 0.0
    peak_kb: int = 0
    queries: int | None = None
    query_limit: int | None = None
    solver_exit: str = ""
    interactor_exit: str = ""
    message: str = ""
    score: float | None = None
    solver_to_judge_tail: str = ""
    judge_to_solver_tail: str = ""
    solver_stderr_tail: str = ""
    sandbox: str = ""
    extra_json: str = "{}"  # CaseResult fields this schema does not know yet
    # The exchange turn by turn, as JSON: a list of {"who": "solver"|"judge", "text", "t_ms"} and
    # {"who": "cut", "cut": bytes, "turns": n} (CaseResult.transcript); "" when none was recorded
    transcript: str = ""

    @classmethod
    def from_case(cls, sample_id: str, judge_key: str, task_id: str, index: int, case: dict) -> "CaseRecord":
        known = {f.name for f in dataclasses.fields(cls)}
        kw = {k: v for k, v in case.items() if k in known and k not in ("sample_id", "judge_key")}
        extra = {k: v for k, v in case.items() if k not in known}
        if hasattr(kw.get("verdict"), "value"):
            kw["verdict"] = kw["verdict"].value
        if not isinstance(kw.get("transcript", ""), str):
            kw["transcript"] = json.dumps(kw["transcript"], ensure_ascii=False, separators=(",", ":")) \
                if kw["transcript"] else ""
        return cls(sample_id=sample_id, judge_key=judge_key, task_id=task_id, sample_index=index,
                   extra_json=json.dumps(extra, default=str), **kw)


# -- polars schemas from the dataclasses ----------------------------------------------------------
_SCALARS = {str: pl.String, int: pl.Int64, float: pl.Float64, bool: pl.Boolean}


def _dtype(tp: Any) -> Any:
    if tp in _SCALARS:
        return _SCALARS[tp]
    args = [a for a in typing.get_args(tp) if a is not type(None)]
    if (typing.get_origin(tp) in (typing.Union, types.UnionType)) and len(args) == 1 and args[0] in _SCALARS:
        return _SCALARS[args[0]]
    return pl.String


def schema_of(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: _dtype(hints[f.name]) for f in dataclasses.fields(cls)}


@dataclass
class Table:
    name: str
    record: type
    key: tuple[str, ...]

    @property
    def schema(self) -> dict[str, Any]:
        return schema_of(self.record)


TABLES: dict[str, Table] = {
    "samples": Table("samples", SampleRecord, ("sample_id",)),
    "verdicts": Table("verdicts", VerdictRecord, ("sample_id", "judge_key")),
    "cases": Table("cases", CaseRecord, ("sample_id", "judge_key", "case")),
}


class _TableWriter:
    """Journal + buffered parquet parts for one table. Thread-safe."""

    def __init__(self, root: Path, table: Table, flush_rows: int, flush_seconds: float) -> None:
        self.table = table
        self.dir = root / table.name
        self.dir.mkdir(parents=True, exist_ok=True)
        self.journal_path = self.dir / "_journal.jsonl"
        self.flush_rows = flush_rows
        self.flush_seconds = flush_seconds
        self.buffer: list[dict] = []
        self.last_flush = time.monotonic()
        self.lock = threading.Lock()
        self._recover()
        self.journal = open(self.journal_path, "a", encoding="utf-8")

    def _recover(self) -> None:
        """A journal left by a crashed run becomes a part before anything new is written."""
        if not self.journal_path.exists():
            return
        rows = []
        with open(self.journal_path, encoding="utf-8") as fh:
            for line in fh:
                line = line.strip()
                if not line:
                    continue
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError:
                    break  # a torn last line: everything before it is intact
        if rows:
            self._write_part(rows)
        self.journal_path.unlink()

    def _write_part(self, rows: list[dict]) -> None:
        df = pl.DataFrame(rows, schema=self.table.schema)
        name = f"part-{time.time_ns():020d}-{uuid.uuid4().hex[:8]}.parquet"
        tmp = self.dir / f".tmp-{name}"
        df.write_parquet(tmp)
        os.replace(tmp, self.dir / name)

    def append(self, row: dict) -> None:
        with self.lock:
            self.journal.write(json.dumps(row, default=str, ensure_ascii=False) + "\n")
            self.journal.flush()
            self.buffer.append(row)
            if len(self.buffer) >= self.flush_rows or time.monotonic() - self.last_flush >= self.flush_seconds:
                self._flush_locked()

    def flush(self) -> None:
        with self.lock:
            self._flush_locked()

    def _flush_locked(self) -> None:
        self.last_flush = time.monotonic()
        if not self.buffer:
            return
        self._write_part(self.buffer)
        self.buffer = []
        # Rows are in a part now: start the journal afresh (a crash right here leaves
        # duplicates, which reading de-duplicates).
        self.journal.close()
        self.journal = open(self.journal_path, "w", encoding="utf-8")

    def close(self) -> None:
        with self.lock:
            self._flush_locked()
            self.journal.close()
            if self.journal_path.exists() and self.journal_path.stat().st_size == 0:
                self.journal_path.unlink()


def read_table(root: str | Path, name: str) -> pl.DataFrame:
    """All rows of a table under ``root`` (compacted file, parts, journal), de-duplicated."""
    root = Path(root)
    table = TABLES[name]
    schema = table.schema
    frames: list[pl.DataFrame] = []
    files = []
    if (root / f"{name}.parquet").exists():
        files.append(root / f"{name}.parquet")
    if (root / name).is_dir():
        files.extend(sorted((root / name).glob("part-*.parquet")))
    for f in files:
        df = pl.read_parquet(f, glob=False)  # run folders may have [ ] in their names
        frames.append(_conform(df, schema))
    journal = root / name / "_journal.jsonl"
    if journal.exists():
        rows = []
        for line in journal.read_text(encoding="utf-8").splitlines():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                break
        if rows:
            frames.append(pl.DataFrame(rows, schema=schema))
    if not frames:
        return pl.DataFrame(schema=schema)
    df = pl.concat(frames, how="vertical")
    return df.unique(subset=list(table.key), keep="last", maintain_order=True)


def _conform(df: pl.DataFrame, schema: dict[str, Any]) -> pl.DataFrame:
    """Cast to the current schema: add missing columns as nulls, drop unknown ones."""
    cols = []
    for name, dtype in schema.items():
        if name in df.columns:
            cols.append(pl.col(name).cast(dtype, strict=False))
        else:
            cols.append(pl.lit(None, dtype=dtype).alias(name))
    return df.select(cols)


@dataclass
class RunStore:
    """The results folder of one run: append records as they arrive, read them back on resume."""

    root: Path
    flush_rows: int = 64
    flush_seconds: float = 5.0
    _writers: dict[str, _TableWriter] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.root = Path(self.root)
        self.root.mkdir(parents=True, exist_ok=True)
        for name, table in TABLES.items():
            self._writers[name] = _TableWriter(self.root, table, self.flush_rows, self.flush_seconds)
        meta = self.root / "store.json"
        if not meta.exists():
            meta.write_text(json.dumps({"schema_version": SCHEMA_VERSION}) + "\n")

    # -- writing ------------------------------------------------------------------------------
    def add_sample(self, rec: SampleRecord) -> None:
        self._writers["samples"].append(dataclasses.asdict(rec))

    def add_verdict(self, rec: VerdictRecord, cases: Iterable[CaseRecord] = ()) -> None:
        # Cases first: a verdict row is the "judged" marker that resume trusts.
        for c in cases:
            self._writers["cases"].append(dataclasses.asdict(c))
        self._writers["verdicts"].append(dataclasses.asdict(rec))

    def flush(self) -> None:
        for w in self._writers.values():
            w.flush()

    def close(self, compact: bool = True) -> None:
        for w in self._writers.values():
            w.close()
        if compact:
            self.compact()

    def compact(self) -> None:
        """Merge each table's parts into ``<table>.parquet`` (atomically), then drop the parts."""
        for name in TABLES:
            parts = sorted((self.root / name).glob("part-*.parquet")) if (self.root / name).is_dir() else []
            if not parts:
                continue
            df = read_table(self.root, name)
            tmp = self.root / f".tmp-{name}.parquet"
            df.write_parquet(tmp)
            os.replace(tmp, self.root / f"{name}.parquet")
            for p in parts:
                p.unlink()

    # -- reading ------------------------------------------------------------------------------
    def table(self, name: str) -> pl.DataFrame:
        self._writers[name].flush()
        return read_table(self.root, name)

    def __enter__(self) -> "RunStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
