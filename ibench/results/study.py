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
- **Batch vs interactive** (paper C.1, Table 9): runs of the same model, language and prompt
  that differ by variant (``meta.identity.variant``, default interactive) — one row per run:
  pass@1 on the tasks both have, and the failure composition of their unsuccessful executions
  on those tasks (WA PE QLE IDLE CE RE TLE MLE). ``batch_vs_interactive.csv`` / ``.png``.

Refinement rounds are read from the run's verdicts (``sampling.refine_rounds``): their
``round`` (1 = the first attempt) and ``sample_index``, which a sample's rounds share. A run
with no round above 1 has no refinement data, and the two refinement sections stay out.
"""

from __future__ import annotations

import argparse
import csv
import datetime as _dt
import json
import os
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Iterable, Sequence

from ibench.judge.verdict import FAILURE_LABELS
from ibench.results.metrics import refine_rounds, refine_rows

FAILURES = [v.value for v in FAILURE_LABELS]


class StudyError(ValueError):
    """Bad input to the study report (printed as one line, exit 2)."""


# -- time splits (C.3) --------------------------------------------------------------------------------
def year_of(value: Any) -> int | None:
    """The release year of a date given as a ``datetime.date``, ``"YYYY-MM-DD"`` or a year."""
    if value is None:
        return None
    if isinstance(value, _dt.date):
        return value.year
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value).strip()
    try:
        return _dt.date.fromisoformat(text).year
    except ValueError:
        if text.isdigit() and len(text) == 4:
            return int(text)
    raise StudyError(f"{value!r} is not a release date; expected YYYY-MM-DD")


def time_splits(tasks: Iterable[tuple[Any, float | None]], years: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """For each cut year Y: mean pass@1 of the tasks released before Y and from Y on.

    ``tasks`` holds (release date or year, pass@1) per task; tasks without a date or without a
    pass@1 are left out. ``years`` defaults to every year from the earliest to the latest
    release (at the first, the pre set is empty: its mean is None)."""
    dated = [(year_of(d), float(p)) for d, p in tasks if d is not None and p is not None]
    if not dated:
        return []
    if years is None:
        lo, hi = min(y for y, _ in dated), max(y for y, _ in dated)
        years = list(range(lo, hi + 1))
    rows = []
    for cut in years:
        pre = [p for y, p in dated if y < cut]
        post = [p for y, p in dated if y >= cut]
        rows.append({"cut_year": int(cut), "n_pre": len(pre), "pass@1_pre": sum(pre) / len(pre) if pre else None,
                     "n_post": len(post), "pass@1_post": sum(post) / len(post) if post else None})
    return rows


# -- runs ----------------------------------------------------------------------------------------------
@dataclass
class StudyRun:
    run_dir: Path
    label: str  # the model (identity label)
    language: str
    prompt: str
    tasks: dict[str, dict[str, Any]]  # task id -> summary.json task (pass_at, date, ...)
    ks: list[int]
    undated: int = 0
    refine_rows: list[dict[str, Any]] = field(default_factory=list)  # per judged sample: task, chain, round, verdict
    variant: str = "interactive"  # interactive | batch (InteractBench C.1)
    other: dict[str, str] = field(default_factory=dict)  # what else the run was made with (n, budget, tasks, ...)

    @cached_property
    def refine(self) -> list[dict[str, Any]]:
        """refine_rounds() rows over all its tasks; [] without rounds."""
        return refine_rounds(self.refine_rows)

    def refine_at(self, k: int, tasks: Sequence[str] | None = None) -> float | None:
        """refine@k over ``tasks`` (default: all); None when the run did not go to round k."""
        keep = None if tasks is None else set(tasks)
        rows = [r for r in self.refine_rows if keep is None or r["task_id"] in keep]
        at = [x for x in refine_rounds(rows) if x["round"] == k]
        return at[0]["refine@k"] if at else None

    @property
    def setting(self) -> str:
        return "refine" if self.refine else self.prompt

    def pass_at(self, task_id: str, k: int) -> float | None:
        """pass@k of a task: as the launch stored it, else computed from its stored samples (its
        n and c, the same unbiased estimator); None where the task has fewer than k samples."""
        t = self.tasks[task_id]
        stored = t.get("pass_at") or {}
        v = stored.get(str(k))
        if v is None and str(k) not in stored and t.get("n") is not None and t.get("c") is not None:
            from ibench.results.metrics import pass_at_k

            v = pass_at_k(int(t["n"]), int(t["c"]), int(k))
        return None if v is None else float(v)

    @property
    def rounds(self) -> int:
        return max((int(r["round"]) for r in self.refine_rows), default=1)


def find_runs(dirs: Sequence[str | Path]) -> list[Path]:
    from ibench.results.reader import ResultsError, find_runs as find

    try:
        return find(dirs)
    except ResultsError as e:
        raise StudyError(str(e)) from None


def _task_dates(summary: dict[str, Any]) -> dict[str, str]:
    """Release dates of a run that predates dates in summary.json: read from the task cards in
    the run's tasks folder, where it still exists."""
    root = Path(str((summary.get("meta") or {}).get("tasks_dir") or ""))
    out = {}
    if not root.is_dir():
        return out
    for t in summary.get("tasks", []):
        card = root / t["task_id"] / "meta.json"
        if card.is_file():
            try:
                date = json.loads(card.read_text()).get("date")
            except ValueError:
                continue
            if isinstance(date, str):
                out[t["task_id"]] = date
    return out


