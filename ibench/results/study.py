"""``python -m ibench.results study RUN...``: the InteractBench paper's studies from runs on disk.

Each RUN is a run folder or any folder above run folders. Each run is placed by the identity it
recorded in ``summary.json`` (``meta.identity``: model label, language, prompt setting), never by
its folder name. Sections, each written only when the runs hold what it needs:

- **Time splits** (paper C.3): per run, for each cut year Y, the mean pass@1 over the tasks
  released before Y (the pre set) and from Y on (the post set). Tasks carry their release date
  in the run (``summary.json`` tasks ``date``, from ``meta.json`` ``date``); tasks without one
  are left out and counted. ``time_split.csv``, ``time_split.png``.
- **Language × prompt** (paper C.4, Table 12): pass@1 per model for every (prompt, language)
  the runs cover, on the tasks every run of that model has. ``language_prompt.csv`` / ``.md`` /
  ``.png``.
- **Mitigation strategies** (paper C.2, Table 10): pass@k of independent resampling
  (zero-shot), pass@k with the few-shot prompt, and refine@k, per model and language, on
  common tasks; written when at least two of the three exist. ``mitigation.csv`` / ``.md``.
- **Per-round failure composition** (paper C.2, Table 11): for runs whose samples carry
  refinement rounds, each round's failure composition among the still-unsolved and the
  cumulative refine@k. ``refine_rounds.csv`` / ``.png``.
- **Rephrased statements** (LiveOIBench Figure 4): a run with ``prompt.rephrase=true`` beside the
  same run on the original statements — pass@1 of both on common tasks and the paired difference
  with a bootstrap interval over tasks (:mod:`ibench.results.study_rephrase`). ``rephrase.csv``,
  ``rephrase_tasks.csv``, ``rephrase.png``.
- **Batch variant vs interactive** (paper C.1, Table 9): runs of the same model, language and
  prompt that differ by variant (``meta.identity.variant``, default interactive) — one row per run:
  pass@1 on the tasks both have, and the failure composition of their unsuccessful executions
  on those tasks (WA PE QLE IDLE CE RE TLE MLE). ``batch_vs_interactive.csv`` / ``.png``.

Refinement rounds are read from the run's verdicts (``sampling.refine_rounds``): their
``round`` (1 = the first attempt) and ``sample_index``, which a sample's rounds share. A run
with no round above 1 has no refinement data, and the two refinement sections stay out.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from pathlib import Path
from typing import Any, Sequence

from ibench.results.runlog import ResultsError, RunLog, find_runs
from ibench.results.study_plots import (plot_batch_variant_vs_interactive, plot_language_prompt, plot_refine,
                                        plot_time_split)
from ibench.results.study_runs import StudyError, StudyRun, distinguish, names, year_of
from ibench.results.study_tables import (C1_LABELS, batch_variant_vs_interactive_rows, language_prompt_rows,
                                         mitigation_rows, refine_round_rows, time_split_rows, time_splits)

__all__ = ["C1_LABELS", "StudyError", "StudyRun", "batch_variant_vs_interactive_rows", "language_prompt_rows",
           "load_runs", "mitigation_rows", "refine_round_rows", "study", "run_study", "time_split_rows",
           "time_splits", "write_csv", "write_md", "year_of"]


# -- files ----------------------------------------------------------------------------------------------
def _fmt(v: Any) -> str:
    if v is None:
        return "—"
    return f"{v:.3f}" if isinstance(v, float) else str(v)


def write_csv(rows: list[dict[str, Any]], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]) if rows else [])
        w.writeheader()
        w.writerows(rows)
    return path


def write_md(rows: list[dict[str, Any]], path: Path, skip: Sequence[str] = ("run_dir",)) -> Path:
    cols = [c for c in (rows[0] if rows else {}) if c not in skip]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(_fmt(r[c]) for c in cols) + " |" for r in rows]
    path.write_text("\n".join(lines) + "\n")
    return path


def load_runs(dirs: Sequence[str | Path]) -> tuple[list[Path], list[StudyRun]]:
    """The run folders given or found below ``dirs``, each read as the study places it."""
    try:
        paths = find_runs(dirs)
        if not paths:
            raise StudyError("no runs given")
        return paths, [StudyRun.of(RunLog.open(p)) for p in paths]
    except ResultsError as e:
        raise StudyError(str(e)) from None


def _show(console: Any, title: str, rows: list[dict[str, Any]],
          skip: Sequence[str] = ("run_dir", "model", "language", "prompt")) -> None:
    from rich.markup import escape
    from rich.table import Table

    cols = [c for c in rows[0] if c not in skip]
    t = Table(title=title, title_justify="left")
    for c in cols:
        t.add_column(escape(c), justify="left" if c in ("run", "model", "prompt") else "right")
    for r in rows:
        t.add_row(*(escape(_fmt(r[c])) for c in cols))
    console.print(t)


def study(dirs: Sequence[str | Path], out: str | Path | None = None, years: Sequence[int] | None = None,
          k: int = 5, console: Any = None) -> dict[str, Path]:
    """Build every section the runs allow; returns the files written (name -> path)."""
    from functools import partial

    from rich.console import Console
    from rich.markup import escape

    console = console or Console(width=170)
    paths, runs = load_runs(dirs)
    from ibench.results.study_rephrase import plot_rephrase, rephrase_rows

    rephrase, rephrase_tasks = rephrase_rows(runs)  # paired by identity, before distinguish relabels
    split = distinguish(runs)
    out_dir = Path(out) if out else (Path(os.path.commonpath([str(p) for p in paths])) / "study_report"
                                     if len(paths) > 1 else paths[0] / "study_report")
    out_dir.mkdir(parents=True, exist_ok=True)
    files: dict[str, Path] = {}
    show = partial(_show, console)

    for line in split:
        console.print(escape(line))
    ts = time_split_rows(runs, years)
    if ts:
        files["time_split_csv"] = write_csv(ts, out_dir / "time_split.csv")
        files["time_split_png"] = plot_time_split(ts, out_dir / "time_split.png")
        show("Time split (C.3): mean pass@1 before / from each cut year", ts)
        undated = {n: r.undated for n, r in zip(names(runs), runs) if r.undated}
        if undated:
            console.print("tasks without a release date, left out: "
                          + escape(", ".join(f"{n}: {c}" for n, c in undated.items())))
    else:
        console.print("time split: no task of these runs has a release date (meta.json `date`); section left out")

    languages, lp = language_prompt_rows(runs)
    if lp:
        files["language_prompt_csv"] = write_csv(lp, out_dir / "language_prompt.csv")
        files["language_prompt_md"] = write_md(lp, out_dir / "language_prompt.md")
        files["language_prompt_png"] = plot_language_prompt(languages, lp, out_dir / "language_prompt.png")
        show("Language × prompt (C.4): pass@1 on each model's common tasks", lp, skip=())
    else:
        console.print("language × prompt: the runs cover one (language, prompt) cell per model; section left out")

    mit = mitigation_rows(runs, k)
    if mit:
        files["mitigation_csv"] = write_csv(mit, out_dir / "mitigation.csv")
        files["mitigation_md"] = write_md(mit, out_dir / "mitigation.md")
        show(f"Mitigation strategies (C.2, Table 10): pass@{k}, pass@{k} few-shot, refine@{k}", mit, skip=())

    rr = refine_round_rows(runs)
    if rr:
        files["refine_rounds_csv"] = write_csv(rr, out_dir / "refine_rounds.csv")
        files["refine_rounds_png"] = plot_refine(rr, out_dir / "refine_rounds.png")
        show("Per-round failure composition among still-unsolved (C.2, Table 11)", rr)

    bi = batch_variant_vs_interactive_rows(runs)
    if bi:
        files["batch_vs_interactive_csv"] = write_csv(bi, out_dir / "batch_vs_interactive.csv")
        files["batch_vs_interactive_png"] = plot_batch_variant_vs_interactive(bi, out_dir / "batch_vs_interactive.png")
        show("Batch variant vs interactive (C.1): pass@1 on common tasks, failure composition (Table 9)", bi,
             skip=("run_dir",))
    if rephrase:
        files["rephrase_csv"] = write_csv(rephrase, out_dir / "rephrase.csv")
        files["rephrase_tasks_csv"] = write_csv(rephrase_tasks, out_dir / "rephrase_tasks.csv")
        files["rephrase_png"] = plot_rephrase(rephrase, out_dir / "rephrase.png")
        show("Rephrased statements (LiveOIBench Fig. 4): pass@1 on common tasks, paired difference with 95% "
             "bootstrap CI over tasks", rephrase, skip=("run_dir", "original_run"))
    if not files:
        raise StudyError("none of the study sections applies to these runs (no release dates, one language × "
                         "prompt cell per model, no few-shot, refinement, batch-variant/interactive or "
                         "original/rephrased pair)")
    console.print("wrote " + escape(", ".join(str(p) for p in files.values())))
    return files


# -- one run, for the launch (W&B) ------------------------------------------------------------------------
def run_study(summary: Any, out_dir: str | Path) -> tuple[dict[str, Path], dict[str, list[dict[str, Any]]]]:
    """The study figures one finished run allows (the launch logs them to W&B): its time split
    when its tasks span at least two release years (``time_split.csv``, ``plots/time_split.png``),
    and its (language, prompt) cell of the C.4 table. Returns (files, tables)."""
    out_dir = Path(out_dir)
    ident = (summary.meta or {}).get("identity") or {}
    tables: dict[str, list[dict[str, Any]]] = {}
    files: dict[str, Path] = {}
    tables["study/language_prompt"] = [{"model": ident.get("label") or summary.model,
                                        "language": ident.get("language"), "prompt": ident.get("prompt"),
                                        "pass@1": summary.overall.pass_at.get(1), "n_tasks": summary.n_tasks}]
    pairs = [(t.date, t.pass_at.get(1)) for t in summary.tasks]
    rows = time_splits(pairs)
    if len({year_of(d) for d, p in pairs if d is not None and p is not None}) >= 2:
        run = ident.get("label") or summary.model
        tagged = [{"run": run, **r} for r in rows]
        files["time_split_csv"] = write_csv(tagged, out_dir / "time_split.csv")
        (out_dir / "plots").mkdir(parents=True, exist_ok=True)
        files["time_split"] = plot_time_split(tagged, out_dir / "plots" / "time_split.png")
        tables["study/time_split"] = rows
    refine = list(getattr(summary, "refine", None) or [])
    if refine:  # C.2 / Table 11 for this run alone
        run = ident.get("label") or summary.model
        (out_dir / "plots").mkdir(parents=True, exist_ok=True)
        files["refine_rounds"] = plot_refine([{"run": run, **r} for r in refine], out_dir / "plots" / "refine_rounds.png")
        tables["study/refine_rounds"] = refine
    return files, tables


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ibench.results study",
                                 description="The paper's studies from runs on disk: time splits (C.3), language × "
                                             "prompt (C.4), mitigation strategies and refinement rounds (C.2), "
                                             "batch variant vs interactive (C.1), original vs rephrased "
                                             "statements (LiveOIBench Fig. 4).")
    ap.add_argument("runs", nargs="+", help="run folders, or folders above them")
    ap.add_argument("--out", help="output folder (default: <common folder>/study_report)")
    ap.add_argument("--years", help="cut years, e.g. 2019:2025 or 2020,2022 (default: every release year)")
    ap.add_argument("--k", type=int, default=5, help="k of pass@k / refine@k in the mitigation table (default 5)")
    args = ap.parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        years = None
        if args.years:
            try:
                if ":" in args.years:
                    a, b = args.years.split(":", 1)
                    years = list(range(int(a), int(b) + 1))
                else:
                    years = [int(y) for y in args.years.split(",") if y.strip()]
            except ValueError:
                raise StudyError(f"--years {args.years!r}: expected FIRST:LAST or Y1,Y2,... (years)") from None
            if not years:
                raise StudyError(f"--years {args.years!r}: no year in it")
        study(args.runs, args.out, years, args.k)
    except ValueError as e:  # StudyError, and a --years that is not a number
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
