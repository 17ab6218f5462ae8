"""`python -m ibench.tasks probe TASK... [--jobs N]`: how strict is each task's judging?

    python -m ibench.tasks probe tasks/ --jobs 2                   # every bundled task
    python -m ibench.tasks probe tasks/guess-the-number --keep     # also write informative kills
    python -m ibench.tasks probe tasks/x --accept-equivalent 'A:ok.cpp:relop:1a2b3c4d' --reason '...'
    python -m ibench.tasks probe tasks/x --model openai-api --model-override model.base_url=...

Exit 0 when every task meets Category B and has no unexplained survivor, 1 otherwise, 2 for
bad input. The table goes to stdout, the records to ``--out`` (probe.json, mutants.parquet).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import sys
import time
from pathlib import Path

from ..errors import TaskError
from ..load import load_task, load_tasks
from .run import DEFAULT_MAX_SOURCE, TaskProbe, accept_equivalent, keep_mutants, plan_mutants, probe_tasks


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("tasks", nargs="+", type=Path, help="task folders, or folders of task folders")
    parser.add_argument("--jobs", type=int, default=1, help="parallel judging processes (default 1)")
    parser.add_argument("--max-mutants", type=int, default=DEFAULT_MAX_SOURCE, metavar="N",
                        help=f"Category A mutants per task, chosen deterministically (default {DEFAULT_MAX_SOURCE}; 0: all)")
    parser.add_argument("--only", choices=["A", "B", "AB", "none"], default="AB",
                        help="the deterministic categories to build (default both; none: LLM mutants alone)")
    parser.add_argument("--out", type=Path, default=None,
                        help="where to write probe.json and mutants.parquet (default outputs/probe/<time>)")
    parser.add_argument("--keep", action="store_true",
                        help="write informative killed mutants into each task as known solutions")
    parser.add_argument("--accept-equivalent", metavar="ID", default=None,
                        help="record a surviving mutant as equivalent in the task card (needs --reason; one task)")
    parser.add_argument("--reason", default=None, help="why the mutant is equivalent")
    parser.add_argument("--hunt", type=int, default=0, metavar="N",
                        help="for each survivor, try N fresh generator seeds of the task's recipes for a killing case")
    parser.add_argument("--add-cases", action="store_true",
                        help="with --hunt: write each killing case into the task (cases/ and generator/cases.txt)")
    parser.add_argument("--model", default=None, metavar="CONFIG",
                        help="also ask this model (conf/model/<CONFIG>.yaml) for mutants of both categories")
    parser.add_argument("--model-override", action="append", default=[], metavar="KEY=VALUE",
                        help="a Hydra override for --model, e.g. model.base_url=http://127.0.0.1:8000/v1")
    parser.add_argument("--llm-samples", type=int, default=1, metavar="N",
                        help="mutants asked per category and accepted solution (default 1)")


def _load(paths: list[Path]):
    tasks = []
    for p in paths:
        tasks.extend([load_task(p)] if (p / "meta.json").is_file() else load_tasks(p))
    return tasks


def run_from_args(args: argparse.Namespace) -> int:
    from rich.console import Console

    console = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
    if args.accept_equivalent:
        if not args.reason or not args.reason.strip():
            console.print("probe: --accept-equivalent needs --reason (why no case can tell it apart)")
            return 2
        if len(args.tasks) != 1 or not (args.tasks[0] / "meta.json").is_file():
            console.print("probe: --accept-equivalent takes exactly one task folder")
            return 2
        accept_equivalent(args.tasks[0], args.accept_equivalent, args.reason)
        console.print(f"recorded {args.accept_equivalent} as equivalent in {args.tasks[0] / 'meta.json'}", markup=False)
        return 0
    if args.jobs < 1:
        console.print("probe: --jobs must be at least 1")
        return 2
    try:
        tasks = _load(args.tasks)
    except TaskError as e:
        console.print(str(e), markup=False)
        return 2
    if not tasks:
        console.print("probe: no tasks")
        return 1
    max_source = None if args.max_mutants == 0 else args.max_mutants
    extra = None
    llm_info = None
    if args.model:
        from .llm import llm_mutants

        try:
            extra, llm_info = llm_mutants(tasks, args.model, args.model_override, args.llm_samples)
        except Exception as e:  # a bad config or an unreachable endpoint: one message
            console.print(f"probe: --model {args.model}: {type(e).__name__}: {e}", markup=False)
            return 2
    started = time.monotonic()
    categories = "" if args.only == "none" else args.only
    results = probe_tasks(tasks, jobs=args.jobs, max_source=max_source, categories=categories, extra=extra,
                          on_task=lambda p: print_task(console, p))
    wall = time.monotonic() - started
    if args.hunt:
        _hunt(console, tasks, results, args, max_source, categories, extra)
    if args.keep:
        from ibench.judge import JudgeSettings

        for task, probe in zip(tasks, results):
            mutants = {m.id: m.source for m in plan_mutants(task, max_source, categories)[0]}
            mutants.update({m.id: m.source for m in (extra or {}).get(task.task_id, [])})
            written = keep_mutants(task, probe, mutants, JudgeSettings())
            if written:
                console.print(f"{task.task_id}: kept {', '.join(written)}", markup=False)
    print_summary(console, results, wall)
    out = args.out or Path("outputs/probe") / _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%d-%H%M%S")
    write_records(out, results, wall, command=sys.argv, llm=llm_info)
    console.print(f"records: {out}/probe.json, {out}/mutants.parquet", markup=False)
    return 0 if all(p.ok for p in results) else 1


def _hunt(console, tasks, results, args, max_source, categories, extra) -> None:
    from ibench.judge import JudgeSettings

    from .hunt import add_case, hunt

    settings = JudgeSettings()
    for task, probe in zip(tasks, results):
        survivors = [r for r in probe.records if r.status == "survived"]
        if not survivors:
            continue
        sources = {m.id: m.source for m in plan_mutants(task, max_source, categories)[0]}
        sources.update({m.id: m.source for m in (extra or {}).get(task.task_id, [])})
        added = False
        for r in survivors:
            found = hunt(task, r.id, sources[r.id], args.hunt, settings)
            if found is None:
                console.print(f"{task.task_id}: {r.id}: no killing case in {args.hunt} tries", markup=False)
                r.reason = f"hunt: survived {args.hunt} generated cases"
                continue
            where = ""
            if args.add_cases:
                if added:
                    task = load_task(task.root)  # see the case just added
                name = add_case(task, found)
                added = name is not None
                where = f", added as cases/{name}.in" if name else " (its pool is full: not added)"
            r.reason = f"hunt: killed ({found.label}) by gen {' '.join(found.args)}{where}"
            console.print(f"{task.task_id}: {r.id}: killed ({found.label}) by gen {' '.join(found.args)}{where}",
                          markup=False)


def write_records(out: Path, results: list[TaskProbe], wall_s: float, command=None, llm=None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    doc = {"wall_s": round(wall_s, 1), "command": list(command or []), "llm": llm,
           "tasks": [p.summary() for p in results],
           "mutants": [r.to_dict() for p in results for r in p.records]}
    (out / "probe.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    import polars as pl

    rows = doc["mutants"]
    schema = {k: (pl.Int64 if k in ("cases_passed", "cases_run") else pl.Utf8) for k in
              ("task", "id", "category", "kind", "solution", "status", "label", "required", "cases_passed",
               "cases_run", "passed_cases", "message", "description", "diff", "reason", "fingerprint")}
    pl.DataFrame(rows, schema=schema).write_parquet(out / "mutants.parquet")


def _fmt_score(p: TaskProbe) -> str:
    return "-" if p.score is None else f"{p.score:.2f}"


def print_task(console, p: TaskProbe) -> None:
    from rich.markup import escape

    b = "n/a" if p.b_compliant is None else ("[green]yes" if p.b_compliant else "[red]NO")
    mark = "[green]OK" if p.ok else "[red]FINDINGS"
    console.print(f"{escape(p.task)}  {mark}[/]  A: {p.made} made, {p.killed} killed, {p.survived} survived, "
                  f"{p.equivalent} equivalent, {p.stillborn} stillborn, score {_fmt_score(p)}  |  "
                  f"B: {p.count('B', 'compliant')}/{p.b_made} compliant {b}")
    for r in p.records:
        if r.category == "B" and r.status != "compliant" or r.status in ("survived", "error") :
            console.print(f"  [red]{escape(r.status)}[/] {escape(r.id)}  got {r.label}"
                          f"{' (required ' + r.required + ')' if r.required else ''}: {escape(r.description)}")
            if r.status == "survived":
                console.print(f"    passed {r.cases_passed} cases: {escape(r.passed_cases[:200])}")
                if r.diff:
                    console.print("    " + escape(r.diff).replace("\n", "\n    "))
            elif r.message:
                console.print(f"    {escape(r.message[:200])}")
    for note in p.notes:
        console.print(f"  [dim]{escape(note)}[/]")


def print_summary(console, results: list[TaskProbe], wall_s: float) -> None:
    from rich.table import Table

    table = Table(title=f"mutation probe: {len(results)} tasks, {wall_s:.0f} s", title_justify="left")
    for col in ("task", "A made", "killed", "survived", "equiv.", "stillborn", "score", "B", "LLM", "ok"):
        table.add_column(col, justify="left" if col == "task" else "right")
    for p in results:
        s = p.summary()
        b = "n/a" if p.b_compliant is None else f"{s['b_compliant_count']}/{p.b_made}"
        llm = f"{s['llm_killed']}/{s['llm_made']}" if s["llm_made"] else ""
        table.add_row(p.task, str(p.made), str(p.killed), str(p.survived), str(p.equivalent), str(p.stillborn),
                      _fmt_score(p), b, llm, "[green]✓" if p.ok else "[red]✗")
    console.print(table)
    b_tasks = [p for p in results if p.b_compliant is not None]
    full = sum(1 for p in b_tasks if p.b_compliant)
    killed = sum(p.killed for p in results)
    denom = sum(p.made - p.equivalent - p.stillborn for p in results)
    console.print(f"Category B compliance: {full}/{len(b_tasks)} tasks; mutation score overall "
                  f"{killed}/{denom}{'' if not denom else f' = {killed / denom:.3f}'}; "
                  f"{sum(p.survived for p in results)} unexplained survivors")