def _rounds(run_dir: Path) -> list[dict[str, Any]]:
    """One row per judged sample of a run (task, chain, round, verdict) for the refinement
    tables; [] when no sample has a round above 1."""
    from ibench.results.reader import load

    _, v, _ = load(run_dir).current()
    rows = refine_rows(v)
    return rows if any(r["round"] > 1 for r in rows) else []


def load_run(run_dir: Path) -> StudyRun:
    summary_path = run_dir / "summary.json"
    try:
        summary = json.loads(summary_path.read_text())
    except ValueError as e:
        raise StudyError(f"{summary_path}: not JSON ({e})") from None
    ident = (summary.get("meta") or {}).get("identity") or {}
    config = {}
    if (run_dir / "config.resolved.yaml").is_file():
        from omegaconf import OmegaConf

        config = OmegaConf.to_container(OmegaConf.load(run_dir / "config.resolved.yaml"), resolve=False) or {}
    language = ident.get("language") or (config.get("bench") or {}).get("language") or "cpp"
    prompt = ident.get("prompt") or (config.get("prompt") or {}).get("name") or "zero_shot"
    label = ident.get("label") or summary.get("model") or run_dir.name
    variant = ident.get("variant") or (config.get("bench") or {}).get("variant") or "interactive"
    tasks = {t["task_id"]: dict(t) for t in summary.get("tasks", [])}
    if any(t.get("date") is None for t in tasks.values()):
        for tid, date in _task_dates(summary).items():
            tasks[tid].setdefault("date", None)
            tasks[tid]["date"] = tasks[tid]["date"] or date
    for tid, t in tasks.items():
        if t.get("date") is not None:
            try:
                year_of(t["date"])
            except StudyError as e:
                raise StudyError(f"{summary_path}: tasks[{tid}].date: {e}") from None
    try:
        # A run made with refine_rounds=1 in a folder that holds rounds from another run is not
        # a refinement run: its summary says so (older summaries have no "refine": the store tells).
        refine_rows = [] if summary.get("refine") == [] else _rounds(run_dir)
    except Exception as exc:  # noqa: BLE001 - a run without a readable store still has its summary
        raise StudyError(f"{run_dir}: cannot read its results store ({exc})") from None
    return StudyRun(run_dir, str(label), str(language), str(prompt), tasks, [int(k) for k in summary.get("ks", [1])],
                    undated=sum(1 for t in tasks.values() if t.get("date") is None),
                    refine_rows=refine_rows, variant=str(variant), other=other_settings(ident, tasks))


