"""The run's report: rich tables in the shape of InteractBench's Tables 2–4, summary files and plots.

Commands (``python -m ibench.results``): ``show RUN``, ``compare RUN RUN...``, ``sample RUN TASK [N]``
(:mod:`ibench.results.runs`), ``sweep DIR...`` (:mod:`ibench.results.sweep`) and ``study RUN...``
(:mod:`ibench.results.study`).

Files written under the run folder::

    summary.json            the whole RunSummary
    summary.csv / .parquet  long format: group, name, k, pass@k, CI, tasks
    per_task.csv / .parquet one row per task: n, c, pass@k, verdict counts
    failures.csv            the failing samples, one row each: task, sample, round, verdict, message,
                            failing case, compiler message, sample id (the store's current keys)
    failure_composition.csv failure composition (label, count, fraction), then a row SE with the judge
                            errors' count (counted as failed in pass@k, not part of the fractions)
    refine.csv              with refinement rounds: refine@k and the still-unsolved's failures per round
    cost.csv                what the run spent (ibench.results.cost): one row per figure, its total, per
                            sample and per solved task (also in summary.json ``cost``)
    plots/pass_at_k_by_difficulty.png|.pdf, plots/failure_composition.png|.pdf (figstyle)

Tables and figures show only what has data: no pass@k with k above the samples per task, no
difficulty without a task.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

import polars as pl
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ibench.judge.verdict import FAILURE_LABELS
from ibench.results.metrics import GroupMetric, RunSummary, fmt
from ibench.tasks.model import CATEGORIES, DIFFICULTIES


def summary_rows(s: RunSummary) -> list[dict[str, Any]]:
    rows = []
    for g in [s.overall, *s.by_difficulty, *s.by_category]:
        for k in s.ks:
            ci = g.ci.get(k)
            rows.append({"model": s.model, "group": g.group, "name": g.name, "k": k,
                         "pass_at_k": g.pass_at.get(k), "ci_low": ci[0] if ci else None,
                         "ci_high": ci[1] if ci else None, "n_tasks": g.tasks_at.get(k, 0)})
    return rows


def per_task_rows(s: RunSummary) -> list[dict[str, Any]]:
    rows = []
    for t in s.tasks:
        row: dict[str, Any] = {"task_id": t.task_id, "difficulty": t.difficulty,
                               "categories": ", ".join(t.categories), "n": t.n, "c": t.c,
                               "judge_errors": t.judge_errors, "date": t.date}
        for k in s.ks:
            row[f"pass@{k}"] = t.pass_at.get(k)
        for label in ["OK", *[v.value for v in FAILURE_LABELS], "SE"]:
            row[label] = t.verdicts.get(label, 0)
        rows.append(row)
    return rows


def write_files(s: RunSummary, out_dir: str | Path, plots: bool = True) -> dict[str, Path]:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files = {"summary_json": out / "summary.json", "summary_csv": out / "summary.csv",
             "summary_parquet": out / "summary.parquet", "per_task_csv": out / "per_task.csv",
             "per_task_parquet": out / "per_task.parquet", "failures_csv": out / "failures.csv",
             "failure_composition_csv": out / "failure_composition.csv"}
    files["summary_json"].write_text(json.dumps(s.to_dict(), indent=2, default=str) + "\n")
    summary = pl.DataFrame(summary_rows(s), schema={"model": pl.String, "group": pl.String, "name": pl.String,
                                                    "k": pl.Int64, "pass_at_k": pl.Float64, "ci_low": pl.Float64,
                                                    "ci_high": pl.Float64, "n_tasks": pl.Int64})
    summary.write_csv(files["summary_csv"])
    summary.write_parquet(files["summary_parquet"])
    tasks = pl.DataFrame(per_task_rows(s), infer_schema_length=None)
    tasks.write_csv(files["per_task_csv"])
    tasks.write_parquet(files["per_task_parquet"])
    pl.DataFrame({"label": [*s.failure_composition, "SE"],
                  "count": [*(s.failure_counts[k] for k in s.failure_composition), s.n_judge_errors],
                  "fraction": [*s.failure_composition.values(), None]},
                 schema={"label": pl.String, "count": pl.Int64, "fraction": pl.Float64}
                 ).write_csv(files["failure_composition_csv"])
    failing_samples(out).write_csv(files["failures_csv"])
    if s.cost:
        from ibench.results.cost import TOTALS

        files["cost_csv"] = out / "cost.csv"
        pl.DataFrame([{"figure": k, "total": s.cost.get(k), "per_sample": s.cost.get(f"{k}/sample"),
                       "per_solved_task": s.cost.get(f"{k}/solved_task")} for k in TOTALS if s.cost.get(k) is not None],
                     schema={"figure": pl.String, "total": pl.Float64, "per_sample": pl.Float64,
                             "per_solved_task": pl.Float64}).write_csv(files["cost_csv"])
    if s.refine:
        files["refine_csv"] = out / "refine.csv"
        pl.DataFrame(s.refine, infer_schema_length=None).write_csv(files["refine_csv"])
    if plots:
        files.update(write_plots(s, out / "plots"))
    return files


FAILURE_COLUMNS = {"task_id": pl.String, "sample_index": pl.Int64, "round": pl.Int64, "verdict": pl.String,
                   "message": pl.String, "failing_case": pl.String, "compile_message": pl.String,
                   "sample_id": pl.String}


def failing_samples(run_dir: Path) -> pl.DataFrame:
    """The run's failing samples (every verdict but OK, judge errors included), one row each;
    empty (with its columns) for a folder without a results store."""
    from ibench.results.runlog import RunLog

    empty = pl.DataFrame(schema=FAILURE_COLUMNS)
    if not (Path(run_dir) / "results").is_dir():
        return empty
    table = RunLog.open(run_dir).sample_table()
    return (table.filter(pl.col("verdict") != "OK")
            .select([pl.col(c).cast(t) for c, t in FAILURE_COLUMNS.items()]))


def shown_ks(s: RunSummary) -> list[int]:
    """The k of pass@k with a value (a k above the samples per task has none), at least one."""
    return [k for k in s.ks if s.overall.pass_at.get(k) is not None] or s.ks[:1]


def write_plots(s: RunSummary, out_dir: Path) -> dict[str, Path]:
    from ibench.results.figstyle import panels, save_figure, title

    files = {}
    ks = shown_ks(s)
    groups = [*(g for g in s.by_difficulty if g.n_tasks), s.overall]
    fig, (ax,) = panels(1, panel_size=(6.4, 4.0))
    width = 0.8 / max(1, len(ks))
    for j, k in enumerate(ks):
        xs = [i + j * width for i in range(len(groups))]
        ys = [g.pass_at.get(k) or 0.0 for g in groups]
        errs = [[(g.pass_at.get(k) or 0) - (ci[0] if (ci := g.ci.get(k)) else (g.pass_at.get(k) or 0)) for g in groups],
                [(ci[1] if (ci := g.ci.get(k)) else (g.pass_at.get(k) or 0)) - (g.pass_at.get(k) or 0) for g in groups]]
        ax.bar(xs, ys, width, yerr=errs, capsize=3, label=f"pass@{k}")
    ax.set_xticks([i + width * (len(ks) - 1) / 2 for i in range(len(groups))])
    ax.set_xticklabels([g.name if g.group != "overall" else "Overall" for g in groups])
    ax.set_ylim(0, 1)
    ax.set_ylabel("pass@k")
    title(ax, f"{s.model}: pass@k by difficulty ({int(s.confidence * 100)}% bootstrap CI)")
    ax.legend()
    files["pass_at_k_by_difficulty"] = save_figure(fig, out_dir, "pass_at_k_by_difficulty")[0]

    if s.n_failed:  # no panel without data
        fig, (ax,) = panels(1, panel_size=(6.4, 4.0))
        labels = list(s.failure_composition)
        ax.bar(labels, [s.failure_composition[k] for k in labels], color="tab:red")
        ax.set_ylim(0, 1)
        ax.set_ylabel("fraction of failed samples")
        title(ax, f"{s.model}: failure composition (n = {s.n_failed} failed)")
        files["failure_composition"] = save_figure(fig, out_dir, "failure_composition")[0]
    return files


def _cells(g: GroupMetric | None, ks: list[int]) -> list[str]:
    return [fmt(g.pass_at.get(k)) if g else "—" for k in ks]


def _fits(console: Console, table: Table) -> bool:
    """The table at its natural width fits the console (rich would otherwise shrink its
    columns and cut their numbers to ``0…``)."""
    from rich.measure import Measurement

    unbounded = console.options.update(width=10_000, max_width=10_000)  # (measured at most the width given)
    return Measurement.get(console, unbounded, table).maximum <= console.width


def _number_column(t: Table, name: str) -> None:
    """A right-aligned column whose cells are never cut: a number that cannot fit folds."""
    t.add_column(name, justify="right", overflow="fold")


def _titled(title: str, table: Table) -> Group:
    """A folded (narrow) table with its title on a line of its own above it, wrapped at the
    console's width between words rather than at the table's."""
    return Group(Text.from_markup(title, style="table.title"), table)


def _wide(console: Console, title: str, heads: list[str], rows: list[list[str]]) -> Table | None:
    """The paper's shape: one row per model, ``heads[0]`` over the row labels, one column per
    (group, k); None when it does not fit the console."""
    wide = Table(title=title, title_justify="left")
    wide.add_column(heads[0])
    for h in heads[1:]:
        _number_column(wide, h)
    for r in rows:
        wide.add_row(*r)
    return wide if _fits(console, wide) else None


def _wide_or_folded(console: Console, title: str, heads: list[str], rows: list[list[str]]) -> RenderableType:
    """:func:`_wide` when it fits, else the same cells folded: one row per column of the wide
    table (its head on one line), one column per row of it."""
    wide = _wide(console, title, heads, rows)
    if wide is not None:
        return wide
    folded = Table()
    folded.add_column("")
    for r in rows:
        _number_column(folded, r[0])
    for i, h in enumerate(heads[1:], start=1):
        folded.add_row(h.replace("\n", " "), *[r[i] for r in rows])
    return _titled(title, folded)


def _by_group(console: Console, title: str, model: str, names: list[str], groups: dict[str, GroupMetric],
              ks: list[int], extra: Sequence[tuple[str, GroupMetric]] = (), counts: bool = True) -> RenderableType:
    """pass@k per group (difficulty, category): the wide shape (a column per group and k) when it
    fits, else one row per group with a column per k and the group's task count."""
    heads = ["Model", *[f"{n}\npass@{k}" for n in names for k in ks], *[f"{n}\npass@{k}" for n, _ in extra for k in ks]]
    rows = [[model, *[c for n in names for c in _cells(groups.get(n), ks)], *[c for _, g in extra for c in _cells(g, ks)]]]
    if counts:
        rows.append(["[dim]tasks[/dim]", *[f"[dim]n={groups[n].n_tasks}[/dim]" if n in groups else "" for n in names
                                            for _ in ks],
                     *[f"[dim]n={g.n_tasks}[/dim]" for _, g in extra for _ in ks]])
    wide = _wide(console, title, heads, rows)
    if wide is not None:
        return wide
    t = Table()
    t.add_column("")
    for k in ks:
        _number_column(t, f"pass@{k}")
    _number_column(t, "tasks")
    for n in names:
        g = groups.get(n)
        t.add_row(n, *_cells(g, ks), str(g.n_tasks) if g else "")
    for n, g in extra:
        t.add_row(f"[bold]{n}[/bold]", *_cells(g, ks), str(g.n_tasks))
    return _titled(f"{title} — {model}", t)


