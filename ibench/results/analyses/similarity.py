"""Code similarity (LiveOIBench Figures 8, 10, 11): each accepted sample against its task's known
accepted solutions (the task folder's ``solutions/`` with ``expected.json`` OK, in the sample's
language and the run's variant), by tokenised winnowing (:mod:`ibench.results.analyses.winnow`,
Dolos's method). A sample's similarity is its highest against any of them; a sample that *is*
one of them (the reference model replays them; ``source`` names the file) is compared with the
others only. Tasks with a single known solution give a replayed sample nothing to compare with.

Files: ``similarity.csv`` (one row per accepted sample: max and mean similarity, the closest
solution), ``similarity_tasks.csv`` (per run and task: mean max-similarity, pass@1, relative
score where the task has subtasks), figures ``similarity_hist`` (distribution per run) and
``similarity_scatter`` (per task: similarity against the task's score)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any, Sequence

import polars as pl

from ibench.results.analyses.common import legend, Run, save, show, write_csv
from ibench.results.analyses.winnow import Fingerprints, similarity


def known_solutions(run: Run) -> dict[str, list[tuple[str, Fingerprints]]]:
    """task -> (file name, fingerprints) of its known accepted C++ solutions of the run's variant."""
    from ibench.tasks.load import load_task

    root = run.tasks_dir or Path(str((run.log.summary.get("meta") or {}).get("tasks_dir") or ""))
    out: dict[str, list[tuple[str, Fingerprints]]] = {}
    variant = run.log.identity.variant
    for tid in run.frame["task_id"].unique().to_list():
        if not (root / tid).is_dir():
            continue
        try:
            task = load_task(root / tid)
        except Exception:  # noqa: BLE001 - a task that no longer loads has no known solutions here
            continue
        out[tid] = [(s.path.name, Fingerprints.of(s.path.read_text(errors="replace"))) for s in task.solutions
                    if s.expected == "OK" and s.path.suffix in (".cpp", ".cc", ".cxx") and s.variant == variant]
    return out


def similarity_rows(run: Run) -> list[dict[str, Any]]:
    """One row per accepted C++ sample that has a known solution to compare with."""
    known = known_solutions(run)
    _, v, _ = run.log.current()
    s = run.log.current()[0].select("sample_id", "code", "source", "language")
    acc = v.filter(pl.col("verdict") == "OK").select("sample_id", "task_id", "sample_index",
                                                     pl.col("round").fill_null(1)).join(s, on="sample_id")
    rows = []
    for row in acc.iter_rows(named=True):
        if row["language"] not in ("cpp", None) or not row["code"]:
            continue
        others = [(name, fp) for name, fp in known.get(row["task_id"], []) if name != (row["source"] or "")]
        if not others:
            continue
        mine = Fingerprints.of(row["code"])
        sims = [(similarity(mine, fp), name) for name, fp in others]
        best, name = max(sims)
        rows.append({"run": run.label, "task_id": row["task_id"], "sample_index": row["sample_index"],
                     "round": row["round"], "max_similarity": best, "mean_similarity": sum(x for x, _ in sims) / len(sims),
                     "closest": name, "compared_with": len(others), "replayed": row["source"] or ""})
    return rows


def task_rows(run: Run, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from ibench.results.analyses.efficiency import full_scores

    full = full_scores(run)
    df = run.frame
    sims: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        sims[r["task_id"]].append(r["max_similarity"])
    out = []
    for tid, vals in sims.items():
        g = df.filter(pl.col("task_id") == tid)
        rel = None
        if tid in full and g.height and not g["score"].null_count():
            rel = float(g["score"].mean()) / full[tid]  # type: ignore[arg-type]
        out.append({"run": run.label, "task_id": tid, "accepted_compared": len(vals),
                    "mean_max_similarity": sum(vals) / len(vals),
                    "pass@1": float(g["ok"].mean()) if g.height else None,  # type: ignore[arg-type]
                    "relative_score": rel})
    return out


def plot(rows: list[dict[str, Any]], tasks: list[dict[str, Any]], out_dir: Path) -> list[Path]:
    from ibench.results.figstyle import panels, title

    paths = []
    fig, (ax,) = panels(1, panel_size=(6.0, 4.0))
    labels = list(dict.fromkeys(r["run"] for r in rows))
    ax.hist([[r["max_similarity"] for r in rows if r["run"] == lab] for lab in labels], bins=[i / 20 for i in range(21)],
            label=labels, stacked=False)
    ax.set_xlabel("similarity to the closest known accepted solution")
    ax.set_ylabel("accepted samples")
    title(ax, "Code similarity of accepted samples to the known solutions (winnowing)")
    legend(ax)
    paths += save(fig, out_dir, "similarity_hist")
    fig, (ax,) = panels(1, panel_size=(6.0, 4.0))
    use_rel = all(t["relative_score"] is not None for t in tasks)
    for lab in labels:
        mine = [t for t in tasks if t["run"] == lab]
        ax.scatter([t["mean_max_similarity"] for t in mine], [t["relative_score" if use_rel else "pass@1"] for t in mine],
                   label=lab, s=24)
    ax.set_xlabel("mean similarity of the task's accepted samples")
    ax.set_ylabel("relative score" if use_rel else "pass@1")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    title(ax, "Similarity to the known solutions against the task's score")
    legend(ax)
    return paths + save(fig, out_dir, "similarity_scatter")


def analyse(runs: Sequence[Run], out_dir: Path, console: Any, figures: bool = True) -> dict[str, Path]:
    rows: list[dict[str, Any]] = []
    tasks: list[dict[str, Any]] = []
    for r in runs:
        mine = similarity_rows(r)
        rows += mine
        tasks += task_rows(r, mine)
    if not rows:
        console.print("similarity: no accepted C++ sample with a known accepted solution to compare with; "
                      "section left out", highlight=False, markup=False)
        return {}
    show(console, "Code similarity per task: accepted samples vs the known accepted solutions", tasks)
    files = {"similarity_csv": write_csv(rows, out_dir / "similarity.csv"),
             "similarity_tasks_csv": write_csv(tasks, out_dir / "similarity_tasks.csv")}
    if figures:
        hist_png, hist_pdf, sc_png, sc_pdf = plot(rows, tasks, out_dir)
        files.update(similarity_hist_png=hist_png, similarity_hist_pdf=hist_pdf,
                     similarity_scatter_png=sc_png, similarity_scatter_pdf=sc_pdf)
    return files