# Settings a study places runs by (language, prompt, variant, refinement) or that do not change
# what a run measures: not "other".
_PLACED = ("bench.language", "prompt", "bench.variant", "sampling.refine_rounds", "model", "resume", "metrics.",
           "paths.", "cluster", "wandb", "pipeline.", "hydra", "print_config", "feedback.", "report.")


def other_settings(ident: dict[str, Any], tasks: dict[str, Any]) -> dict[str, str]:
    """What a run was made with besides its model, language, prompt, variant and refinement:
    its sampling values, its other overrides and its task set (a count), as short texts."""
    out: dict[str, str] = {}
    for k, v in (ident.get("sampling") or {}).items():
        if k not in ("name", "refine_rounds"):
            out[f"sampling.{k}"] = str(v)
    for o in ident.get("overrides") or []:
        key, _, value = str(o).partition("=")
        key = key.lstrip("+~")
        if key.startswith("sampling.") or any(key == p or (p.endswith(".") and key.startswith(p)) for p in _PLACED):
            continue
        out[key] = value if len(value) <= 24 else value[:21] + "..."
    out["tasks"] = str(len(tasks))
    return out


def distinguish(runs: Sequence[StudyRun]) -> list[str]:
    """Runs of one model that differ in more than language, prompt, variant and refinement (n,
    a budget, the task set, another override) are different cohorts: each run's label gets the
    settings that differ within its model, e.g. ``reference [sampling.n=7]``, so the tables group
    them apart instead of refusing them. Returns one line per model that was split."""
    notes = []
    for label, group in _groups(runs).items():
        if len(group) < 2:
            continue
        keys = sorted({k for r in group for k in r.other})
        vary = [k for k in keys if len({r.other.get(k) for r in group}) > 1]
        if not vary:
            continue
        for r in group:
            short = [f"{k.removeprefix('sampling.')}={r.other.get(k, '-')}" for k in vary]
            r.label = f"{label} [{', '.join(short)}]"
        notes.append(f"{label}: runs differ in {', '.join(vary)}; grouped apart by them")
    return notes


def names(runs: Sequence[StudyRun]) -> list[str]:
    """A short name per run: the model, plus language and prompt where the runs differ in them;
    the folder name where two are still alike."""
    vary_lang = len({r.language for r in runs}) > 1
    vary_prompt = len({r.setting for r in runs}) > 1
    vary_variant = len({r.variant for r in runs}) > 1
    out = []
    for r in runs:
        parts = [r.label] + ([r.language] if vary_lang else []) + ([r.setting] if vary_prompt else [])
        parts += [r.variant] if vary_variant else []
        out.append(" · ".join(parts))
    counts = Counter(out)
    return [f"{n} <{r.run_dir.name}>" if counts[n] > 1 else n for n, r in zip(out, runs)]


# -- the tables ----------------------------------------------------------------------------------------
def time_split_rows(runs: Sequence[StudyRun], years: Sequence[int] | None = None) -> list[dict[str, Any]]:
    all_years = sorted({year_of(t["date"]) for r in runs for t in r.tasks.values() if t.get("date")})
    if not all_years:
        return []
    years = list(years) if years else list(range(all_years[0], all_years[-1] + 1))
    out = []
    for name, r in zip(names(runs), runs):
        pairs = [(t.get("date"), r.pass_at(tid, 1)) for tid, t in r.tasks.items()]
        for row in time_splits(pairs, years):
            out.append({"run": name, "model": r.label, "language": r.language, "prompt": r.setting, **row,
                        "undated_tasks": r.undated, "run_dir": str(r.run_dir)})
    return out


def _groups(runs: Sequence[StudyRun]) -> dict[str, list[StudyRun]]:
    g: dict[str, list[StudyRun]] = defaultdict(list)
    for r in runs:
        g[r.label].append(r)
    return g


def _common(runs: Sequence[StudyRun], k: int) -> list[str]:
    sets = [{t for t in r.tasks if r.pass_at(t, k) is not None} for r in runs]
    return sorted(set.intersection(*sets)) if sets else []


