"""The study's tables, one builder per section of the paper (rows of plain dicts, the shape the
CSV, Markdown and console writers take): time splits (C.3), language × prompt (C.4, Table 12),
mitigation strategies (C.2, Table 10), per-round failures (C.2, Table 11), batch variant vs
interactive (C.1, Table 9). Every comparison is on the tasks the compared runs have in common."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any, Callable, Hashable, Iterable, Sequence

from ibench.results.study_runs import StudyError, StudyRun, by_model, names, release_year
from ibench.variants import Variant


def time_splits(tasks: Iterable[tuple[Any, float | None]], years: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """For each cut year Y: mean pass@1 of the tasks released before Y and from Y on.

    ``tasks`` holds (release date or year, pass@1) per task; tasks without a date or without a
    pass@1 are left out. ``years`` defaults to every year from the earliest to the latest
    release (at the first, the pre set is empty: its mean is None)."""
    dated = [(release_year(d), float(p)) for d, p in tasks if d is not None and p is not None]
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


def time_split_rows(runs: Sequence[StudyRun], years: Sequence[int] | None = None) -> list[dict[str, Any]]:
    all_years = sorted({release_year(t["date"]) for r in runs for t in r.tasks.values() if t.get("date")})
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


def _common(runs: Sequence[StudyRun], k: int) -> list[str]:
    sets = [{t for t in r.tasks if r.pass_at(t, k) is not None} for r in runs]
    return sorted(set.intersection(*sets)) if sets else []


def _mean(r: StudyRun, ids: Sequence[str], k: int) -> float | None:
    vals = [v for v in (r.pass_at(t, k) for t in ids) if v is not None]
    return sum(vals) / len(vals) if vals else None


def _unique_cells(runs: Sequence[StudyRun], key: Callable[[StudyRun], Hashable]) -> dict[Any, StudyRun]:
    cells: dict[Any, StudyRun] = {}
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
    for label, group in by_model(runs).items():
        group = [r for r in group if not r.refine and r.variant == "interactive"]  # batch-variant runs: the C.1 section
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
    for label, group in by_model(runs).items():
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


# The order of the paper's Table 9 (batch variant vs interactive failure composition).
C1_LABELS = ["WA", "PE", "QLE", "IDLE", "CE", "RE", "TLE", "MLE"]


def batch_variant_vs_interactive_rows(runs: Sequence[StudyRun]) -> list[dict[str, Any]]:
    """Paper C.1: for each model, language and prompt with both an interactive and a
    batch-variant run, one row per run — pass@1 on the tasks both runs have, and the share of
    each failure label among its unsuccessful executions on those tasks (judge errors left out).
    Refinement runs are left out (their samples are rounds, not independent attempts)."""
    cells: dict[tuple[str, str, str], list[StudyRun]] = defaultdict(list)
    for r in runs:
        if not r.refine:
            cells[(r.label, r.language, r.prompt)].append(r)
    rows = []
    for (label, language, prompt), group in cells.items():
        by_variant = _unique_cells(group, lambda r: (r.label, r.language, r.prompt, r.variant))
        interactive, batch_variant = (by_variant.get((label, language, prompt, v.value))
                                      for v in (Variant.INTERACTIVE, Variant.BATCH))
        if interactive is None or batch_variant is None:
            continue
        pair = [interactive, batch_variant]
        common = _common(pair, 1)
        for r in pair:
            counts: Counter[str] = Counter()
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


def refine_round_rows(runs: Sequence[StudyRun]) -> list[dict[str, Any]]:
    out = []
    for name, r in zip(names(runs), runs):
        for row in r.refine:
            out.append({"run": name, "model": r.label, "language": r.language, **row})
    return out
