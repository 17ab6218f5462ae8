"""``python -m ibench.results rejudge RUN --times K``: the judge's stability, measured.

Every judged sample of the run (its own keys, every round) is judged K more times through the
real :class:`ibench.judge.Judge`, with the judge settings the run was made with (its
``.hydra/config.yaml`` or ``config.resolved.yaml`` ``judge`` section, the case pools of its
``bench``, its variant), on its tasks folder (the one it recorded, or ``--tasks``). Each new
verdict is compared with the stored one: a flip is a judging whose verdict differs (a score
that differs on a task with subtasks counts too). The goal is 0 flips.

Nothing is written to the run's store (a resume would not tell the new verdicts from its own).
Files, in ``--out`` (default ``<run>/rejudge_report``): ``rejudge.csv`` (one row per judging),
``rejudge_summary.csv`` (per stored verdict: samples, judgings, flips, flip rate, the verdicts
seen)."""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from dataclasses import fields
from pathlib import Path
from typing import Any, Sequence

from ibench.results.analyses.common import AnalysisError, console, show, write_csv
from ibench.results.runlog import ResultsError, RunLog, load


def judge_settings(log: RunLog) -> Any:
    """The :class:`~ibench.judge.settings.JudgeSettings` the run was judged with (its saved
    config's ``judge`` section with the ``bench`` case pools and the run's variant); the
    defaults where the folder kept no config."""
    import ibench.run.config  # noqa: F401 - registers ibench's resolvers for the saved config's interpolations
    from omegaconf import OmegaConf

    from ibench.judge.settings import JudgeSettings

    known = {f.name for f in fields(JudgeSettings)}
    values: dict[str, Any] = {}
    for path in (log.run_dir / ".hydra" / "config.yaml", log.run_dir / "config.resolved.yaml"):
        if not path.is_file():
            continue
        cfg = OmegaConf.load(path)
        try:
            judge = OmegaConf.to_container(cfg, resolve=True).get("judge") or {}  # type: ignore[union-attr]
        except Exception:  # noqa: BLE001 - an interpolation the saved file cannot resolve
            judge = OmegaConf.to_container(cfg, resolve=False).get("judge") or {}  # type: ignore[union-attr]
        values.update({str(k): val for k, val in dict(judge).items() if str(k) in known})
        bench: dict[str, Any] = dict(OmegaConf.to_container(cfg, resolve=False).get("bench") or {})  # type: ignore[union-attr]
        for pool in ("non_adaptive_cases", "adaptive_cases"):
            if bench.get(pool) is not None:
                values[pool] = int(bench[pool])
        break
    values["variant"] = log.identity.variant
    return JudgeSettings(**values)


def rejudge(run_dir: str | Path, times: int = 3, tasks_dir: str | Path | None = None, limit: int | None = None,
            judge: Any = None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(one row per judging, one row per stored verdict). ``judge`` defaults to a
    :class:`ibench.judge.Judge` with the run's settings."""
    from ibench.tasks.load import load_task

    if times < 1:
        raise AnalysisError(f"--times {times}: expected 1 or more")
    try:
        log = load(run_dir)
        s, v, _ = log.current()
    except ResultsError as e:
        raise AnalysisError(str(e)) from None
    root = Path(tasks_dir) if tasks_dir else Path(str((log.summary.get("meta") or {}).get("tasks_dir") or ""))
    rows = v.join(s.select("sample_id", "code", "language"), on="sample_id", how="left").sort("task_id", "sample_index")
    if limit is not None:
        rows = rows.head(limit)
    if not rows.height:
        raise AnalysisError(f"{run_dir}: no judged sample to judge again")
    tasks = {}
    for tid in rows["task_id"].unique().to_list():
        if not (root / tid).is_dir():
            raise AnalysisError(f"task {tid}: no folder in {root} (the tasks folder the run was made on; give it with "
                                "--tasks)")
        try:
            tasks[tid] = load_task(root / tid)
        except Exception as e:  # noqa: BLE001 - a task folder that no longer loads: say which and why
            raise AnalysisError(f"task {tid}: {root / tid} does not load ({e})") from None
    if judge is None:
        from ibench.judge import Judge
        from ibench.judge.judge import IsolationError

        try:
            judge = Judge(judge_settings(log))
        except (IsolationError, TypeError, ValueError) as e:  # the run's settings cannot build a judge here
            raise AnalysisError(f"no judge with {run_dir}'s settings on this host: {e}") from None
    out = []
    for attempt in range(1, times + 1):
        for row in rows.iter_rows(named=True):
            start = time.perf_counter()
            result = judge.judge(tasks[row["task_id"]], row["code"] or "", language=row["language"] or "cpp")
            new = result.verdict.value
            score_flip = row["score"] is not None and result.score is not None and abs(row["score"] - result.score) > 1e-9
            out.append({"task_id": row["task_id"], "sample_index": row["sample_index"], "round": row["round"] or 1,
                        "attempt": attempt, "stored": row["verdict"], "new": new, "stored_score": row["score"],
                        "new_score": result.score, "flipped": new != row["verdict"] or score_flip,
                        "seconds": time.perf_counter() - start, "message": result.message[:200]})
    return out, summarise(out)


def summarise(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    by: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by[r["stored"]].append(r)
    out = []
    for verdict in sorted(by):
        g = by[verdict]
        flips = sum(r["flipped"] for r in g)
        seen = Counter(r["new"] for r in g)
        out.append({"stored_verdict": verdict, "samples": len({(r["task_id"], r["sample_index"], r["round"]) for r in g}),
                    "judgings": len(g), "flips": flips, "flip_rate": flips / len(g),
                    "new_verdicts": " ".join(f"{k}:{n}" for k, n in sorted(seen.items()))})
    total = sum(r["flipped"] for r in rows)
    out.append({"stored_verdict": "all", "samples": len({(r["task_id"], r["sample_index"], r["round"]) for r in rows}),
                "judgings": len(rows), "flips": total, "flip_rate": total / len(rows) if rows else 0.0,
                "new_verdicts": ""})
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ibench.results rejudge",
                                 description="Judge a run's stored samples again and report the flip rate per verdict.")
    ap.add_argument("run", help="a run folder")
    ap.add_argument("--times", type=int, default=3, help="judgings of each sample (default 3)")
    ap.add_argument("--tasks", help="the tasks folder (default: the one the run recorded)")
    ap.add_argument("--limit", type=int, help="only the first N samples (by task and index)")
    ap.add_argument("--out", help="output folder (default <run>/rejudge_report)")
    args = ap.parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        rows, summary = rejudge(args.run, args.times, args.tasks, args.limit)
    except AnalysisError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else Path(args.run) / "rejudge_report"
    c = console()
    show(c, f"Judge stability: {args.times} judging(s) of each stored sample, flips per stored verdict", summary)
    flipped = [r for r in rows if r["flipped"]]
    for r in flipped[:20]:
        c.print(f"flip: {r['task_id']} sample {r['sample_index']} round {r['round']} try {r['attempt']}: "
                f"{r['stored']} -> {r['new']} ({r['message']})", highlight=False, markup=False)
    files = [write_csv(rows, out / "rejudge.csv"), write_csv(summary, out / "rejudge_summary.csv")]
    c.print(f"flips: {len(flipped)} of {len(rows)} judgings; wrote " + ", ".join(map(str, files)), highlight=False, markup=False)
    return 0

