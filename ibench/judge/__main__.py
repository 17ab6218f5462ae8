"""`python -m ibench.judge TASK_DIR SOLUTION_FILE [--json] [--all-cases] [--language L] [--variant V]`

The language follows the solution's extension (.cpp/.cc/.cxx C++, .py Python 3); a file with no
extension or .txt is taken as C++.

Prints a per-case table and the final verdict (or one JSON object with --json). Exits 0 whenever
judging ran, whatever the verdict; 2 with a clear message for bad input."""

from __future__ import annotations

import argparse
import json
import sys

from pathlib import Path

from ..variants import VARIANTS
from .diagnostics import first_error_line, first_errors
from .executors import EXECUTORS, executor_class, language_of
from .judge import Judge
from .outcome import SampleResult
from .settings import JudgeSettings


def _settings(args: argparse.Namespace) -> JudgeSettings:
    s = JudgeSettings(all_cases=args.all_cases)
    if args.isolation:
        s.isolation = args.isolation
    if args.testlib:
        s.testlib_header = args.testlib
    if args.cases is not None:
        s.non_adaptive_cases = s.adaptive_cases = args.cases
    if args.variant:
        s.variant = args.variant
    return s


ERROR_LINES = 12  # compiler output shown under the table: the first error and what follows it


def to_json(result: SampleResult, full: bool = False) -> dict:
    """The CLI's JSON: ``SampleResult.to_dict``, plus the compiler message and the sample's
    message whenever compilation failed (without ``--full`` too)."""
    d = result.to_dict(full=full)
    if not result.compile.ok:
        d["compile"]["message"] = result.compile.message
        d["compile"]["first_error"] = first_error_line(result.compile.message) if result.compile.message.strip() else ""
        d.setdefault("message", result.message)
    return d


def print_table(result: SampleResult, title: str) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    # Everything a program or a task's program wrote (messages that quote its tokens, exits, the
    # file name) reaches rich as plain Text, never as markup: a token such as `[/bold]` is shown,
    # not parsed.
    table = Table(title=Text(title), show_lines=False)
    for col in ("case", "verdict", "cpu ms", "wall ms", "peak KB", "queries", "solver", "interactor/checker", "message"):
        table.add_column(col, overflow="fold", max_width=60 if col == "message" else None)
    for c in result.cases:
        q = "" if c.queries is None else f"{c.queries}/{c.query_limit if c.query_limit is not None else '?'}"
        style = "green" if c.verdict.value == "OK" else "red"
        table.add_row(Text(c.case), Text(c.verdict.value, style=style), f"{c.cpu_ms:.0f}", f"{c.wall_ms:.0f}",
                      str(c.peak_kb), q, Text(c.solver_exit), Text(c.interactor_exit), Text(c.message[:200]))
    console = Console(width=max(Console().width, 150))
    console.print(table)
    comp = result.compile
    console.print(f"compile: {'ok' if comp.ok else 'failed'} in {comp.ms:.0f} ms{' (cached)' if comp.cached else ''}"
                  f"   sandbox: {escape(result.sandbox)}")
    if not comp.ok and comp.message.strip():
        head = first_errors(comp.message, ERROR_LINES)
        console.print(head, markup=False, highlight=False)
        more = len(comp.message.strip("\n").splitlines()) - len(head.splitlines())
        if more > 0:
            console.print(f"[dim]... {more} more line(s) of compiler output (--json carries all of it)[/]")
    for w in result.warnings:
        console.print(Text.assemble(("warning:", "yellow"), " ", w))
    score = f"   score: {result.score:g}" if result.score is not None else ""
    colour = "green" if result.verdict.value == "OK" else "red"
    message = result.message
    if result.verdict.value == "CE" and comp.message.strip():
        message = first_error_line(comp.message)  # the first error, not the compiler's last line
    line = Text.assemble("verdict: ", (result.verdict.value, f"bold {colour}"), score)
    if message:
        line.append(f"   ({message})")
    console.print(line, highlight=False)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ibench.judge", description="Judge one solution on one task.")
    ap.add_argument("task_dir", type=Path)
    ap.add_argument("solution", type=Path)
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    ap.add_argument("--full", action="store_true", help="with --json: include transcripts, stderr and warnings")
    ap.add_argument("--all-cases", action="store_true", help="run every case instead of stopping at the first failure")
    ap.add_argument("--cases", type=int, default=None, help="run only the first N cases of each interactive pool")
    ap.add_argument("--isolation", choices=("auto", "root", "userns", "rlimit"), default=None)
    ap.add_argument("--variant", choices=VARIANTS, default=None,
                    help="batch: the batch variant, whose solver first reads the hidden case on stdin "
                         "(InteractBench C.1)")
    ap.add_argument("--testlib", default=None, help="path to an official testlib.h to use instead of ibench's")
    ap.add_argument("--language", default=None, help=f"one of {', '.join(EXECUTORS)} (default: from the extension)")
    args = ap.parse_args(argv)

    from ..tasks.errors import TaskError
    from ..tasks.load import load_task

    if not args.solution.is_file():
        print(f"error: solution file not found: {args.solution}", file=sys.stderr)
        return 2
    language = args.language or language_of(args.solution)
    if language is None and args.solution.suffix in ("", ".txt"):
        language = "cpp"
    try:
        executor_class(language or args.solution.suffix)
    except ValueError:
        supported = ", ".join(f"{cls.language} ({' '.join(cls.extensions)})" for cls in EXECUTORS.values())
        print(f"error: {args.solution}: no executor for {language or args.solution.suffix!r}; supported: {supported}",
              file=sys.stderr)
        return 2
    try:
        task = load_task(args.task_dir)
    except TaskError as e:
        print(f"error: invalid task {args.task_dir}:\n{e}", file=sys.stderr)
        return 2
    except FileNotFoundError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    source = args.solution.read_text(encoding="utf-8", errors="replace")
    try:
        judge = Judge(_settings(args))
    except RuntimeError as e:  # IsolationError and the like: this host cannot judge as asked
        print(f"error: the judge cannot start here: {e}", file=sys.stderr)
        return 2
    result = judge.judge(task, source, language=language or args.solution.suffix)
    if args.json:
        print(json.dumps(to_json(result, full=args.full)))
    else:
        print_table(result, f"{task.task_id} — {args.solution.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

