"""``python -m ibench.results analyse WHAT RUN...`` and ``python -m ibench.results rejudge RUN``.

WHAT is one of :data:`ANALYSES` or ``all`` (every one the runs allow). Each RUN is a run folder
or a folder above run folders. Tables go to the console and CSV, figures to PNG and PDF, all in
``--out`` (default ``<common folder>/analyses_report``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Callable, Sequence

from ibench.results.analyses.common import AnalysisError, Run, console, default_out, open_runs

ANALYSES = ("timelimit", "efficiency", "scaling", "cost", "seeds", "similarity")


def _runner(what: str, args: argparse.Namespace) -> Callable[[Sequence[Run], Path, Any], dict[str, Path]]:
    figures = not args.no_figures
    if what == "timelimit":
        from ibench.results.analyses import timelimit

        fr = [float(x) for x in args.fractions.split(",")] if args.fractions else timelimit.FRACTIONS
        if any(not 0 < f <= 1 for f in fr):
            raise AnalysisError(f"--fractions {args.fractions!r}: each a number in (0, 1]")
        return lambda runs, out, c: timelimit.analyse(runs, out, c, fr, figures)
    if what == "efficiency":
        from ibench.results.analyses import efficiency

        return lambda runs, out, c: efficiency.analyse(runs, out, c, figures)
    if what == "scaling":
        from ibench.results.analyses import scaling

        return lambda runs, out, c: scaling.analyse(runs, out, c, figures)
    if what == "cost":
        from ibench.results.analyses import cost

        return lambda runs, out, c: cost.analyse(runs, out, c, args.prices)
    if what == "seeds":
        from ibench.results.analyses import seeds

        return lambda runs, out, c: seeds.analyse(runs, out, c, figures, args.bootstrap)
    import ibench.results.analyses.similarity as similarity

    return lambda runs, out, c: similarity.analyse(runs, out, c, figures)


def analyse(what: str, dirs: Sequence[str | Path], out: str | Path | None = None, args: Any = None,
            con: Any = None) -> dict[str, Path]:
    args = args or parser().parse_args(["all", *map(str, dirs)])
    con = con or console()
    runs = open_runs(dirs, args.tasks)
    out_dir = Path(out) if out else default_out(runs, "analyses")
    out_dir.mkdir(parents=True, exist_ok=True)
    files: dict[str, Path] = {}
    for name in (ANALYSES if what == "all" else (what,)):
        try:
            files.update(_runner(name, args)(runs, out_dir, con))
        except AnalysisError as e:
            if what != "all":
                raise
            con.print(f"{name}: left out ({e})", highlight=False, markup=False, soft_wrap=True)
    if not files:
        raise AnalysisError(f"nothing to write for {what} from these runs")
    con.print("wrote " + ", ".join(str(p) for p in files.values()), highlight=False, markup=False, soft_wrap=True)
    if getattr(args, "wandb", "disabled") != "disabled":
        where = to_wandb(files, args.wandb, out_dir, what)
        con.print(f"W&B: {where}", highlight=False, markup=False, soft_wrap=True)
    return files


def to_wandb(files: dict[str, Path], mode: str, out_dir: Path, what: str) -> str:
    """Every table written (CSV) as a W&B table and every PNG as an image, under ``analyses/``,
    in a W&B run of its own (job type ``analysis``, files under ``out_dir``); what happened."""
    import csv

    from ibench.results.wandb_sink import WandbSink

    sink = WandbSink(mode=mode, job_type="analysis", name=f"analyses-{what}", dir=out_dir)
    sink.start()
    if not sink.run:
        return f"no run started (mode {mode}; wandb missing or refused)"
    try:
        import wandb

        payload: dict[str, Any] = {}
        for key, path in files.items():
            name = f"analyses/{key.rsplit('_', 1)[0]}"
            if path.suffix == ".csv":
                with open(path, newline="") as fh:
                    rows = list(csv.reader(fh))
                if rows:
                    payload[name] = wandb.Table(columns=list[str | int](rows[0]), data=rows[1:])
            elif path.suffix == ".png":
                payload[f"{name}_plot"] = wandb.Image(str(path))
        sink.run.log(payload)
        return f"run {sink.run.id} ({sink.mode}), {len(payload)} item(s)"
    finally:
        sink.finish()


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m ibench.results analyse",
                                 description="Analyses of runs on disk: time-limit sensitivity, token efficiency, "
                                             "parallel vs sequential scaling and subtask positions, cost, error "
                                             "bars across seeds, code similarity to the known solutions.")
    ap.add_argument("what", choices=(*ANALYSES, "all"))
    ap.add_argument("runs", nargs="+", help="run folders, or folders above them")
    ap.add_argument("--out", help="output folder (default: <common folder>/analyses_report)")
    ap.add_argument("--tasks", help="the tasks folder the runs were made on (default: the one each run recorded)")
    ap.add_argument("--fractions", help="timelimit: fractions of the CPU limit, e.g. 0.25,0.5,0.75,1 (the default)")
    ap.add_argument("--prices", help="cost: a price table (default conf/prices.yaml where it exists)")
    ap.add_argument("--bootstrap", type=int, default=1000, help="seeds: bootstrap resamples over tasks")
    ap.add_argument("--no-figures", action="store_true", help="tables only")
    ap.add_argument("--wandb", default="disabled", choices=("disabled", "offline", "online", "auto"),
                    help="also log the tables and figures to a W&B run of their own (default disabled)")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        analyse(args.what, args.runs, args.out, args)
    except AnalysisError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0
