"""What ``results sample`` shows besides the code and the cases: the model's reasoning and
answer, the case's exchange turn by turn, and the run's samples listed by verdict
(``results sample RUN --list [--verdict WA]``)."""

from __future__ import annotations

import json
from typing import Any

import polars as pl
from rich.console import Console
from rich.markup import escape
from rich.table import Table


def _cut(text: str, chars: int) -> tuple[str, str]:
    """(the text's last ``chars`` characters, a note when it was cut)."""
    if chars <= 0 or len(text) <= chars:
        return text, ""
    return text[-chars:], f" (last {chars} of {len(text)} chars; --full for all)"


def turns(transcript_json: str | None) -> list[dict[str, Any]]:
    """A case's recorded exchange (the cases table's ``transcript``): a list of turns."""
    if not transcript_json:
        return []
    try:
        got = json.loads(transcript_json)
    except ValueError:
        return []
    return got if isinstance(got, list) else []


def print_extras(console: Console, srow: dict[str, Any], cases: pl.DataFrame, chars: int = 1500,
                 max_turns: int = 60) -> dict[str, Any]:
    """Print the sample's reasoning, its answer and the turn-by-turn exchange of its first
    failing case (else its last); returns them."""
    reasoning, note = _cut(srow.get("reasoning") or "", chars)
    console.print(f"[bold]reasoning[/bold]{escape(note)}:" if reasoning else "[bold]reasoning:[/bold] (none recorded)")
    if reasoning:
        console.print(reasoning, markup=False, highlight=False)
    answer, note = _cut(srow.get("response") or "", chars)
    console.print(f"[bold]answer[/bold]{escape(note)}:" if answer else "[bold]answer:[/bold] (empty)")
    if answer:
        console.print(answer, markup=False, highlight=False)
    shown: dict[str, Any] = {"reasoning": srow.get("reasoning") or "", "answer": srow.get("response") or "",
                             "transcript": [], "transcript_case": None}
    if not cases.height or "transcript" not in cases.columns:
        return shown
    failing = cases.filter(pl.col("verdict") != "OK")
    row = (failing if failing.height else cases).row(0 if failing.height else cases.height - 1, named=True)
    exchange = turns(row.get("transcript"))
    shown.update(transcript=exchange, transcript_case=row["case"])
    if not exchange:
        console.print(f"[bold]case {escape(row['case'])} turn by turn:[/bold] (no transcript recorded; "
                      "judge.transcript_bytes)")
        return shown
    t = Table(title=f"case {row['case']} turn by turn ({len(exchange)} turns)", title_justify="left")
    for col in ("#", "who", "ms", "text"):
        t.add_column(col, overflow="fold", justify="right" if col in ("#", "ms") else "left")
    for i, turn in enumerate(exchange[:max_turns]):
        if turn.get("who") == "cut":
            t.add_row(str(i), "…", "", f"[dim]{turn.get('cut', '?')} bytes, {turn.get('turns', '?')} turns not kept[/dim]")
            continue
        t.add_row(str(i), escape(str(turn.get("who", ""))), f"{turn.get('t_ms', 0):.1f}",
                  escape(str(turn.get("text", "")).rstrip("\n")))
    if len(exchange) > max_turns:
        t.add_row("", "", "", f"[dim]{len(exchange) - max_turns} more turns[/dim]")
    console.print(t)
    return shown


def list_samples(run_dir: Any, verdict: str | None = None, console: Console | None = None) -> list[dict[str, Any]]:
    """One line per judged sample (task, index, round, verdict, failing case, message), those of
    ``verdict`` only when given (``fail``: every verdict but OK); returns the rows."""
    from ibench.results.runlog import RunLog

    console = console or Console()
    table = RunLog.open(run_dir).sample_table()
    counts = table.group_by("verdict").len().sort("verdict")
    if verdict:
        want = verdict.upper()
        table = table.filter(pl.col("verdict") != "OK") if want == "FAIL" else table.filter(pl.col("verdict") == want)
    rows = table.select("task_id", "sample_index", "round", "verdict", "failing_case", "message").to_dicts()
    t = Table(title=f"{len(rows)} sample(s)" + (f" with verdict {verdict}" if verdict else "") + "  — "
              + ", ".join(f"{r['verdict']}: {r['len']}" for r in counts.to_dicts()), title_justify="left")
    for col in ("task", "sample", "round", "verdict", "failing case", "message"):
        t.add_column(col, overflow="fold", max_width=70 if col == "message" else None)
    for r in rows:
        t.add_row(escape(r["task_id"]), str(r["sample_index"]), str(r["round"]), escape(r["verdict"]),
                  escape(r["failing_case"] or ""), escape((r["message"] or "")[:200]))
    console.print(t)
    console.print("one sample: python -m ibench.results sample RUN TASK INDEX", soft_wrap=True)
    return rows
