"""The results viewer on a full-size run: site write time, site size and first-page time.

    python scripts/bench_viewer.py                      # 322 tasks x 10 samples x 40 cases
    python scripts/bench_viewer.py --tasks 20 --keep /tmp/vb   # smaller, and keep the run and site

Builds a synthetic run folder (the store's real schemas: samples / verdicts / cases parquet,
``summary.json`` from :func:`ibench.results.metrics.summarize`, the report's plots) with a
reasoning trace, a prompt and a program per sample and both pipe tails per case (random lengths
up to ``--tail-bytes``), writes the site with ``python -m ibench.results view``'s code, and —
where Chromium and selenium are installed — opens it from ``file://`` in headless Chromium:
the run page (the first page) and the tasks page (every task's verdict cells), and one sample.
Prints one JSON line with the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
VERDICTS = ["OK", "OK", "OK", "WA", "WA", "TLE", "RE", "PE", "QLE", "IDLE", "MLE", "CE"]


def synthetic_run(run_dir: Path, n_tasks: int, n_samples: int, n_cases: int, reasoning_chars: int,
                  tail_bytes: int, seed: int = 0, all_cases: bool = False) -> None:
    import polars as pl

    from ibench.results.metrics import summarize
    from ibench.results.report import write_files
    from ibench.results.store import CaseRecord, SampleRecord, VerdictRecord, schema_of
    from ibench.tasks.model import CATEGORIES, Task, TaskKind

    rng = random.Random(seed)
    words = "binary search query budget interactor answer hidden number range halve check edge case".split()

    def text(n: int) -> str:
        out, size = [], 0
        while size < n:
            w = rng.choice(words)
            out.append(w + ("\n" if rng.random() < 0.08 else " "))
            size += len(out[-1])
        return "".join(out)[:n]

    code = text(2500)
    prompt = json.dumps([{"role": "system", "content": text(400)}, {"role": "user", "content": text(3000)}])
    tasks, samples, verdicts, cases, by_task = [], [], [], [], {}
    gk, jk = "g" * 16, "j" * 16
    for t in range(n_tasks):
        tid = f"task-{t:03d}"
        diff = ["Easy", "Medium", "Hard"][t % 3]
        cats = (CATEGORIES[t % len(CATEGORIES)],)
        tasks.append(Task(root=run_dir, task_id=tid, kind=TaskKind.INTERACTIVE, cpu_time_limit_ms=1000,
                          memory_limit_mb=256, difficulty=diff, categories=cats, cases=()))
        for i in range(n_samples):
            sid = f"{t:04d}{i:04d}{'s' * 8}"
            v = rng.choice(VERDICTS)
            by_task.setdefault(tid, []).append(v)
            samples.append(SampleRecord(sample_id=sid, gen_key=gk, task_id=tid, sample_index=i, model="synthetic",
                                        language="cpp", prompt=prompt, response="```cpp\n" + code + "\n```",
                                        reasoning=text(reasoning_chars), code=code, extract_error="",
                                        prompt_tokens=900, completion_tokens=reasoning_chars // 4 + 700,
                                        reasoning_tokens=reasoning_chars // 4, finish_reason="stop", seed=i,
                                        latency_s=1.0, error="", source="", attempts=1, created_at=0.0).__dict__)
            first_bad = rng.randrange(n_cases) if v != "OK" else n_cases
            for c in range(n_cases if all_cases else min(n_cases, first_bad + 1)):
                cv = "OK" if c < first_bad else (v if c == first_bad or not all_cases else rng.choice(["OK", v]))
                cases.append(CaseRecord(sample_id=sid, judge_key=jk, task_id=tid, sample_index=i, case=f"{c + 1:03d}",
                                        verdict=cv, cpu_ms=rng.uniform(1, 900), wall_ms=rng.uniform(1, 1200),
                                        peak_kb=rng.randrange(3000, 200000), queries=rng.randrange(0, 40),
                                        query_limit=40, solver_exit="exit 0", interactor_exit="exit 0",
                                        message="ok" if cv == "OK" else f"{cv}: synthetic", sandbox="synthetic",
                                        solver_to_judge_tail=text(rng.randrange(100, tail_bytes)),
                                        judge_to_solver_tail=text(rng.randrange(100, tail_bytes))).__dict__)
            result = {"verdict": v, "compile": {"ok": v != "CE", "ms": 800.0, "cached": False, "message": ""}}
            verdicts.append(VerdictRecord(sample_id=sid, judge_key=jk, gen_key=gk, task_id=tid, sample_index=i,
                                          model="synthetic", verdict=v, score=None, message=f"{v}", compile_ok=v != "CE",
                                          compile_ms=800.0, compile_cached=False, sandbox="synthetic",
                                          n_cases=n_cases if all_cases else min(n_cases, first_bad + 1), n_failed_cases=int(v != "OK"),
                                          warnings_json="[]", result_json=json.dumps(result), judge_wall_s=1.0,
                                          judge_attempts=1, node="local", judged_at=0.0).__dict__)
    store = run_dir / "results"
    store.mkdir(parents=True, exist_ok=True)
    for name, rows, rec in (("samples", samples, SampleRecord), ("verdicts", verdicts, VerdictRecord),
                            ("cases", cases, CaseRecord)):
        pl.DataFrame(rows, schema=schema_of(rec)).write_parquet(store / f"{name}.parquet")
    summary = summarize("synthetic", tasks, by_task, ks=[1, 5], bootstrap=200)
    summary.meta = {"gen_key": gk, "judge_key": jk, "identity": {"model": "synthetic", "label": "synthetic",
                                                                 "sampling": {"name": "interactbench", "n": n_samples}}}
    write_files(summary, run_dir)


def first_page_times(index: Path, task: str) -> dict[str, float] | None:
    sys.path.insert(0, str(REPO / "tests" / "pipeline"))
    try:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support import expected_conditions as EC
        from selenium.webdriver.support.ui import WebDriverWait

        from viewer_fixtures import start_browser
    except ImportError as e:
        print(f"no browser figures: {e}", file=sys.stderr)
        return None
    profile = Path(tempfile.mkdtemp(prefix="bench-viewer-chromium-"))
    try:
        d = start_browser(profile)
    except Exception as e:  # noqa: BLE001
        print(f"no browser figures: {type(e).__name__}: {e}", file=sys.stderr)
        return None
    out = {}
    try:
        def timed(url: str, css: str) -> float:
            d.get("about:blank")
            t0 = time.perf_counter()
            d.get(url)
            WebDriverWait(d, 60).until(EC.presence_of_element_located((By.CSS_SELECTOR, css)))
            return round(time.perf_counter() - t0, 3)

        base = index.resolve().as_uri()
        out["first_page_s"] = timed(base, "#identity")
        out["first_page_again_s"] = timed(base, "#identity")
        out["tasks_page_s"] = timed(base + "#/tasks?verdict=failed", "#tasks tr[data-task]")
        out["sample_page_s"] = timed(base + f"#/sample/0/{task}/0", "#cases")
    finally:
        d.quit()
        shutil.rmtree(profile, ignore_errors=True)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tasks", type=int, default=322)
    ap.add_argument("--samples", type=int, default=10)
    ap.add_argument("--cases", type=int, default=40)
    ap.add_argument("--reasoning-chars", type=int, default=20000, help="per sample (default 20000, ~5k tokens)")
    ap.add_argument("--tail-bytes", type=int, default=2048, help="largest pipe tail per case (the judge's tail_bytes)")
    ap.add_argument("--all-cases", action="store_true",
                    help="every sample runs every case (judge.all_cases=true); default: a failed sample stops "
                         "at its first failed case, as the judge does")
    ap.add_argument("--keep", help="build in this folder and keep it (default: a temporary folder, removed)")
    a = ap.parse_args()

    from ibench.results.viewer import build_site, site_size

    root = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="bench-viewer-"))
    run_dir = root / "run"
    try:
        if run_dir.exists():
            shutil.rmtree(run_dir)
        t0 = time.perf_counter()
        synthetic_run(run_dir, a.tasks, a.samples, a.cases, a.reasoning_chars, a.tail_bytes, all_cases=a.all_cases)
        made = time.perf_counter() - t0
        t0 = time.perf_counter()
        index = build_site([run_dir], progress=False)
        write_s = time.perf_counter() - t0
        files, size = site_size(index.parent)
        import polars as pl

        n_cases = pl.scan_parquet(run_dir / "results" / "cases.parquet").select(pl.len()).collect().item()
        res = {"tasks": a.tasks, "samples": a.tasks * a.samples, "cases_per_sample": a.cases, "case_rows": n_cases,
               "synthetic_run_s": round(made, 1), "site_write_s": round(write_s, 2), "site_files": files,
               "site_mb": round(size / 2**20, 1),
               "index_js_kb": round((index.parent / "data" / "index.js").stat().st_size / 1024, 1),
               "largest_sample_kb": round(max(p.stat().st_size for p in (index.parent / "data" / "r0" / "s").rglob("*.js")) / 1024, 1)}
        res.update(first_page_times(index, "task-000") or {})
        print(json.dumps(res))
    finally:
        if not a.keep:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