def _mean(r: StudyRun, ids: Sequence[str], k: int) -> float | None:
    vals = [r.pass_at(t, k) for t in ids]
    vals = [v for v in vals if v is not None]
    return sum(vals) / len(vals) if vals else None


def _unique_cells(runs: Sequence[StudyRun], key) -> dict:
    cells: dict = {}
    for r in runs:
        k = key(r)
        if k in cells:
            raise StudyError(f"two runs measure the same setting {k}: {cells[k].run_dir} and {r.run_dir}; "
                             "give the study one of them")
        cells[k] = r
    return cells


def language_prompt_rows(runs: Sequence[StudyRun]) -> tuple[list[str], list[dict[str, Any]]]:
    """(languages, rows): one row per model and prompt, pass@1 per language on the tasks every
    run of that model has (paper Table 12); empty when the runs cover a single cell."""
    languages = sorted({r.language for r in runs}, key=lambda lang: (lang != "cpp", lang))
    rows = []
    for label, group in _groups(runs).items():
        group = [r for r in group if not r.refine and r.variant == "interactive"]  # batch runs: the C.1 section
        if not group:
            continue
        cells = _unique_cells(group, lambda r: (r.prompt, r.language))
        common = _common(group, 1)
        for prompt in sorted({r.prompt for r in group}, key=lambda p: (p != "zero_shot", p)):
            row: dict[str, Any] = {"model": label, "prompt": prompt, "n_tasks": len(common)}
            for lang in languages:
                r = cells.get((prompt, lang))
                row[lang] = _mean(r, common, 1) if r else None
            rows.append(row)
    if sum(1 for row in rows for lang in languages if row[lang] is not None) < 2:
        return languages, []
    return languages, rows


def mitigation_rows(runs: Sequence[StudyRun], k: int = 5) -> list[dict[str, Any]]:
    """Paper Table 10 per model and language: pass@k zero-shot, pass@k few-shot, refine@k, on
    the tasks the runs have in common; only rows where at least two of the three exist."""
    rows = []
    for label, group in _groups(runs).items():
        for lang in sorted({r.language for r in group}, key=lambda x: (x != "cpp", x)):
            cells = _unique_cells([r for r in group if r.language == lang and r.variant == "interactive"],
                                  lambda r: r.setting)
            zero, few, ref = cells.get("zero_shot"), cells.get("few_shot"), cells.get("refine")
            present = [r for r in (zero, few, ref) if r is not None]
            if len(present) < 2:
                continue
            common = sorted(set.intersection(*[set(r.tasks) for r in present]))
            row: dict[str, Any] = {"model": label, "language": lang, "n_tasks": len(common),
                                   f"pass@{k}": _mean(zero, common, k) if zero else None,
                                   f"pass@{k} (few-shot)": _mean(few, common, k) if few else None,
                                   f"refine@{k}": None, "note": ""}
            why = []
            for name, r in (("zero-shot", zero), ("few-shot", few)):
                if r is not None and row[f"pass@{k}" + (" (few-shot)" if r is few else "")] is None:
                    fewest = min((int(r.tasks[t].get("n") or 0) for t in common), default=0)
                    why.append(f"pass@{k} {name}: its tasks have {fewest} sample(s), fewer than {k} (sampling.n)")
            if ref is not None:  # on the common tasks; a run that stopped before round k has none
                row[f"refine@{k}"] = ref.refine_at(k, common)
                if row[f"refine@{k}"] is None:
                    why.append(f"refine@{k}: the refinement run went {ref.rounds} round(s) "
                               f"(sampling.refine_rounds={ref.rounds}); give --k {ref.rounds} or run {k} rounds")
            row["note"] = "; ".join(why)
            rows.append(row)
    return rows


# The order of the paper's Table 9 (batch vs interactive failure composition).
C1_LABELS = ["WA", "PE", "QLE", "IDLE", "CE", "RE", "TLE", "MLE"]


