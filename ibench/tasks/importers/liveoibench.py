"""Import the published LiveOIBench release into ibench task folders and contest metadata.

    python -m ibench.tasks import-liveoibench --problems liveoibench_v1.parquet \\
        --tests TESTS_DIR --contests contest_results.parquet --out DIR

Inputs (as published):

* ``--problems``: one row per task: ``id, problem_id`` (``COMP-YEAR-ROUND-task``),
  ``competition, contest, task_name, task_type, time_limit`` (seconds), ``memory_limit`` (MB),
  ``difficulty, algorithms`` (JSON list), ``problem_statement``, ``grader_code`` /
  ``starter_code`` (JSON ``{filename: source}``), ``setup_script, evaluation_script``.
* ``--tests``: a folder of parquet files (or one file) with ``problem_id``, ``tests`` (JSON
  ``{name: {input, output}}``) and ``subtasks`` (JSON ``{"<id>": {"score", "testcases": [...],
  "grading"?: "min-score"}}``). Each published file is a single row group of 6-17 GB.
* ``--contests``: ``contest_id, gold_cutoff, silver_cutoff, bronze_cutoff, division, date,
  num_contestants, problems`` (JSON list of problem ids), ``contestants_ranking`` (JSON rows
  with ``Rank, Contestant, Country``, one column per task, ``Total, Medal, CF_Rating``).

Bounded memory. The ``tests`` column is read one Parquet page at a time
(:mod:`.parquet`) and each problem's JSON is parsed straight from the page buffer into
``.in``/``.out`` files (:mod:`.jsonstream`), so memory is bounded by the largest page of the
column (compressed plus decompressed) and not by the file or row group; a page never holds less
than one value, so a writer that puts one problem per page gives a peak near twice that
problem's tests blob. The small columns (``problem_id``, ``subtasks``) are read with pyarrow.
When the column cannot be read page-wise (nested types, an unsupported encoding or codec) the
importer falls back to pyarrow row by row and says so in the summary. The summary reports the
peak RSS, the peak Arrow allocation and the largest page met.

The modules of the import, by job:

* :mod:`.liveoibench` (here): reading the release, the import's steps, the command line;
* :mod:`.liveoibench_task`: one task folder from a problem row and its tests (kinds, task card,
  what goes under ``DIR/_unsupported/``);
* :mod:`.liveoibench_fields`: column values as task-card fields;
* :mod:`.liveoibench_contests`: contests, held tasks and human results, written to
  ``DIR/contests.json`` (:func:`ibench.tasks.contest.load_contests`).

Tasks ibench cannot judge yet are written under ``DIR/_unsupported/`` (skipped by the loader)
and are not *held*: contest scoring compares the model with humans on the held tasks only.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from ibench.tasks.contest import write_contests

from . import REJECTED_DIR, UNSUPPORTED_DIR, ImportLog, Staging, peak_rss_mb, safe_name, write_json, write_text
from .jsonstream import JsonShapeError
from .liveoibench_contests import Held, contest_infos, held_in_output, match_contests
from .liveoibench_task import ProblemMeta, build_task
from .parquet import PageReadError, PageStats, iter_byte_array_column, release_free_memory

SUMMARY_FILE = "import_liveoibench.json"


@dataclass
class ReadStats:
    """Memory figures of reading the tests files, for the summary."""

    pages: PageStats = field(default_factory=PageStats)
    arrow_peak: int = 0  # bytes allocated from pyarrow's default pool, at most
    fallback: bool = False  # some tests column was read through pyarrow, not page-wise


def _rows(path: Path, columns: list[str] | None = None, batch_size: int = 64) -> Iterator[dict[str, Any]]:
    """The rows of a small parquet file (problems, contests) as dicts."""
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(path)
    cols = [c for c in columns if c in pf.schema_arrow.names] if columns else None
    for batch in pf.iter_batches(batch_size=batch_size, columns=cols):
        yield from batch.to_pylist()


def _tests_files(tests: Path) -> list[Path]:
    """``--tests``: one parquet file, or every parquet file under a folder."""
    if tests.is_file():
        return [tests]
    return sorted(p for p in tests.rglob("*.parquet") if p.is_file())


def _iter_test_rows(path: Path, log: ImportLog, mem: ReadStats) -> Iterator[tuple[str, Any, Any, dict]]:
    """(problem_id, tests value, subtasks value, extra columns) for every row of a tests file,
    one row at a time; the tests value is a zero-copy view valid until the next row."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(path, pre_buffer=False)
    names = pf.schema_arrow.names
    if "problem_id" not in names or "tests" not in names:
        log.warn(path.name, "no problem_id/tests columns; file skipped")
        return
    small = [c for c in ("problem_id", "subtasks", "grader_codes", "starter_codes") if c in names]
    for rg in range(pf.num_row_groups):
        table = pf.read_row_group(rg, columns=small)
        cols = {c: table.column(c).to_pylist() for c in small}
        del table
        n = len(cols["problem_id"])
        subs = cols.get("subtasks", [None] * n)

        def extra(i: int) -> dict:
            return {c: cols[c][i] for c in small if c not in ("problem_id", "subtasks")}

        done = 0
        try:
            values = iter_byte_array_column(path, "tests", rg, mem.pages)
            for i in range(n):
                v = next(values)
                mem.arrow_peak = max(mem.arrow_peak, pa.total_allocated_bytes())
                yield cols["problem_id"][i], v, subs[i], extra(i)
                v = None  # drop this page before the next one is decompressed
                done += 1
            values.close()
        except (PageReadError, StopIteration) as e:
            log.warn(path.name, f"tests column not readable page-wise ({e or 'too few values'}); falling back to "
                                f"pyarrow (memory is then bounded by the row group, not by a page)")
            mem.fallback = True
            batches = pf.iter_batches(batch_size=1, row_groups=[rg], columns=["tests"])
            for i, batch in enumerate(batches):
                if i < done:
                    continue
                mem.arrow_peak = max(mem.arrow_peak, pa.total_allocated_bytes())
                raw = batch.column(0)[0].as_py()
                if isinstance(raw, str):
                    raw = raw.encode("utf-8")
                elif raw is not None and not isinstance(raw, bytes):
                    if isinstance(raw, list) and all(isinstance(e, tuple) and len(e) == 2 for e in raw):
                        raw = dict(raw)  # a map column
                    raw = json.dumps(raw).encode("utf-8")
                yield cols["problem_id"][i], raw, subs[i], extra(i)


