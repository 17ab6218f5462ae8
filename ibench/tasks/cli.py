"""`python -m ibench.tasks`: check, scaffold, validate and import task packages.

    python -m ibench.tasks check tasks/                 # every task: OK or its problems
    python -m ibench.tasks new my-task --kind batch     # a commented template that passes check
    python -m ibench.tasks gen-cases tasks/my-task      # generator/cases.txt -> cases/*.in (batch: tests/*.in, .out)
    python -m ibench.tasks validate tasks/ --cases 5    # compile, regenerate, judge known solutions
    python -m ibench.tasks probe tasks/ --jobs 2        # mutation probes (ibench/tasks/probe/)
    python -m ibench.tasks import-interactbench ...     # importers (ibench/tasks/importers/)
    python -m ibench.tasks import PACKAGE... --out DIR  # ICPC / Kattis or Polygon packages
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

from .errors import TaskError
from .load import TaskReport, find_task_dirs, inspect_task
from .scaffold import DEFAULT_USER_TASKS, USER_TASKS_ENV
from .model import InteractorMode, TaskKind

# Subcommands implemented by ibench.tasks.importers.<module>.main(argv); loaded only when used.
IMPORTERS: dict[str, tuple[str, str]] = {
    "import-interactbench": ("interactbench", "convert the InteractBench release (problems.jsonl, test_cases/) into task folders"),
    "import-liveoibench": ("liveoibench", "convert LiveOIBench problems into task folders"),
    "import-icpc": ("icpc", "convert ICPC / Kattis problem packages (folders or zips) into task folders"),
    "import-polygon": ("polygon", "convert Codeforces Polygon packages (folders or zips) into task folders"),
    "import": ("icpc_auto", "convert problem packages, ICPC / Kattis or Polygon, recognised by their files"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m ibench.tasks", description="Task package tools.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("check", help="validate task folders without compiling anything")
    p.add_argument("dir", type=Path, help="a task folder or a folder of task folders")
    p.add_argument("--strict", action="store_true", help="treat warnings as problems")
    p.add_argument("-q", "--quiet", action="store_true", help="do not print warnings")

    p = sub.add_parser("new", help="scaffold a task folder from commented templates")
    p.add_argument("name", help="the task id, also the folder name")
    p.add_argument("--dir", type=Path, default=None,
                   help=f"where to create it (default: ${USER_TASKS_ENV}, else ./{DEFAULT_USER_TASKS})")
    p.add_argument("--kind", choices=[k.value for k in TaskKind], default=TaskKind.INTERACTIVE.value)
    p.add_argument("--mode", choices=[m.value for m in InteractorMode], default=InteractorMode.NON_ADAPTIVE.value,
                   help="interactor mode (interactive and grader kinds)")

    p = sub.add_parser("gen-cases", help="write the cases generator/cases.txt lists (compiles the generator)")
    p.add_argument("task", type=Path, help="a task folder")
    p.add_argument("--case", action="append", dest="cases", metavar="NAME", help="only this case (repeatable)")
    p.add_argument("--force", action="store_true", help="overwrite cases that differ from what their recipe prints")
    p.add_argument("--answers", type=Path, metavar="SOLUTION",
                   help="batch tasks: the solution that writes tests/*.out (default: the first accepted one)")
    p.add_argument("--no-answers", action="store_true", help="batch tasks: write tests/*.in only")

    p = sub.add_parser("validate", help="compile, regenerate cases and judge every known solution")
    from .validate import add_arguments  # light import: the judge is imported only when run

    add_arguments(p)

    p = sub.add_parser("probe", help="mutation probes: how strict each task's interactor and cases are")
    from .probe.cli import add_arguments as add_probe_arguments

    add_probe_arguments(p)

    for name, (_, help_text) in IMPORTERS.items():
        p = sub.add_parser(name, help=help_text, add_help=False)
        p.add_argument("args", nargs=argparse.REMAINDER)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # Importers own their arguments: hand them the rest of the command line untouched.
    if argv and argv[0] in IMPORTERS:
        return _run_importer(argv[0], argv[1:])
    args = build_parser().parse_args(argv)
    if args.command == "check":
        return cmd_check(args.dir, strict=args.strict, quiet=args.quiet)
    if args.command == "new":
        return cmd_new(args.name, args.dir, args.kind, args.mode)
    if args.command == "gen-cases":
        return cmd_gen_cases(args.task, args.cases, force=args.force, answers=args.answers,
                             write_answers=not args.no_answers)
    if args.command == "validate":
        from .validate import run_from_args

        return run_from_args(args)
    if args.command == "probe":
        from .probe.cli import run_from_args as run_probe

        return run_probe(args)
    raise AssertionError(args.command)


def _run_importer(command: str, argv: list[str]) -> int:
    module_name = f"ibench.tasks.importers.{IMPORTERS[command][0]}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name not in (module_name, "ibench.tasks.importers"):
            raise  # the importer exists but one of its own imports is missing
        print(f"{command}: not available ({module_name} is not installed)", file=sys.stderr)
        return 2
    return int(module.main(argv) or 0)


def cmd_check(root: Path, strict: bool = False, quiet: bool = False, out=None) -> int:
    out = out or sys.stdout
    try:
        dirs = find_task_dirs(root)
    except TaskError as e:
        print(e, file=out)
        return 1
    if not dirs:
        print(f"{root}: no task folders found; expected a task folder or a folder of task folders", file=out)
        return 1
    failed = 0
    for d in dirs:
        report = inspect_task(d)
        bad = bool(report.problems) or (strict and bool(report.warnings))
        failed += bad
        print(_report_line(report, bad), file=out)
        for problem in report.problems:
            print(f"      {problem}", file=out)
        if not quiet or strict:
            for warning in report.warnings:
                print(f"      warning: {warning}", file=out)
    if len(dirs) > 1:
        print(f"{len(dirs)} tasks: {len(dirs) - failed} OK, {failed} with problems", file=out)
    return 1 if failed else 0


def _report_line(report: TaskReport, bad: bool) -> str:
    if report.task is None or bad:
        n = len(report.problems) + (len(report.warnings) if report.task is not None else 0)
        return f"FAIL  {report.name}  ({n} problem{'s' if n != 1 else ''})"
    t = report.task
    shape = t.kind.value if t.interactor_mode is None else f"{t.kind.value}, {t.interactor_mode.value}"
    return (f"OK    {t.task_id}  ({shape}, {len(t.cases)} case{'s' if len(t.cases) != 1 else ''}, "
            f"{len(t.solutions)} known solution{'s' if len(t.solutions) != 1 else ''})")


def cmd_new(name: str, directory: Path, kind: str, mode: str) -> int:
    from .scaffold import create_task

    try:
        result = create_task(name, directory, kind=kind, mode=mode)
    except (ValueError, FileExistsError) as e:
        print(f"new: {e}", file=sys.stderr)
        return 2
    print(f"created {result.root}/")
    for path in result.files:
        print(f"  {path.relative_to(result.root)}")
    print("next: edit desc.md and the templates, then run\n"
          f"  python -m ibench.tasks gen-cases {result.root} --force   # after editing the generator or cases.txt\n"
          f"  python -m ibench.tasks check {result.root}\n"
          f"  python -m ibench.tasks validate {result.root}")
    return 0


def cmd_gen_cases(task: Path, cases: list[str] | None = None, force: bool = False, answers: Path | None = None,
                  write_answers: bool = True, out=None) -> int:
    """Write the cases generator/cases.txt lists; 0, or 1 with the problems (file and line)."""
    from .gencases import generate_cases

    out = out or sys.stdout
    try:
        result = generate_cases(task, only=cases, force=force, answers=answers, write_answers=write_answers)
    except TaskError as e:
        print(f"gen-cases: {task}: nothing written", file=out)
        for problem in e.problems:
            print(f"      {problem}", file=out)
        return 1
    for rel in result.written:
        print(f"wrote {rel}", file=out)
    if result.answers_from is not None:
        print(f"expected outputs (tests/*.out) from {result.answers_from}", file=out)
    for w in result.warnings:
        print(f"warning: {w}", file=out)
    print(f"{len(result.written)} written, {len(result.unchanged)} unchanged; next: "
          f"python -m ibench.tasks check {task}", file=out)
    report = inspect_task(task)
    for problem in report.problems:
        print(f"      {problem}", file=out)
    return 1 if report.problems else 0