def batch_vs_interactive_rows(runs: Sequence[StudyRun]) -> list[dict[str, Any]]:
    """Paper C.1: for each model, language and prompt with both an interactive and a batch run,
    one row per run — pass@1 on the tasks both runs have, and the share of each failure label
    among its unsuccessful executions on those tasks (judge errors left out). Refinement runs are
    left out (their samples are rounds, not independent attempts)."""
    cells: dict[tuple[str, str, str], list[StudyRun]] = defaultdict(list)
    for r in runs:
        if not r.refine:
            cells[(r.label, r.language, r.prompt)].append(r)
    rows = []
    for (label, language, prompt), group in cells.items():
        by_variant = _unique_cells(group, lambda r: (r.label, r.language, r.prompt, r.variant))
        pair = [by_variant.get((label, language, prompt, v)) for v in ("interactive", "batch")]
        if None in pair:
            continue
        common = _common(pair, 1)
        for r in pair:
            counts = Counter()
            for tid in common:
                for v, n in (r.tasks[tid].get("verdicts") or {}).items():
                    counts[v] += int(n)
            failed = sum(n for v, n in counts.items() if v not in ("OK", "SE"))
            row: dict[str, Any] = {"model": label, "language": language, "prompt": prompt, "variant": r.variant,
                                   "n_tasks": len(common), "pass@1": _mean(r, common, 1), "n_failed": failed}
            for lab in C1_LABELS:
                row[lab] = counts.get(lab, 0) / failed if failed else None
            row["run_dir"] = str(r.run_dir)
            rows.append(row)
    return rows


def plot_batch_vs_interactive(rows: list[dict[str, Any]], path: Path) -> Path:
    plt = _plt()
    names_ = [f"{r['model']} · {r['language']} · {r['prompt']}\n{r['variant']}" for r in rows]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(max(8.0, 2.2 * len(rows) + 4), 4.2))
    colours = ["#4c72b0" if r["variant"] == "interactive" else "#dd8452" for r in rows]
    ax1.bar(range(len(rows)), [r["pass@1"] or 0.0 for r in rows], color=colours)
    ax1.set_xticks(range(len(rows)), names_, fontsize=7)
    ax1.set_ylim(0, 1)
    ax1.set_ylabel("pass@1 (common tasks)")
    ax1.set_title("Batch vs interactive (C.1): pass@1")
    bottom = [0.0] * len(rows)
    for lab in C1_LABELS:
        vals = [r[lab] or 0.0 for r in rows]
        ax2.bar(range(len(rows)), vals, bottom=bottom, label=lab)
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax2.set_xticks(range(len(rows)), names_, fontsize=7)
    ax2.set_ylim(0, 1)
    ax2.set_ylabel("share of unsuccessful executions")
    ax2.set_title("failure composition (Table 9)")
    ax2.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return path


def refine_round_rows(runs: Sequence[StudyRun]) -> list[dict[str, Any]]:
    out = []
    for name, r in zip(names(runs), runs):
        for row in r.refine:
            out.append({"run": name, "model": r.label, "language": r.language, **row})
    return out


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


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_time_split(rows: list[dict[str, Any]], path: Path) -> Path:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    for run in dict.fromkeys(r["run"] for r in rows):
        pts = [r for r in rows if r["run"] == run]
        post = [(r["cut_year"], 100 * r["pass@1_post"]) for r in pts if r["pass@1_post"] is not None]
        pre = [(r["cut_year"], 100 * r["pass@1_pre"]) for r in pts if r["pass@1_pre"] is not None]
        line, = ax.plot([x for x, _ in post], [y for _, y in post], marker="o", label=f"{run} (post: year ≥ cut)")
        if pre:
            ax.plot([x for x, _ in pre], [y for _, y in pre], marker="x", ls="--", color=line.get_color(),
                    label=f"{run} (pre: year < cut)")
    years = sorted({r["cut_year"] for r in rows})
    ax.set_xticks(years)
    ax.set_xlabel("cut year Y")
    ax.set_ylabel("mean pass@1 (%)")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.set_title("Time split: mean pass@1 of tasks released before / from the cut year")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return path


