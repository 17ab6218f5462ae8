"""``python -m ibench.results show|compare|sample``: look into finished runs without writing polars.

- ``show RUN`` — the run's tables again (from ``summary.json``), with its identity.
- ``compare RUN RUN...`` — models side by side overall, by difficulty, by category and by task,
  on the tasks every run has; each pass@1 difference to the first run with a paired bootstrap
  CI over tasks. Writes ``compare.csv``, ``compare.md`` and ``compare.png`` to ``--out``.
- ``sample RUN TASK [N]`` — one sample: verdict, code, compiler message, and per case the
  verdict, CPU, memory, queries and both transcript tails.
- ``study RUN...`` — the paper's studies (:mod:`ibench.results.study`); ``sweep DIR...`` —
  pass@k against a swept setting (:mod:`ibench.results.sweep`); ``view RUN...`` — the results
  viewer (:mod:`ibench.results.viewer`); ``behaviors RUN... judge_model=...`` — reasoning
  behaviors (:mod:`ibench.results.behaviors`); ``analyse WHAT RUN...``, ``rejudge RUN`` and
  ``familiarity RUN`` — the analyses of runs on disk (:mod:`ibench.results.analyses`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ibench.results.metrics import RunSummary, fmt, paired_bootstrap_diff
from ibench.results.labels import differing, labelled, short as _short
from ibench.results.runlog import ResultsError, RunLog, find_runs, load, parse_result
from ibench.tasks.model import CATEGORIES, DIFFICULTIES


class ReportError(ValueError):
    """Bad input to a report command (printed as one line, exit 2)."""


def _console() -> Console:
    c = Console()
    return c if c.is_terminal else Console(width=170)


def _load_finished(path: str | Path) -> RunLog:
    try:
        r = load(path)
    except ResultsError as e:
        raise ReportError(str(e)) from None
    if not r.summary:
        raise ReportError(f"{path}: no summary.json yet (the run has not finished; its results are in "
                          f"{Path(path) / 'results'})")
    return r


# -- show ---------------------------------------------------------------------------------------------
def show(run_dir: str | Path, console: Console | None = None) -> RunSummary:
    from ibench.results.report import render

    console = console or _console()
    if Path(run_dir).is_dir() and not (Path(run_dir) / "summary.json").exists() and not (Path(run_dir) / "results").is_dir():
        show_many(Path(run_dir), console)  # a folder of runs: list them by identity
        return None  # type: ignore[return-value]
    r = _load_finished(run_dir)
    summary = r.run_summary
    if not summary.cost and (r.run_dir / "results").is_dir():  # a run from before the summary had its cost
        from ibench.results.cost import PriceError, cost_of_log

        try:
            summary.cost = cost_of_log(r)
        except PriceError:
            summary.cost = cost_of_log(r, {})
    ident = r.identity
    console.print(f"[bold]{escape(r.label)}[/bold]  {escape(str(r.run_dir))}", soft_wrap=True)
    if ident.recorded:
        s = ident.sampling
        console.print(f"sampling: {escape(str(s.get('name')))} (n={s.get('n')}, T={s.get('temperature')})   "
                      f"overrides: {escape(' '.join(ident.overrides) or '(none)')}", highlight=False)
    spec = r.spec  # spec.json: what the run is, in full
    keys = spec.get("keys") or {}
    console.print(f"spec: {len(r.task_ids)} task(s), gen key {keys.get('gen_key', '?')}, judge key "
                  f"{keys.get('judge_key', '?')}, code {spec.get('code_version') or 'unknown'}"
                  + ("  (migrated from an older folder)" if spec.get("migrated") else ""), highlight=False)
    render(summary, console)
    return summary


# -- compare ------------------------------------------------------------------------------------------
def _overrides(r: RunLog) -> dict[str, str]:
    """The run's overrides a label may show (ibench.results.labels: measured settings, values
    normalised, never an endpoint or credential)."""
    return labelled(r.identity.overrides)


def _labels(runs: Sequence[RunLog]) -> list[str]:
    """A label per run: its identity label; where two runs share it, the overrides that differ
    among them (short: a path by its last part, a long value cut), then the folder name."""
    labels = [r.label for r in runs]
    groups: dict[str, list[int]] = {}
    for i, lab in enumerate(labels):
        groups.setdefault(lab, []).append(i)
    out = list(labels)
    for lab, idx in groups.items():
        if len(idx) < 2:
            continue
        ov = [_overrides(runs[i]) for i in idx]
        vary = differing(ov)
        for i, o in zip(idx, ov):
            if vary:
                samp = runs[i].identity.sampling
                def value(k: str) -> str:  # an override the run did not give: its recorded value, or the default
                    if k in o:
                        return o[k]
                    return str(samp[k[9:]]) if k.startswith("sampling.") and k[9:] in samp else "default"
                shown = ", ".join(f"{k}={_short(value(k))}" for k in vary)
                out[i] = f"{lab} [{shown}]"
    if len(set(out)) < len(out):  # still equal: the folder names tell them apart
        out = [f"{lab} <{_short(r.run_dir.name, 32)}>" for lab, r in zip(out, runs)]
    return out


def _natural(text: str) -> list[Any]:
    """A sort key that orders the numbers in ``text`` by value (``n=4096`` before ``n=16384``)."""
    import re

    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", text) if p]


def show_many(root: Path, console: Console) -> list[Path]:
    """``show DIR`` on a folder of runs: one line per run by its recorded identity (model,
    language, prompt, n, the overrides that differ between them), its pass@1 and its folder."""
    try:
        paths = find_runs([root])
    except ResultsError as e:
        raise ReportError(str(e)) from None
    runs = [_load_finished(p) for p in paths]
    if not runs:
        raise ReportError(f"{root}: no finished run under it")
    runs.sort(key=lambda r: (r.label, _natural(os.path.relpath(r.run_dir, root))))  # 1024 < 4096 < 16384
    labels = _labels(runs)
    t = Table(title=f"{len(runs)} run(s) under {escape(str(root))}", title_justify="left")
    for c in ("run", "language", "prompt", "n", "tasks", "pass@1", "folder"):
        t.add_column(c, justify="right" if c in ("n", "tasks", "pass@1") else "left", overflow="fold")
    for lab, r in zip(labels, runs):
        ident = r.identity
        s = ident.sampling
        p1 = ((r.summary.get("overall") or {}).get("pass_at") or {}).get("1")
        t.add_row(escape(lab), escape(ident.language), escape(ident.prompt),
                  str(s.get("n", "")), str(r.summary.get("n_tasks", "")), _cell(p1),
                  escape(os.path.relpath(r.run_dir, root)))
    console.print(t)
    console.print("one run's tables: python -m ibench.results show RUN_FOLDER", soft_wrap=True)
    return [r.run_dir for r in runs]


def compare_rows(runs: Sequence[RunLog], resamples: int = 1000, confidence: float = 0.95,
                 seed: int = 0) -> tuple[list[str], list[dict[str, Any]]]:
    """(labels, rows): one row per group (overall, each difficulty, each category, each task)
    with every run's pass@1 on the tasks all runs have, and each run's difference to the first
    with a paired bootstrap interval over those tasks."""
    if len(runs) < 2:
        raise ReportError("compare needs at least two runs")
    labels = _labels(runs)
    per_run = []
    for r in runs:
        tasks = {t["task_id"]: t for t in r.summary.get("tasks", [])
                 if (t.get("pass_at") or {}).get("1") is not None}
        per_run.append(tasks)
    common = sorted(set.intersection(*(set(t) for t in per_run)))
    if not common:
        raise ReportError("the runs have no task with a pass@1 in common")
    info = per_run[0]
    groups: list[tuple[str, str, list[str]]] = [("overall", "all", common)]
    for d in DIFFICULTIES:
        ids = [t for t in common if info[t]["difficulty"] == d]
        if ids:
            groups.append(("difficulty", d, ids))
    cats = [c for c in CATEGORIES if any(c in info[t]["categories"] for t in common)]
    cats += sorted({c for t in common for c in info[t]["categories"]} - set(CATEGORIES))
    for c in cats:
        groups.append(("category", c, [t for t in common if c in info[t]["categories"]]))
    for t in common:
        groups.append(("task", t, [t]))

    rows = []
    for kind, name, ids in groups:
        values = [[float(pr[t]["pass_at"]["1"]) for t in ids] for pr in per_run]
        row: dict[str, Any] = {"group": kind, "name": name, "n_tasks": len(ids)}
        for lab, v in zip(labels, values):
            row[lab] = sum(v) / len(v)
        for lab, v in zip(labels[1:], values[1:]):
            diff, ci = paired_bootstrap_diff(values[0], v, resamples if len(ids) > 1 else 0, confidence, seed)
            row[f"{lab} - {labels[0]}"] = diff
            row[f"{lab} - {labels[0]} ci_low"] = ci[0] if ci else None
            row[f"{lab} - {labels[0]} ci_high"] = ci[1] if ci else None
        rows.append(row)
    return labels, rows


def task_set_note(runs: Sequence[RunLog], labels: Sequence[str], common: int) -> str | None:
    """What a comparison on the common tasks left out, per run (None: every run has them all)."""
    sizes = [len({t["task_id"] for t in r.summary.get("tasks") or []}) for r in runs]
    extra = [(lab, n - common) for lab, n in zip(labels, sizes) if n > common]
    if not extra:
        return None
    return (f"restricted to the {common} task(s) every run has; left out: "
            + "; ".join(f"{lab}: {n} more" for lab, n in extra))


def _cell(v: Any, signed: bool = False) -> str:
    if v is None:
        return "—"
    return f"{v:+.3f}" if signed else fmt(v)


def compare(run_dirs: Sequence[str | Path], out: str | Path | None = None, resamples: int = 1000,
            confidence: float = 0.95, console: Console | None = None) -> dict[str, Path]:
    console = console or _console()
    runs = [_load_finished(d) for d in run_dirs]
    labels, rows = compare_rows(runs, resamples, confidence)
    out_dir = Path(out) if out else Path(os.path.commonpath([str(r.run_dir.resolve()) for r in runs])) / "compare_report"
    out_dir.mkdir(parents=True, exist_ok=True)
    base = labels[0]
    pct = int(confidence * 100)

    # On a narrow terminal the columns are named by letter, the runs listed above the table.
    need = 24 + sum(max(8, len(lab) + 2) for lab in labels) + 26 * (len(labels) - 1)
    heads = labels
    if console.width < need:
        heads = [chr(ord("A") + i) if i < 26 else str(i) for i in range(len(labels))]
        for h, lab, r in zip(heads, labels, runs):
            console.print(f"{h} = {escape(lab)}  ({escape(str(r.run_dir))})", soft_wrap=True, highlight=False)
    table = Table(title=f"pass@1 side by side on {rows[0]['n_tasks']} common task(s); differences to "
                        f"{escape(heads[0])} with {pct}% paired bootstrap CI over tasks", title_justify="left")
    table.add_column("group", overflow="fold")
    table.add_column("tasks", justify="right")
    for h in heads:
        table.add_column(escape(h), justify="right")
    for h in heads[1:]:
        table.add_column(escape(f"Δ {h}"), justify="right")
    for row in rows:
        cells = [_cell(row[lab]) for lab in labels]
        for lab in labels[1:]:
            k = f"{lab} - {base}"
            ci = "" if row[f"{k} ci_low"] is None else f" [{row[f'{k} ci_low']:+.3f}, {row[f'{k} ci_high']:+.3f}]"
            cells.append(_cell(row[k], signed=True) + ci)
        name = row["name"] if row["group"] != "overall" else "Overall"
        table.add_row(escape(f"{row['group']}: {name}" if row["group"] != "overall" else name),
                      str(row["n_tasks"]), *cells)
    note = task_set_note(runs, labels, rows[0]["n_tasks"])
    table.caption = escape(note) if note else None
    console.print(table)

    import csv

    csv_path, md_path = out_dir / "compare.csv", out_dir / "compare.md"
    with open(csv_path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    head = ["group", "name", "tasks", *labels, *[f"Δ {lab}" for lab in labels[1:]]]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        diffs = []
        for lab in labels[1:]:
            k = f"{lab} - {base}"
            ci = "" if row[f"{k} ci_low"] is None else f" [{row[f'{k} ci_low']:+.3f}, {row[f'{k} ci_high']:+.3f}]"
            diffs.append(_cell(row[k], signed=True) + ci)
        lines.append("| " + " | ".join([row["group"], row["name"], str(row["n_tasks"]),
                                        *[_cell(row[lab]) for lab in labels], *diffs]) + " |")
    md_path.write_text("\n".join(([f"Note: {note}", ""] if note else []) + lines) + "\n")
    png = _plot(labels, [r for r in rows if r["group"] != "task"], out_dir / "compare.png", pct)
    console.print(f"wrote {png}, {csv_path}, {md_path}", soft_wrap=True)
    return {"png": png, "csv": csv_path, "md": md_path}


def _plot(labels: list[str], rows: list[dict[str, Any]], path: Path, pct: int) -> Path:
    """compare.png/.pdf: pass@1 per group (left) and each run's difference to the first (right,
    only with a difference to draw); legends under the panels, wrapped."""
    from ibench.results.figstyle import panels, save_figure, title, wrap

    n_panels = 2 if len(labels) > 1 else 1
    fig, axes = panels(n_panels, panel_size=(max(4.8, 0.5 * len(rows) * len(labels) + 2), 4.4), max_columns=2)
    names = ["Overall" if r["group"] == "overall" else r["name"] for r in rows]
    width = 0.8 / len(labels)
    for j, lab in enumerate(labels):
        axes[0].bar([i + j * width for i in range(len(rows))], [r[lab] for r in rows], width, label=lab)
    axes[0].set_xticks([i + width * (len(labels) - 1) / 2 for i in range(len(rows))])
    axes[0].set_xticklabels(names, rotation=30, ha="right")
    axes[0].set_ylim(0, 1)
    axes[0].set_ylabel("pass@1")
    handles, names_ = axes[0].get_legend_handles_labels()
    fig.legend(handles, [wrap(n, 60) for n in names_], fontsize=7, loc="outside lower center",
               ncol=1 if len(labels) > 2 else len(labels))  # one legend: each run's colour in both panels
    title(axes[0], "pass@1 on the common tasks")
    if n_panels == 2:
        base = labels[0]
        for j, lab in enumerate(labels[1:]):
            k = f"{lab} - {base}"
            ys = [r[k] for r in rows]
            lo = [r[k] - (r[f"{k} ci_low"] if r[f"{k} ci_low"] is not None else r[k]) for r in rows]
            hi = [(r[f"{k} ci_high"] if r[f"{k} ci_high"] is not None else r[k]) - r[k] for r in rows]
            axes[1].errorbar([i + 0.1 * j for i in range(len(rows))], ys, yerr=[lo, hi], fmt="o", capsize=3,
                             color=f"C{j + 1}")
        axes[1].axhline(0, color="grey", lw=0.8)
        axes[1].set_xticks(range(len(rows)))
        axes[1].set_xticklabels(names, rotation=30, ha="right")
        axes[1].set_ylabel("Δ pass@1")
        title(axes[1], f"difference to the first run, {pct}% paired bootstrap CI")
    return save_figure(fig, path.parent, path.stem)[0]


# -- sample -------------------------------------------------------------------------------------------
def sample(run_dir: str | Path, task: str, index: int = 0, console: Console | None = None,
           tail_chars: int = 600, round_: int | None = None, full: bool = False) -> dict[str, Any]:
    """Print one sample of a run — with refinement rounds, round ``round_`` of it (default: its
    last): verdict, code, compiler message, cases, the reasoning, the answer and the failing
    case's exchange turn by turn (:mod:`ibench.results.sample_view`); returns what was printed
    as a dict (tests, scripting)."""
    from rich.syntax import Syntax

    import polars as pl

    console = console or _console()
    try:
        r = load(run_dir)
    except ResultsError as e:
        raise ReportError(str(e)) from None
    s, v, c = r.current()
    tasks = sorted(set(s["task_id"].to_list()))
    if task not in tasks:
        raise ReportError(f"task {task!r} has no sample in {run_dir}; tasks: {', '.join(tasks) or 'none'}")
    srows = s.filter(pl.col("task_id") == task).sort("sample_index")
    indices = sorted(set(srows["sample_index"].to_list()))
    if index not in indices:
        raise ReportError(f"{task} has no sample {index}; samples: {', '.join(map(str, indices))}")
    chain = srows.filter(pl.col("sample_index") == index).with_columns(pl.col("round").fill_null(1)).sort("round")
    rounds = chain["round"].to_list()
    want = rounds[-1] if round_ is None else round_
    if want not in rounds:
        raise ReportError(f"{task} sample {index} has no round {want}; rounds: {', '.join(map(str, rounds))}")
    srow = chain.filter(pl.col("round") == want).row(0, named=True)
    vrows = v.filter(pl.col("sample_id") == srow["sample_id"])
    vrow = vrows.row(0, named=True) if vrows.height else None
    result = parse_result(vrow["result_json"], vrow["verdict"]) if vrow else None
    compile_info = result.to_dict(full=True)["compile"] if result else {}
    cases = c.filter(pl.col("sample_id") == srow["sample_id"]).sort("case") if vrow else c.clear()

    verdict = vrow["verdict"] if vrow else "(not judged yet)"
    colour = "green" if verdict == "OK" else "red"
    where = f" round {want} of {len(rounds)}" if len(rounds) > 1 else ""
    console.print(f"[bold]{escape(task)}[/bold] sample {index} of {len(indices)}{where}  verdict: [bold {colour}]"
                  f"{escape(verdict)}[/]" + (f"  score: {vrow['score']:g}" if vrow and vrow["score"] is not None else "")
                  + (f"   ({escape(vrow['message'])})" if vrow and vrow["message"] else ""), highlight=False)
    details = [f"model: {srow['model']}", f"finish: {srow['finish_reason']}", f"tokens: {srow['completion_tokens']}"]
    if srow["source"]:
        details.append(f"replayed: {srow['source']}")
    if srow["error"]:
        details.append(f"generation failed: {srow['error']}")
    console.print(escape("   ".join(details)), highlight=False)
    if srow["code"]:
        console.print(Syntax(srow["code"], "cpp" if srow["language"] == "cpp" else srow["language"],
                             line_numbers=True, word_wrap=True))
    else:
        console.print(f"no code: {escape(srow['extract_error'] or 'no code block')}")
    if compile_info:
        state = "ok" if compile_info.get("ok") else "failed"
        console.print(f"compile: {state} in {compile_info.get('ms', 0):.0f} ms", highlight=False)
        if compile_info.get("message"):
            console.print(compile_info["message"].rstrip()[-4000:], markup=False, highlight=False)
    if cases.height:
        t = Table(title="cases", title_justify="left")
        for col in ("case", "verdict", "cpu ms", "peak KB", "queries", "solver", "interactor/checker", "message"):
            t.add_column(col, overflow="fold", max_width=60 if col == "message" else None)
        for row in cases.iter_rows(named=True):
            q = "" if row["queries"] is None else f"{row['queries']}/{row['query_limit'] if row['query_limit'] is not None else '?'}"
            st = "green" if row["verdict"] == "OK" else "red"
            t.add_row(escape(row["case"]), f"[{st}]{escape(row['verdict'])}[/]", f"{row['cpu_ms']:.0f}",
                      str(row["peak_kb"]), q, escape(row["solver_exit"] or ""), escape(row["interactor_exit"] or ""),
                      escape((row["message"] or "")[:200]))
        console.print(t)
        failing = [row for row in cases.iter_rows(named=True) if row["verdict"] != "OK"][:3]
        shown = failing or [cases.row(cases.height - 1, named=True)]
        for row in shown:
            for key, title in (("solver_to_judge_tail", "solver → judge"), ("judge_to_solver_tail", "judge → solver"),
                               ("solver_stderr_tail", "solver stderr")):
                text = (row[key] or "")[-tail_chars:]
                if text or key != "solver_stderr_tail":
                    console.print(f"[bold]case {escape(row['case'])} {title}[/bold] (last {len(text)} chars):")
                    console.print(text or "(empty)", markup=False, highlight=False)
    from ibench.results.sample_view import print_extras

    extras = print_extras(console, srow, cases, chars=0 if full else 1500)
    return {"task": task, "index": index, "verdict": verdict, "code": srow["code"], "compile": compile_info,
            "cases": cases.to_dicts() if cases.height else [], **extras}
