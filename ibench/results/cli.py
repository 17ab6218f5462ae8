"""``python -m ibench.results``: one parser for every command over runs on disk. ``show``,
``compare`` and ``sample`` are :mod:`ibench.results.runs`'s; the others have parsers of their own
(the viewer, behaviors, sweep, study, the analyses), imported only when asked for. Nothing imports
this module, so a command's module may use any other (the viewer uses ``runs``'s tables)."""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from ibench.results import runs


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ibench.results",
                                 description="Look into finished ibench runs: tables, comparisons, samples.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("show", help="the run's tables again")
    p.add_argument("run", help="a run folder")
    p = sub.add_parser("compare", help="runs side by side, with paired bootstrap CIs of the pass@1 differences")
    p.add_argument("runs", nargs="+", help="two or more run folders (the first is the baseline)")
    p.add_argument("--out", help="output folder (default: <common folder>/compare_report)")
    p.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples (default 1000)")
    p.add_argument("--confidence", type=float, default=0.95)
    p = sub.add_parser("sample", help="one sample: verdict, code, compiler message, cases, reasoning, answer, the "
                                      "exchange turn by turn; without TASK (or --list): the samples by verdict")
    p.add_argument("run", help="a run folder")
    p.add_argument("task", nargs="?", help="task id (none: list the run's samples)")
    p.add_argument("index", nargs="?", type=int, default=0, help="sample index (default 0)")
    p.add_argument("--round", type=int, default=None, dest="round_",
                   help="refinement round of the sample (default: its last)")
    p.add_argument("--list", action="store_true", help="list the run's samples (with --verdict: of that verdict)")
    p.add_argument("--verdict", help="with --list: only samples of this verdict (WA, PE, ...; fail: all but OK)")
    p.add_argument("--full", action="store_true", help="the whole reasoning and answer (default: their last 1500 chars)")
    sub.add_parser("sweep", help="pass@k against a swept setting (python -m ibench.results sweep -h)", add_help=False)
    sub.add_parser("study", help="the paper's studies: time splits, language x prompt, few-shot/refinement "
                                 "(python -m ibench.results study -h)", add_help=False)
    sub.add_parser("view", help="the results viewer: a static site of runs (python -m ibench.results view -h)",
                   add_help=False)
    sub.add_parser("behaviors", help="reasoning-behavior analysis with a judge model "
                                     "(python -m ibench.results behaviors -h)", add_help=False)
    from ibench.results.analyses.cli import ANALYSES

    sub.add_parser("analyse", help=f"analyses of runs on disk: {' | '.join(ANALYSES)} | all "
                                   "(python -m ibench.results analyse -h; docs/ANALYSES.md)", add_help=False)
    sub.add_parser("rejudge", help="judge a run's stored samples again K times: flips per verdict, the judge's "
                                   "stability (python -m ibench.results rejudge -h)", add_help=False)
    sub.add_parser("familiarity", help="the model's log-probabilities of each statement and known solution "
                                       "against pass@1 (python -m ibench.results familiarity -h)", add_help=False)
    argv = list(sys.argv[1:] if argv is None else argv)
    commands = {"view": "ibench.results.viewer", "behaviors": "ibench.results.behaviors",
                "sweep": "ibench.results.sweep", "study": "ibench.results.study",
                "analyse": "ibench.results.analyses.cli", "rejudge": "ibench.results.analyses.rejudge",
                "familiarity": "ibench.results.analyses.familiarity"}
    if argv[:1] and argv[0] in commands:  # a command with a parser of its own
        import importlib

        return int(importlib.import_module(commands[argv[0]]).main(argv[1:]))
    args = ap.parse_args(argv)
    try:
        if args.cmd == "show":
            runs.show(args.run)
        elif args.cmd == "compare":
            if len(args.runs) < 2:
                raise runs.ReportError("compare needs at least two runs")
            runs.compare(args.runs, args.out, args.bootstrap, args.confidence)
        elif args.cmd == "sample":
            if args.list or args.task is None:
                from ibench.results.sample_view import list_samples

                list_samples(args.run, args.verdict, runs._console())
            else:
                runs.sample(args.run, args.task, args.index, round_=args.round_, full=args.full)
    except runs.ReportError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0