def plot_language_prompt(languages: list[str], rows: list[dict[str, Any]], path: Path) -> Path:
    plt = _plt()
    models = list(dict.fromkeys(r["model"] for r in rows))
    fig, axes = plt.subplots(1, len(models), figsize=(max(5.0, 1.6 * len(languages) + 2) * len(models), 4.0),
                             squeeze=False)
    for ax, m in zip(axes[0], models):
        mrows = [r for r in rows if r["model"] == m]
        width = 0.8 / len(mrows)
        for j, r in enumerate(mrows):
            ax.bar([i + j * width for i in range(len(languages))], [r[lang] or 0.0 for lang in languages], width,
                   label=r["prompt"])
        ax.set_xticks([i + width * (len(mrows) - 1) / 2 for i in range(len(languages))])
        ax.set_xticklabels(languages)
        ax.set_ylim(0, 1)
        ax.set_ylabel("pass@1")
        ax.set_title(f"{m} (n = {mrows[0]['n_tasks']} common tasks)")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return path


def plot_refine(rows: list[dict[str, Any]], path: Path) -> Path:
    plt = _plt()
    runs = list(dict.fromkeys(r["run"] for r in rows))
    fig, axes = plt.subplots(1, len(runs), figsize=(5.5 * len(runs), 4.0), squeeze=False)
    for ax, run in zip(axes[0], runs):
        rr = [r for r in rows if r["run"] == run]
        bottom = [0.0] * len(rr)
        for label in FAILURES:
            vals = [r[label] for r in rr]
            ax.bar([f"r{r['round']}" for r in rr], vals, bottom=bottom, label=label)
            bottom = [b + v for b, v in zip(bottom, vals)]
        ax2 = ax.twinx()
        ax2.plot([f"r{r['round']}" for r in rr], [r["refine@k"] for r in rr], color="black", marker="o")
        ax2.set_ylim(0, 1)
        ax2.set_ylabel("refine@k")
        ax.set_ylim(0, 1)
        ax.set_ylabel("share of still-unsolved executions")
        ax.set_title(run)
        ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return path


def study(dirs: Sequence[str | Path], out: str | Path | None = None, years: Sequence[int] | None = None,
          k: int = 5, console: Any = None) -> dict[str, Path]:
    """Build every section the runs allow; returns the files written (name -> path)."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = console or Console(width=170)
    paths = find_runs(dirs)
    if not paths:
        raise StudyError("no runs given")
    runs = [load_run(p) for p in paths]
    split = distinguish(runs)
    out_dir = Path(out) if out else (Path(os.path.commonpath([str(p) for p in paths])) / "study_report"
                                     if len(paths) > 1 else paths[0] / "study_report")
    out_dir.mkdir(parents=True, exist_ok=True)
    files: dict[str, Path] = {}

    def show(title: str, rows: list[dict[str, Any]], skip: Sequence[str] = ("run_dir", "model", "language", "prompt")):
        cols = [c for c in rows[0] if c not in skip]
        t = Table(title=title, title_justify="left")
        for c in cols:
            t.add_column(escape(c), justify="left" if c in ("run", "model", "prompt") else "right")
        for r in rows:
            t.add_row(*(escape(_fmt(r[c])) for c in cols))
        console.print(t)

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

    bi = batch_vs_interactive_rows(runs)
    if bi:
        files["batch_vs_interactive_csv"] = write_csv(bi, out_dir / "batch_vs_interactive.csv")
        files["batch_vs_interactive_png"] = plot_batch_vs_interactive(bi, out_dir / "batch_vs_interactive.png")
        show("Batch vs interactive (C.1): pass@1 on common tasks, failure composition (Table 9)", bi,
             skip=("run_dir",))
    if not files:
        raise StudyError("none of the study sections applies to these runs (no release dates, one language × "
                         "prompt cell per model, no few-shot, refinement or batch/interactive pair)")
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
                                             "batch vs interactive (C.1).")
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
