#!/usr/bin/env python3
"""Peak memory of the LiveOIBench import on a large single-row-group tests parquet.

    python scripts/bench_import.py                      # ~400 MB of tests, both layouts
    python scripts/bench_import.py --mb 2000 --problems 20 --layout page-per-problem

Generates, in a scratch folder, a problems parquet and a tests parquet holding ONE row group
(like the published files), then runs in fresh processes (so each figure is that process's own
``ru_maxrss``):

* ``import``: ``ibench.tasks.importers.liveoibench.import_liveoibench`` (page-wise reader);
* ``pyarrow``: the obvious alternative, ``ParquetFile.iter_batches(batch_size=1)`` over the
  tests column, only reading (no parsing, no files written).

Layouts of the tests column:

* ``page-per-problem``: pages cut at 1 MiB, no dictionary, so each problem's tests blob sits
  in its own page (what a writer that bounds page size produces; pages cannot exceed 2 GiB, so
  a 6-17 GB row group necessarily has many pages);
* ``pyarrow-default``: ``pq.write_table`` defaults, which for a few dozen rows put every value
  in one dictionary page: the page-wise reader then holds that page (the worst case).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

IMPORT_CHILD = r"""
import json, sys, time
from pathlib import Path
from ibench.tasks.importers.liveoibench import import_liveoibench
t = time.time()
log = import_liveoibench(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]))
print(json.dumps({**log.stats, "seconds": time.time() - t, "imported": log.counts.get("imported", 0)}))
"""

PYARROW_CHILD = r"""
import json, resource, sys, time
import pyarrow as pa, pyarrow.parquet as pq
t = time.time(); peak = 0; n = 0
pf = pq.ParquetFile(sys.argv[1])
for b in pf.iter_batches(batch_size=1, columns=["problem_id", "tests"]):
    n += b.num_rows
    peak = max(peak, pa.total_allocated_bytes())
    del b
print(json.dumps({"peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "arrow_peak_mib": peak / 2**20, "rows": n, "seconds": time.time() - t}))
"""


GENERATE_CHILD = r"""
import json, sys
from pathlib import Path
sys.path.insert(0, %r)
from bench_import import generate
print(json.dumps(generate(Path(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4])))
""" % str(Path(__file__).resolve().parent)


def generate(folder: Path, total_mb: float, problems: int, layout: str, seed: int = 0) -> dict:
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = random.Random(seed)
    per_problem = int(total_mb * 1e6 / problems)
    tests_per_problem = 20
    rows, meta = [], []
    block = " ".join(str(rng.randrange(10**9)) for _ in range(2000)) + "\n"
    for p in range(problems):
        pid = f"BENCH-2024-r1-p{p:02d}"
        half = per_problem // tests_per_problem // 2
        tests = {}
        for t in range(tests_per_problem):
            k = rng.randrange(len(block))  # distinct content per test (no dictionary dedup)
            text = f"{pid} {t}\n" + ((block[k:] + block[:k]) * (half // len(block) + 1))[:half]
            tests[f"{t:02d}"] = {"input": text, "output": text[::-1]}
        rows.append({"problem_id": pid, "tests": json.dumps(tests),
                     "subtasks": json.dumps({"1": {"score": 100, "testcases": list(tests)}})})
        meta.append({"id": p, "problem_id": pid, "competition": "BENCH", "contest": "r1", "task_name": f"p{p:02d}",
                     "task_type": "batch", "time_limit": 1.0, "memory_limit": 256, "difficulty": 15,
                     "algorithms": "[]", "problem_statement": "Benchmark task.\n", "grader_code": None,
                     "starter_code": None, "setup_script": None, "evaluation_script": None})
    pq.write_table(pa.Table.from_pylist(meta), folder / "problems.parquet")
    (folder / "tests").mkdir(exist_ok=True)
    table = pa.Table.from_pylist(rows)
    del rows
    options = {} if layout == "pyarrow-default" else {"use_dictionary": False, "write_batch_size": 1,
                                                      "data_page_size": 1 << 20}
    path = folder / "tests" / "bench.parquet"
    pq.write_table(table, path, row_group_size=table.num_rows, **options)
    md = pq.ParquetFile(path).metadata
    return {"file_mib": path.stat().st_size / 2**20, "row_groups": md.num_row_groups,
            "uncompressed_mib": md.row_group(0).total_byte_size / 2**20, "rows": md.num_rows}


def run_child(code: str, *args: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mb", type=float, default=400, help="tests data in the row group, MB (default 400)")
    p.add_argument("--problems", type=int, default=16, help="problems (rows) in the file (default 16)")
    p.add_argument("--layout", choices=("page-per-problem", "pyarrow-default", "both"), default="both")
    p.add_argument("--no-pyarrow", action="store_true", help="skip the pyarrow iter_batches comparison")
    p.add_argument("--keep", type=Path, help="generate into this folder and keep it")
    args = p.parse_args(argv)
    baseline = run_child("import json, resource; import pyarrow, pyarrow.parquet, ibench.tasks.importers.liveoibench; "
                         "print(json.dumps({'peak_rss_mib': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss/1024}))")
    print(f"interpreter + pyarrow + ibench baseline RSS: {baseline['peak_rss_mib']:.0f} MiB")
    layouts = ("page-per-problem", "pyarrow-default") if args.layout == "both" else (args.layout,)
    for layout in layouts:
        with tempfile.TemporaryDirectory(prefix="ibench-bench-import-") as tmp:
            folder = (args.keep / layout) if args.keep else Path(tmp)
            folder.mkdir(parents=True, exist_ok=True)
            t = time.time()
            # Generated in a child: Linux carries a parent's peak RSS into children it forks.
            info = run_child(GENERATE_CHILD, str(folder), str(args.mb), str(args.problems), layout)
            print(f"\n[{layout}] tests parquet: {info['rows']} problems, {info['row_groups']} row group, "
                  f"{info['uncompressed_mib']:.0f} MiB uncompressed, {info['file_mib']:.0f} MiB on disk "
                  f"(generated in {time.time() - t:.0f} s)")
            r = run_child(IMPORT_CHILD, str(folder / "problems.parquet"), str(folder / "tests"), str(folder / "out"))
            print(f"  import  : peak RSS {r['peak_rss_mib']:.0f} MiB, "
                  f"largest page {r['largest_page_mib']:.1f} MiB, largest value {r['largest_value_mib']:.1f} MiB, "
                  f"{r['imported']} tasks in {r['seconds']:.0f} s")
            if not args.no_pyarrow:
                b = run_child(PYARROW_CHILD, str(folder / "tests" / "bench.parquet"))
                print(f"  pyarrow : peak RSS {b['peak_rss_mib']:.0f} MiB, Arrow peak {b['arrow_peak_mib']:.0f} MiB "
                      f"(iter_batches(batch_size=1), read only, {b['seconds']:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
