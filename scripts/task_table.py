#!/usr/bin/env python3
"""Generate the README's benchmark table from the task cards.

    python scripts/task_table.py            # print the table
    python scripts/task_table.py --check    # exit 1 if README.md's table is stale (CI)
    python scripts/task_table.py --write    # rewrite the table in README.md in place

The table lives between the markers `<!-- tasks:begin -->` and `<!-- tasks:end -->`; nothing
outside them is touched.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run from a checkout without installing

from ibench.tasks.errors import TaskError  # noqa: E402
from ibench.tasks.load import load_tasks  # noqa: E402
from ibench.tasks.model import DIFFICULTIES, Task, TaskKind  # noqa: E402

BEGIN = "<!-- tasks:begin -->"
END = "<!-- tasks:end -->"


def title_of(task: Task) -> str:
    """meta.json's title, else the statement's first heading, else the id."""
    title = task.meta.get("title")
    if isinstance(title, str) and title.strip():
        return title.strip()
    for line in task.statement().splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return task.task_id


def shape_of(task: Task) -> str:
    if task.kind is TaskKind.BATCH:
        return "batch, subtasks" if task.subtasks else "batch"
    mode = task.interactor_mode.value if task.interactor_mode else "?"
    return f"grader, {mode}" if task.kind is TaskKind.GRADER else mode


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(tasks: list[Task]) -> str:
    counts = Counter(t.difficulty for t in tasks)
    by_difficulty = ", ".join(f"{counts[d]} {d}" for d in DIFFICULTIES if counts[d])
    lines = [
        f"{len(tasks)} task{'s' if len(tasks) != 1 else ''}" + (f" ({by_difficulty})." if tasks else "."),
        "",
        "| id | title | category | difficulty | mode/kind | #cases |",
        "|----|-------|----------|------------|-----------|-------:|",
    ]
    for t in sorted(tasks, key=lambda t: t.task_id):
        cells = [f"`{t.task_id}`", title_of(t), ", ".join(t.categories) or "–", t.difficulty,
                 shape_of(t), str(len(t.cases))]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


def splice(readme: str, table: str) -> str:
    """README text with the block between the markers replaced by ``table``."""
    pattern = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.DOTALL)
    if not pattern.search(readme):
        raise ValueError(f"README has no {BEGIN} ... {END} block")
    return pattern.sub(lambda _: f"{BEGIN}\n{table}{END}", readme, count=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", type=Path, default=REPO / "tasks", help="folder of task folders")
    parser.add_argument("--readme", type=Path, default=REPO / "README.md")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--check", action="store_true", help="exit 1 if the README table is stale")
    action.add_argument("--write", action="store_true", help="update the README table in place")
    args = parser.parse_args(argv)

    try:
        tasks = load_tasks(args.tasks) if args.tasks.is_dir() else []
    except TaskError as e:
        print(f"cannot build the table: {e}\n(run `python -m ibench.tasks check {args.tasks}`)", file=sys.stderr)
        return 2
    table = render(tasks)
    if not (args.check or args.write):
        sys.stdout.write(table)
        return 0

    readme = args.readme.read_text(encoding="utf-8")
    try:
        updated = splice(readme, table)
    except ValueError as e:
        print(f"{args.readme}: {e}", file=sys.stderr)
        return 1
    if args.check:
        if updated != readme:
            print(f"{args.readme}: the task table is stale; run `python scripts/task_table.py --write`", file=sys.stderr)
            return 1
        return 0
    if updated != readme:
        args.readme.write_text(updated, encoding="utf-8")
        print(f"{args.readme}: task table updated ({len(tasks)} tasks)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