def render_refine(rows: list[dict[str, Any]], console: Console, title: str) -> None:
    """InteractBench Table 11's shape: one row per round (folded to one row per column when it
    does not fit the console)."""
    labels = [v for v in [*(x.value for x in FAILURE_LABELS), "SE"] if any(r.get(v) for r in rows)]
    cells = [[f"r{r['round']}", *[fmt(r.get(label)) for label in labels], str(r.get("n_unsolved", "")),
              f"[bold]{fmt(r.get('refine@k'))}[/bold]"] for r in rows]
    console.print(_wide_or_folded(console, title, ["round", *labels, "unsolved", "refine@k"], cells))


def render_cost(cost: dict[str, Any], console: Console, model: str) -> None:
    """What the run spent (:mod:`ibench.results.cost`): one row per figure that has a value."""
    from ibench.results.cost import cost_lines

    rows = cost_lines(cost)
    if not rows:
        return
    solved = cost.get("solved_tasks", 0)
    console.print(_wide_or_folded(
        console, f"Cost — {model}: {cost.get('samples', 0)} samples, {cost.get('judged', 0)} judged, "
                 f"{solved} solved task(s)", ["", "total", "per sample", "per solved task"],
        [[escape(r[0]), *r[1:]] for r in rows]))


def render(s: RunSummary, console: Console | None = None) -> None:
    """Print the run's tables (InteractBench Tables 2, 3 and 4, one row: this model). A table
    wider than the console is folded (one row per group) rather than shrunk: no number is cut."""
    console = console or Console()
    ks = shown_ks(s)
    model = escape(s.model)
    kind = "reasoning" if s.meta.get("reasoning") else "non-reasoning"

    se = f" ({s.n_judge_errors} SE, counted as failed)" if s.n_judge_errors else ""
    diff = {g.name: g for g in s.by_difficulty}
    console.print(_by_group(console, f"pass@k by difficulty — {s.n_tasks} tasks, {s.n_samples} samples{se}",
                            f"{model} ({kind})", [d for d in DIFFICULTIES if d in diff and diff[d].n_tasks], diff, ks,
                            extra=[("Overall", s.overall)]))

    cis = [f"pass@{k} = {fmt(s.overall.pass_at.get(k))} "
           f"[{fmt(ci[0]) if (ci := s.overall.ci.get(k)) else '—'}, "
           f"{fmt(ci[1]) if ci else '—'}]" for k in ks]
    head = f"Overall {int(s.confidence * 100)}% bootstrap CI over tasks:"
    line = f"{head} {'  '.join(cis)}"
    if len(line) <= console.width:
        console.print(escape(line), highlight=False)
    else:  # one k a line rather than a wrap inside one
        console.print("\n".join([head, *(f"  {c}" for c in cis)]), markup=False, highlight=False)

    if s.by_category:
        cats = {g.name: g for g in s.by_category}
        names = [c for c in CATEGORIES if c in cats] + [c for c in cats if c not in CATEGORIES]
        console.print(_by_group(console, "pass@k by category (multi-label)", model, names, cats, ks, counts=False))

    labels = list(s.failure_composition)
    console.print(_wide_or_folded(
        console, f"Failure composition over {s.n_failed} failed samples", ["Model", *labels],
        [[model, *[fmt(v) for v in s.failure_composition.values()]],
         ["[dim]count[/dim]", *[f"[dim]{s.failure_counts[k]}[/dim]" for k in labels]]]))
    console.print(f"judge errors (SE, counted as failed in pass@k, not in the composition): {s.n_judge_errors}",
                  style="bold red" if s.n_judge_errors else "dim", highlight=False)

    if s.cost:
        render_cost(s.cost, console, model)

    if s.refine:
        render_refine(s.refine, console, f"Iterative refinement: refine@k and the failure composition of the "
                                         f"still-unsolved, round by round — {model}")

    if s.n_judge_errors:
        console.print(Panel(f"[bold]{s.n_judge_errors} sample(s) stayed a JUDGE ERROR (SE)[/bold] after re-judging "
                            "and count as failed samples in every pass@k above (never dropped). Find the harness "
                            "or task bug, fix it and re-judge.",
                            title="JUDGE ERRORS", border_style="bold red"))
    for w in s.warnings:
        if "JUDGE ERROR" not in w:
            console.print(f"[yellow]warning:[/yellow] {escape(w)}")

