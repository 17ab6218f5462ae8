"""The rephrasing study (LiveOIBench Figure 4): a run on rephrased statements
(``prompt.rephrase=true``, :mod:`ibench.generate.rephrase`) beside the same run on the original
statements — same model, language, prompt, variant and every other setting but the
``prompt.rephrase*`` ones. Per pair: pass@1 of each on the tasks both have, the paired
difference (rephrased − original) with a percentile bootstrap interval over those tasks, and per
task both pass@1 values. ``rephrase.csv``, ``rephrase_tasks.csv``, ``rephrase.png/.pdf``.

Refinement runs are left out (their samples are rounds, not independent attempts)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

from ibench.results.metrics import paired_bootstrap_diff
from ibench.results.study_runs import StudyRun

KEYS = ("prompt.rephrase", "prompt.rephrase_model", "prompt.rephrase_with", "prompt.rephrase_instruction")


def _truthy(v: Any) -> bool:
    return str(v).strip().lower() in ("true", "1", "yes")


def is_rephrased(r: StudyRun) -> bool:
    """Whether the run's prompts held rephrased statements (its override or its own config)."""
    v = r.other.get("prompt.rephrase", r.settings.get("prompt.rephrase", False))
    return _truthy(v) or (r.run_dir / "rephrased.json").is_file()


def _cell(r: StudyRun) -> tuple[Any, ...]:
    """What a run measures apart from the rephrasing: the pairing key."""
    other = tuple(sorted((k, v) for k, v in r.other.items() if k not in KEYS and not k.startswith("prompt.rephrase")))
    return (r.label, r.language, r.prompt, r.variant, other)


def rephrased_by(r: StudyRun) -> str:
    """The model that rephrased the run's statements (from its ``rephrased.json``)."""
    path = r.run_dir / "rephrased.json"
    try:
        tasks = json.loads(path.read_text()).get("tasks") or {}
    except (OSError, ValueError):
        return "?"
    return ", ".join(sorted({str(t.get("rephrased_by")) for t in tasks.values()})) or "?"


def rephrase_rows(runs: Sequence[StudyRun], resamples: int = 1000,
                  confidence: float = 0.95) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(one row per pair, one row per task of each pair). Call before the runs' labels are
    changed by :func:`~ibench.results.study_runs.distinguish` (the pairing is by identity)."""
    originals: dict[tuple[Any, ...], list[StudyRun]] = {}
    rephrased: list[StudyRun] = []
    for r in runs:
        if r.refine:
            continue
        (rephrased.append(r) if is_rephrased(r) else originals.setdefault(_cell(r), []).append(r))
    rows: list[dict[str, Any]] = []
    task_rows: list[dict[str, Any]] = []
    for r in rephrased:
        partners = originals.get(_cell(r), [])
        if len(partners) != 1:
            continue  # none, or more than one run it could be paired with
        base = partners[0]
        common = sorted(t for t in set(base.tasks) & set(r.tasks)
                        if base.pass_at(t, 1) is not None and r.pass_at(t, 1) is not None)
        if not common:
            continue
        a = [float(base.pass_at(t, 1)) for t in common]  # type: ignore[arg-type]
        b = [float(r.pass_at(t, 1)) for t in common]  # type: ignore[arg-type]
        diff, ci = paired_bootstrap_diff(a, b, resamples if len(common) > 1 else 0, confidence)
        rows.append({"model": r.label, "language": r.language, "prompt": r.prompt, "variant": r.variant,
                     "rephrased_by": rephrased_by(r), "n_tasks": len(common),
                     "pass@1 original": sum(a) / len(a), "pass@1 rephrased": sum(b) / len(b),
                     "difference": diff, "ci_low": ci[0] if ci else None, "ci_high": ci[1] if ci else None,
                     "original_run": str(base.run_dir), "run_dir": str(r.run_dir)})
        for t, x, y in zip(common, a, b):
            task_rows.append({"model": r.label, "language": r.language, "prompt": r.prompt, "task_id": t,
                              "pass@1 original": x, "pass@1 rephrased": y, "difference": y - x,
                              "run_dir": str(r.run_dir)})
    return rows, task_rows


def plot_rephrase(rows: list[dict[str, Any]], path: Path, confidence: float = 0.95) -> Path:
    """Both pass@1 of each pair side by side, and the paired difference with its interval."""
    from ibench.results.figstyle import panels, save_figure, title, wrap

    names_ = [wrap(f"{r['model']} · {r['language']} · {r['prompt']}", 28) for r in rows]
    fig, (ax1, ax2) = panels(2, panel_size=(max(4.8, 1.4 * len(rows) + 2), 4.4))
    xs = list(range(len(rows)))
    ax1.bar([x - 0.2 for x in xs], [r["pass@1 original"] for r in rows], 0.4, label="original")
    ax1.bar([x + 0.2 for x in xs], [r["pass@1 rephrased"] for r in rows], 0.4, label="rephrased")
    ax1.set_xticks(xs, names_, fontsize=7, rotation=20, ha="right")
    ax1.set_ylim(0, 1)
    ax1.set_ylabel("pass@1 (common tasks)")
    ax1.legend(fontsize=7)
    title(ax1, "Original vs rephrased statements: pass@1")
    lo = [r["difference"] - (r["ci_low"] if r["ci_low"] is not None else r["difference"]) for r in rows]
    hi = [(r["ci_high"] if r["ci_high"] is not None else r["difference"]) - r["difference"] for r in rows]
    ax2.errorbar(xs, [r["difference"] for r in rows], yerr=[lo, hi], fmt="o", capsize=4)
    ax2.axhline(0, color="grey", lw=0.8)
    ax2.set_xticks(xs, names_, fontsize=7, rotation=20, ha="right")
    ax2.set_ylabel("Δ pass@1 (rephrased − original)")
    title(ax2, f"paired difference, {int(confidence * 100)}% bootstrap CI over tasks")
    return save_figure(fig, path.parent, path.stem)[0]
