"""ibench's winnowing (:mod:`.winnow`) checked against the real Dolos on a set of pairs.

Dolos is a Node package (``@dodona/dolos-lib``, with its tree-sitter parsers); it is not a
dependency of ibench. Install it anywhere (``npm install @dodona/dolos-lib`` in a folder) and give
that folder::

    python -m ibench.results.analyses.dolos --dolos-dir DIR [--tasks tasks] [--out FOLDER]

Every pair of C++ solutions of each task (accepted and known-bad alike: a range of
similarities) is compared by both, Dolos with its defaults (k = 23, window 17) on the same
files. Written: ``dolos_agreement.csv`` (one row per pair, both similarities) and a summary
(pairs, Pearson and Spearman correlation, mean and largest absolute difference)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from itertools import combinations
from pathlib import Path
from typing import Any, Sequence

from ibench.results.analyses.common import AnalysisError, write_csv
from ibench.results.analyses.winnow import code_similarity

_SCRIPT = """
import { Dolos } from "@dodona/dolos-lib";
const files = JSON.parse(process.argv[2]);
const report = await new Dolos({ language: "cpp" }).analyzePaths(files);
const out = report.allPairs().map(p => [p.leftFile.path, p.rightFile.path, p.similarity]);
console.log(JSON.stringify(out));
"""


def dolos_pairs(files: Sequence[Path], dolos_dir: Path) -> dict[frozenset[str], float]:
    """Dolos's similarity of every pair of ``files`` (by their paths)."""
    script = dolos_dir / "ibench_pairs.mjs"
    script.write_text(_SCRIPT)
    proc = subprocess.run(["node", str(script), json.dumps([str(f) for f in files])], capture_output=True, text=True,
                          cwd=dolos_dir, timeout=300)
    if proc.returncode != 0:
        raise AnalysisError(f"dolos failed ({proc.returncode}): {proc.stderr.strip()[-400:]}")
    return {frozenset((a, b)): float(s) for a, b, s in json.loads(proc.stdout.strip().splitlines()[-1])}


def _ranks(xs: Sequence[float]) -> list[float]:
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    ranks = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2
        i = j + 1
    return ranks


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / (sxx * syy) ** 0.5 if sxx and syy else float("nan")


def agreement(tasks_dir: Path, dolos_dir: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for task in sorted(p for p in tasks_dir.iterdir() if (p / "solutions").is_dir()):
        files = sorted(p.resolve() for p in (task / "solutions").glob("*.cpp"))
        if len(files) < 2:
            continue
        theirs = dolos_pairs(files, dolos_dir)
        for a, b in combinations(files, 2):
            d = theirs.get(frozenset((str(a), str(b))))
            if d is None:
                continue
            rows.append({"task": task.name, "left": a.name, "right": b.name, "dolos": d,
                         "ibench": code_similarity(a.read_text(errors="replace"), b.read_text(errors="replace"))})
    if not rows:
        raise AnalysisError(f"{tasks_dir}: no task with two C++ solutions")
    xs, ys = [float(r["ibench"]) for r in rows], [float(r["dolos"]) for r in rows]
    diffs = [abs(x - y) for x, y in zip(xs, ys)]
    summary = {"pairs": len(rows), "pearson": pearson(xs, ys), "spearman": pearson(_ranks(xs), _ranks(ys)),
               "mean_abs_diff": sum(diffs) / len(diffs), "max_abs_diff": max(diffs),
               "within_0.05": sum(d <= 0.05 for d in diffs) / len(diffs)}
    return rows, summary


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ibench.results.analyses.dolos", description=__doc__.split("\n\n")[0])
    ap.add_argument("--dolos-dir", required=True, help="a folder where @dodona/dolos-lib is installed (node_modules)")
    ap.add_argument("--tasks", default="tasks", help="tasks folder (default tasks)")
    ap.add_argument("--out", default="dolos_report", help="output folder")
    args = ap.parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        rows, summary = agreement(Path(args.tasks), Path(args.dolos_dir).resolve())
    except AnalysisError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    out = Path(args.out)
    write_csv(rows, out / "dolos_agreement.csv")
    write_csv([summary], out / "dolos_agreement_summary.csv")
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