def import_liveoibench(
    problems: Path,
    tests: Path,
    out: Path,
    contests: Path | None = None,
    only: set[str] | None = None,
    grader_batch: str = "skip",
) -> ImportLog:
    """Import the release into ``out``; returns the log. Idempotent over ``out``."""
    log = ImportLog("LiveOIBench")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    mem = ReadStats()

    # 1. Problem metadata (small: statements and grader sources).
    metas = _problem_metas(Path(problems), log)
    log.count("problems in metadata", len(metas))
    selected = set(metas) if not only else set(metas) & set(only)  # --only: metadata of the rest stays known

    # 2. Contests (small), so that task cards can carry contest, competition and date.
    contest_by_id = match_contests(list(_rows(Path(contests))), metas, selected, log) if contests else {}

    # 3. Tests, one problem at a time, each task swapped in whole.
    held = _import_tests(Path(tests), out, metas, selected, only, contest_by_id, log, grader_batch, mem)

    # 4. Contest metadata for scoring against humans. What is held is read back from the output
    #    folder, so that an import of a few tasks (--only) keeps the earlier ones in the contests.
    if contests:
        held_in_output(out, metas, held)
        infos = contest_infos(contest_by_id, metas, held, log)
        write_contests(out / "contests.json", infos, source="LiveOIBench")
        log.count("contests", len(infos))

    _note_memory(log, mem)
    write_json(out / SUMMARY_FILE, {k: v for k, v in log.to_dict().items() if k != "notes"})
    return log


def _problem_metas(problems: Path, log: ImportLog) -> dict[str, ProblemMeta]:
    """The problems file's rows by problem id (rows without one, and repeats, warned and skipped)."""
    metas: dict[str, ProblemMeta] = {}
    for row in _rows(problems):
        pid = row.get("problem_id")
        if not isinstance(pid, str) or not pid.strip():
            log.warn(f"id={row.get('id')}", "problem row without problem_id; skipped")
            continue
        pid = pid.strip()
        if pid in metas:
            log.warn(pid, "duplicate problem row; keeping the first")
            continue
        metas[pid] = ProblemMeta(row=row, folder=safe_name(pid))
    return metas


def _import_tests(tests: Path, out: Path, metas: dict[str, ProblemMeta], selected: set[str], only: set[str] | None,
                  contest_by_id: dict[str, dict], log: ImportLog, grader_batch: str,
                  mem: ReadStats) -> dict[str, Held]:
    """Every selected problem with tests, built in staging and swapped into ``out``; returns
    the tasks held (imported or unsupported) with their max points."""
    staging = Staging(out)
    held: dict[str, Held] = {}
    seen: set[str] = set()
    try:
        files = _tests_files(tests)
        if not files:
            log.warn(str(tests), "no parquet file with tests found")
        for path in files:
            for pid, value, subtasks, extra in _iter_test_rows(path, log, mem):
                pid = str(pid).strip()
                if only and pid not in only:
                    continue
                pm = metas.get(pid)
                if pm is None:
                    log.warn(pid, f"tests in {path.name} for a problem missing from the metadata; skipped")
                    continue
                if pid in seen:
                    log.warn(pid, f"tests appear again in {path.name}; the first copy is kept")
                    continue
                seen.add(pid)
                dest, max_points = _import_one(pm, value, subtasks, extra, contest_by_id, staging, log, grader_batch)
                if dest != REJECTED_DIR and max_points is not None:
                    held[pid] = Held(max_points, dest)
                del value
                release_free_memory()
        for pid in sorted(selected - seen):
            log.warn(pid, "no tests in the tests files; not imported")
            log.count("without tests")
    finally:
        staging.close()
    return held


def _import_one(pm: ProblemMeta, value: Any, subtasks: Any, extra: dict, contest_by_id: dict[str, dict],
                staging: Staging, log: ImportLog, grader_batch: str) -> tuple[str, float | None]:
    """Build one task aside and swap it in (under ``_rejected/`` when it cannot be a task);
    returns (destination, max points)."""
    task_dir = staging.path(pm.folder)
    try:
        dest, max_points = build_task(pm, value, subtasks, extra, contest_by_id, task_dir, log, grader_batch)
    except (JsonShapeError, ValueError, OSError) as e:
        log.warn(pm.row["problem_id"].strip(), f"not imported: {e}; kept under {REJECTED_DIR}/")
        write_text(task_dir / "REJECTED.txt", f"{e}\n")
        (task_dir / "meta.json").unlink(missing_ok=True)
        dest, max_points = REJECTED_DIR, None
    staging.commit(pm.folder, dest)
    log.count({"": "imported", UNSUPPORTED_DIR: "unsupported (kept for reference)", REJECTED_DIR: "rejected"}[dest])
    return dest, max_points


def _note_memory(log: ImportLog, mem: ReadStats) -> None:
    pages = mem.pages
    log.note(f"peak memory: RSS {peak_rss_mb():.0f} MiB (Arrow default pool {mem.arrow_peak / 2**20:.0f} MiB); "
             f"largest tests page {pages.largest_page / 2**20:.1f} MiB (compressed + decompressed), "
             f"largest tests value {pages.largest_value / 2**20:.1f} MiB, {pages.pages} pages"
             + ("; pyarrow fallback used" if mem.fallback else ""))
    log.stats.update({"peak_rss_mib": peak_rss_mb(), "arrow_peak_mib": mem.arrow_peak / 2**20,
                      "largest_page_mib": pages.largest_page / 2**20,
                      "largest_value_mib": pages.largest_value / 2**20, "pyarrow_fallback": mem.fallback})


# --------------------------------------------------------------------------------------------
# CLI


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m ibench.tasks import-liveoibench",
        description="Turn the published LiveOIBench release (problems, tests and contest parquet files) into "
                    "ibench task folders plus contests.json, reading the huge tests files page by page.")
    p.add_argument("--problems", type=Path, required=True, help="liveoibench_v1.parquet (one row per task)")
    p.add_argument("--tests", type=Path, required=True, help="folder of tests parquet files (or one file)")
    p.add_argument("--contests", type=Path, help="contest_results.parquet (cut-offs and human rankings)")
    p.add_argument("--out", type=Path, required=True, help="output folder (one sub-folder per task)")
    p.add_argument("--only", nargs="+", metavar="ID", help="import only these problem ids")
    p.add_argument("--grader-batch", choices=("skip", "import"), default="skip",
                   help="batch tasks linked with a grader: 'skip' puts them under _unsupported/ (default); "
                        "'import' writes them as batch tasks with grader/ (needs a loader that links it)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    for label, path in (("--problems", args.problems), ("--contests", args.contests)):
        if path is not None and not path.is_file():
            print(f"error: {label} {path} is not a file")
            return 2
    if not args.tests.exists():
        print(f"error: --tests {args.tests} does not exist")
        return 2
    log = import_liveoibench(args.problems, args.tests, args.out, contests=args.contests,
                             only=set(args.only) if args.only else None, grader_batch=args.grader_batch)
    print(log.render())
    return 0 if log.counts.get("imported", 0) else 1
