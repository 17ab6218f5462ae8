"""``python -m ibench.results view RUN [RUN ...]``: a self-contained static site to look into runs.

The site is plain files — ``index.html``, ``app.js``, ``style.css`` (package data, no CDN, no
network) and ``data/`` — and opens from ``file://`` as well as from ``--serve`` (127.0.0.1, the
URL printed). Data files are JavaScript (``IBV.put(key, {...})``) loaded by ``<script>`` tags,
which browsers allow from ``file://`` where ``fetch`` is refused. The first page loads only
``data/index.js`` (runs, per-task verdict cells, compare and sweep tables); each sample is a file
of its own (``data/r<i>/s/<task>/<index>.js``: every round's prompt, reasoning, code, compile
output, cases and transcripts), loaded when opened.

Where the site goes: one run → ``RUN/viewer/``; several → ``<common folder>/viewer_report/``;
``--out`` chooses. Pages (hash routes): ``#/run/<i>``, ``#/tasks``, ``#/sample/<i>/<task>/<n>``,
``#/compare``, ``#/side/<task>/<n>`` (one sample of every run side by side), ``#/sweep``.

Transcripts: a case's exchange is shown turn by turn from a ``transcript`` — a list of turns
``{"who": "solver"|"judge", "text"|"bytes": str, "t_ms": float}`` (a turn with ``"cut"``: N, or
``who == "cut"``, is a marker of N bytes left out) — found in the cases table's ``transcript``
column (a list, or its JSON) or under ``transcript`` in the case's ``extra_json``. Without one,
the two pipe tails and the program's stderr tail are shown.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import time
from collections import defaultdict
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

if TYPE_CHECKING:
    from ibench.results.runlog import RunLog

ASSETS = ("index.html", "app.js", "style.css")
SITE_VERSION = 1


class ViewerError(ValueError):
    """Bad input to ``view`` (printed as one line, exit 2)."""


# -- helpers ------------------------------------------------------------------------------------------
def slug(name: str) -> str:
    """A file-name-safe form of a task id (a short hash added when anything was replaced)."""
    s = re.sub(r"[^A-Za-z0-9._-]", "_", str(name))
    if s != name or not s or s.startswith("."):
        import hashlib

        s = f"{s.lstrip('.') or 'x'}-{hashlib.sha256(str(name).encode()).hexdigest()[:6]}"
    return s


def _js(key: str, obj: Any) -> str:
    return f"IBV.put({json.dumps(key)},{json.dumps(obj, ensure_ascii=False, separators=(',', ':'), default=str)});\n"


def _write_js(path: Path, key: str, obj: Any) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = _js(key, obj).encode("utf-8")
    path.write_bytes(data)
    return len(data)


def _loads(text: Any, default: Any) -> Any:
    if text is None or text == "":
        return default
    if not isinstance(text, str):
        return text
    try:
        return json.loads(text)
    except ValueError:
        return default


def _messages(prompt: str | None) -> list[dict[str, str]]:
    m = _loads(prompt, None)
    if isinstance(m, list) and all(isinstance(x, dict) for x in m):
        return [{"role": str(x.get("role", "")), "content": str(x.get("content", ""))} for x in m]
    return [{"role": "prompt", "content": str(prompt or "")}]


def normalize_transcript(raw: Any) -> list[dict[str, Any]] | None:
    """A stored transcript as a list of turns ``{who, text, t_ms}`` (``cut`` turns: ``{who: "cut",
    n}``); None when there is none. Accepts a list of dicts or its JSON, turns keyed ``who`` /
    ``dir`` / ``from`` and ``text`` / ``bytes`` / ``data``."""
    turns = _loads(raw, None) if not isinstance(raw, list) else raw
    if isinstance(turns, dict):
        turns = turns.get("turns")
    if not isinstance(turns, list) or not turns:
        return None
    out = []
    for t in turns:
        if not isinstance(t, dict):
            continue
        who = str(t.get("who") or t.get("dir") or t.get("from") or "")
        cut = t.get("cut", t.get("omitted"))
        if who == "cut" or cut is not None:
            out.append({"who": "cut", "n": cut if cut is not None else t.get("bytes"), "t_ms": t.get("t_ms")})
            continue
        text = t.get("text", t.get("bytes", t.get("data", "")))
        if isinstance(text, (bytes, bytearray)):
            text = text.decode("utf-8", "replace")
        out.append({"who": who, "text": str(text if text is not None else ""), "t_ms": t.get("t_ms")})
    return out or None


def _case_view(row: dict[str, Any]) -> dict[str, Any]:
    extra = _loads(row.get("extra_json"), {})
    transcript = normalize_transcript(row.get("transcript"))
    if transcript is None and isinstance(extra, dict):
        transcript = normalize_transcript(extra.get("transcript"))
    out = {k: row.get(k) for k in ("case", "verdict", "cpu_ms", "wall_ms", "peak_kb", "queries", "query_limit",
                                   "solver_exit", "interactor_exit", "message", "score")}
    if transcript is not None:
        out["transcript"] = transcript
    out["tails"] = {"solver_to_judge": row.get("solver_to_judge_tail") or "",
                    "judge_to_solver": row.get("judge_to_solver_tail") or "",
                    "stderr": row.get("solver_stderr_tail") or ""}
    return out


# -- one run --------------------------------------------------------------------------------------------
def _run_entry(r: RunLog, i: int) -> dict[str, Any]:
    summ = r.summary
    cfg = r.config or {}
    s, v, c = r.current()
    sandboxes = sorted({x for x in v["sandbox"].to_list() if x}) if v.height else []
    ident = dict(r.identity.recorded)  # as the launch recorded it (the run page shows it)
    judge = cfg.get("judge") or {}
    return {
        "i": i, "label": r.label, "dir": str(r.run_dir), "identity": ident,
        "judge": judge, "sandbox": sandboxes,
        "model_cfg": {k: val for k, val in (cfg.get("model") or {}).items() if "key" not in k.lower()},
        "summary": {k: summ.get(k) for k in ("model", "ks", "n_tasks", "n_samples", "n_accepted", "n_judge_errors",
                                             "overall", "by_difficulty", "by_category", "failure_counts",
                                             "failure_composition", "n_failed", "confidence", "bootstrap",
                                             "warnings", "refine")},
        "meta": {k: (summ.get("meta") or {}).get(k) for k in ("wall_s", "generated", "judged_now", "tasks_dir",
                                                             "gen_key", "judge_key")},
        "spec": _spec_entry(r),
        "cost": _cost_entry(r, s, v, c),
    }


def _cost_entry(r: RunLog, s: Any, v: Any, c: Any) -> dict[str, Any]:
    """The run page's cost table (:mod:`ibench.results.cost`): the summary's own figures, or for a
    run whose summary predates them, the same computed from its store and conf/prices.yaml."""
    from ibench.results.cost import cost_lines, load_prices, price_for, run_cost

    cost = r.summary.get("cost")
    if not cost:
        try:
            prices = load_prices()
        except ValueError:  # a bad price table: the run page still shows tokens and seconds
            prices = {}
        ident = r.identity
        cost = run_cost(s, v, c, price_for(prices, (ident.label, ident.recorded.get("model"), r.summary.get("model"))))
    return {"rows": [list(row) for row in cost_lines(cost)], "samples": cost.get("samples"),
            "judged": cost.get("judged"), "solved_tasks": cost.get("solved_tasks"), "priced": cost.get("money") is not None}


def _spec_entry(r: RunLog) -> dict[str, Any]:
    """What the run page shows of spec.json: versions, keys, the task set, code and toolchains."""
    rec = r.spec
    return {"spec_version": rec.get("spec_version"), "key_version": rec.get("key_version"),
            "keys": rec.get("keys") or {}, "tasks": len(rec.get("tasks") or []),
            "code_version": rec.get("code_version"), "toolchains": rec.get("toolchains") or {},
            "migrated": bool(rec.get("migrated"))}


def _chains(s: Any, v: Any) -> dict[tuple[str, int], list[dict[str, Any]]]:
    """(task, sample index) → the sample's rounds in order, each its samples row + verdict row."""
    vby = {row["sample_id"]: row for row in v.iter_rows(named=True)}
    chains: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for row in s.iter_rows(named=True):
        row["round"] = row.get("round") or 1
        chains[(row["task_id"], int(row["sample_index"]))].append({"s": row, "v": vby.get(row["sample_id"])})
    for ch in chains.values():
        ch.sort(key=lambda x: x["s"]["round"])
    return chains


def _behavior_segments(run_dir: Path) -> dict[str, list[dict[str, Any]]]:
    try:
        from ibench.results.behaviors import segments_by_sample
    except ImportError:  # pragma: no cover
        return {}
    return segments_by_sample(run_dir)


def _behavior_summary(run_dir: Path) -> dict[str, Any] | None:
    try:
        from ibench.results.behaviors import site_summary
    except ImportError:  # pragma: no cover
        return None
    return site_summary(run_dir)


def _result(vrow: dict[str, Any] | None) -> Any:
    """The judge's result of a verdict row (None: not judged, or a result that is not JSON)."""
    from ibench.results.runlog import parse_result

    try:
        return parse_result(vrow["result_json"], vrow["verdict"]) if vrow else None
    except ValueError:
        return None


def _sample_doc(r_label: str, task: str, index: int, chain: list[dict[str, Any]],
                cases_by: dict[str, list[dict[str, Any]]], segs: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    rounds = []
    for x in chain:
        srow, vrow = x["s"], x["v"]
        result = _result(vrow)
        reasoning = srow.get("reasoning") or ""
        from ibench.generate.extract import split_reasoning

        try:
            _, final = split_reasoning(srow.get("response") or "", "think")
        except Exception:  # noqa: BLE001 - the raw response is shown then
            final = srow.get("response") or ""
        rounds.append({
            "round": srow["round"], "sample_id": srow["sample_id"], "model": srow.get("model"),
            "verdict": vrow["verdict"] if vrow else None, "score": vrow["score"] if vrow else None,
            "message": vrow["message"] if vrow else "", "judge_wall_s": vrow["judge_wall_s"] if vrow else None,
            "warnings": _loads(vrow["warnings_json"], []) if vrow else [],
            "prompt": _messages(srow.get("prompt")), "answer": final, "reasoning": reasoning,
            "reasoning_tokens": srow.get("reasoning_tokens"), "completion_tokens": srow.get("completion_tokens"),
            "prompt_tokens": srow.get("prompt_tokens"), "finish_reason": srow.get("finish_reason"),
            "language": srow.get("language"), "code": srow.get("code"), "extract_error": srow.get("extract_error"),
            "error": srow.get("error"), "source": srow.get("source"), "latency_s": srow.get("latency_s"),
            "compile": result.to_dict(full=True)["compile"] if result else {},
            "cases": [_case_view(cr) for cr in cases_by.get(srow["sample_id"], [])],
            "behaviors": segs.get(srow["sample_id"]),
        })
    return {"run": r_label, "task": task, "index": index, "rounds": rounds}


def _write_run(r: RunLog, i: int, data: Path, tick: Callable[[int], None]) -> tuple[dict[str, Any], list[dict], int]:
    """Write run ``i``'s sample files and plots; (run entry, task rows, bytes written)."""
    s, v, c = r.current()
    entry = _run_entry(r, i)
    rdir = data / f"r{i}"
    (rdir / "plots").mkdir(parents=True, exist_ok=True)
    plots = []
    for png in sorted((r.run_dir / "plots").glob("*.png")) if (r.run_dir / "plots").is_dir() else []:
        shutil.copy2(png, rdir / "plots" / png.name)
        plots.append(f"data/r{i}/plots/{png.name}")
    beh = _behavior_summary(r.run_dir)
    if beh and beh.get("png"):
        shutil.copy2(beh["png"], rdir / "plots" / "behaviors.png")
        beh["png"] = f"data/r{i}/plots/behaviors.png"
    entry["plots"], entry["behaviors"] = plots, beh

    cases_by: dict[str, list[dict[str, Any]]] = defaultdict(list)
    if c.height:
        for row in c.sort("sample_id", "case").iter_rows(named=True):
            cases_by[row["sample_id"]].append(row)
    segs = _behavior_segments(r.run_dir)
    chains = _chains(s, v)
    info = {t["task_id"]: t for t in (r.summary.get("tasks") or [])}
    per_task: dict[str, list[tuple[int, list]]] = defaultdict(list)
    written = 0
    for (task, index), chain in sorted(chains.items()):
        f = rdir / "s" / slug(task) / f"{index}.js"
        key = f"r{i}/{task}/{index}"
        written += _write_js(f, key, _sample_doc(r.label, task, index, chain, cases_by, segs))
        per_task[task].append((index, [x["v"]["verdict"] if x["v"] else None for x in chain]))
        tick(1)
    rows = []
    for task in sorted(set(per_task) | set(info)):
        t = info.get(task, {})
        rows.append({"id": task, "f": slug(task), "difficulty": t.get("difficulty"),
                     "categories": t.get("categories") or [], "n": t.get("n"), "c": t.get("c"),
                     "pass": {str(k): val for k, val in (t.get("pass_at") or {}).items()},
                     # one cell per sample: [index, verdict of round 1, round 2, ...]
                     "cells": [[idx, *vs] for idx, vs in sorted(per_task.get(task, []))]})
    return entry, rows, written


# -- the site -----------------------------------------------------------------------------------------
def default_out(run_dirs: Sequence[Path]) -> Path:
    if len(run_dirs) == 1:
        return Path(run_dirs[0]) / "viewer"
    return Path(os.path.commonpath([str(Path(d).resolve()) for d in run_dirs])) / "viewer_report"


def _copy_assets(out: Path) -> None:
    pkg = resources.files("ibench.results.viewer") / "assets"
    for name in ASSETS:
        (out / name).write_bytes((pkg / name).read_bytes())


def _compare(runs: Sequence[RunLog], labels: list[str]) -> dict[str, Any] | None:
    if len(runs) < 2:
        return None
    from ibench.results.runs import ReportError, compare_rows

    try:
        _, rows = compare_rows(runs, resamples=1000)
    except ReportError as e:
        return {"error": str(e), "rows": [], "labels": labels}
    return {"labels": labels, "rows": [r for r in rows if r["group"] != "task"]}


def _sweep(runs: Sequence[RunLog], data: Path) -> dict[str, Any] | None:
    if len(runs) < 2:
        return None
    from ibench.results import sweep as sw

    try:
        ks = sorted({int(k) for r in runs for k in (r.summary.get("ks") or [1])})
        # the swept key from the sweeps' own records; runs of different task sets on their common tasks
        key, loaded, note = sw.prepare(runs, ks, tokens=True)
        ks = [k for k in ks if any(r.pass_at.get(k) is not None for r in loaded)] or ks[:1]
        table = sw.rows(loaded, key, ks)
        sw.plot(loaded, key, ks, data / "sweep.png")
    except Exception as e:  # noqa: BLE001 - the sweep page says why instead
        return {"error": f"{type(e).__name__}: {e}"}
    return {"key": key, "ks": ks, "rows": table, "png": "data/sweep.png", "note": note}


def build_site(run_dirs: Sequence[str | Path], out: str | Path | None = None, progress: bool | None = None,
               console: Any = None) -> Path:
    """Write the site for ``run_dirs`` into ``out`` (default :func:`default_out`); returns its
    ``index.html``."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from ibench.results.runlog import ResultsError, find_runs, load, store_dir
    from ibench.results.runs import _labels

    if not run_dirs:
        raise ViewerError("view needs at least one run folder")
    runs = []
    try:
        for d in run_dirs:
            try:
                store_dir(d)
                found = [Path(d)]
            except ResultsError:  # a folder above run folders (a sweep's): every run below it
                found = find_runs([d])
            runs += [load(x) for x in found]
    except ResultsError as e:
        raise ViewerError(str(e)) from None
    console = console or Console(stderr=True)
    out = Path(out) if out else default_out([r.run_dir for r in runs])
    data = out / "data"
    if data.is_dir():
        shutil.rmtree(data)  # a site is rewritten whole: no stale sample files
    data.mkdir(parents=True, exist_ok=True)
    _copy_assets(out)
    labels = _labels(runs) if len(runs) > 1 else [runs[0].label]
    total = sum(r.current()[0].select(["task_id", "sample_index"]).unique().height for r in runs)
    show = console.is_terminal if progress is None else progress
    entries, tasks = [], []
    started = time.perf_counter()
    with Progress(TextColumn("viewer"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console, disable=not show, transient=True) as bar:
        job = bar.add_task("samples", total=total)
        for i, r in enumerate(runs):
            entry, rows, _ = _write_run(r, i, data, lambda n: bar.advance(job, n))
            entry["label"] = labels[i]
            entries.append(entry)
            tasks.append(rows)
    index = {"version": SITE_VERSION, "generated_at": time.strftime("%Y-%m-%d %H:%M:%S"),
             "runs": entries, "tasks": tasks, "compare": _compare(runs, labels), "sweep": _sweep(runs, data)}
    _write_js(data / "index.js", "index", index)
    if show:
        console.print(f"viewer: {total} sample(s) of {len(runs)} run(s) written in {time.perf_counter() - started:.2f} s",
                      highlight=False)
    return out / "index.html"


def site_size(out: str | Path) -> tuple[int, int]:
    """(files, bytes) of a written site."""
    n = b = 0
    for p in Path(out).rglob("*"):
        if p.is_file():
            n += 1
            b += p.stat().st_size
    return n, b


# -- one file: the W&B HTML panel ------------------------------------------------------------------------
def inline_page(index_html: str | Path) -> str:
    """The site's run and tasks pages as one HTML document (stylesheet, script and index data
    inlined, plots as data: URIs) for a W&B HTML panel, where no other file can be loaded; its
    sample pages say they cannot load (they need the site's files)."""
    import base64

    index_html = Path(index_html)
    site = index_html.parent
    data = (site / "data" / "index.js").read_text(encoding="utf-8")
    for png in sorted((site / "data").rglob("*.png")):
        rel = png.relative_to(site).as_posix()
        uri = "data:image/png;base64," + base64.b64encode(png.read_bytes()).decode()
        data = data.replace(json.dumps(rel), json.dumps(uri))

    def script(js: str) -> str:
        return "<script>" + re.sub(r"</(script)", r"<\\/\1", js, flags=re.I) + "</script>"

    html = index_html.read_text(encoding="utf-8")
    html = html.replace('<link rel="stylesheet" href="style.css">', "<style>" + (site / "style.css").read_text() + "</style>")
    html = html.replace('<script src="app.js"></script>', script((site / "app.js").read_text(encoding="utf-8")))
    return html.replace('<script src="data/index.js"></script>', script(data))


def write_for_launch(run_dir: str | Path, console: Any = None, wandb_run: Any = None) -> Path | None:
    """What a launch calls at its end with ``report.viewer=true``: the site in ``RUN/viewer``
    (progress bar on a terminal) and, given the W&B run, its run page as an HTML panel
    (``viewer/run``). Never raises: a failure is one log line, the run's results stand."""
    import logging

    try:
        index = build_site([run_dir], console=console)
    except Exception as e:  # noqa: BLE001 - the viewer is a convenience
        logging.getLogger(__name__).warning("viewer: %s: %s", type(e).__name__, e)
        return None
    if wandb_run is not None:
        try:
            import wandb

            wandb_run.log({"viewer/run": wandb.Html(inline_page(index), inject=False)})
        except Exception as e:  # noqa: BLE001
            logging.getLogger(__name__).warning("viewer: W&B HTML panel: %s: %s", type(e).__name__, e)
    return index


# -- serving -----------------------------------------------------------------------------------------
def make_server(site: str | Path, port: int = 0):
    """An HTTP server for the site on 127.0.0.1 (``port`` 0: any free one); call ``serve_forever``."""
    import functools
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *a: Any) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(site))
    return ThreadingHTTPServer(("127.0.0.1", port), handler)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ibench.results view",
                                 description="Write a self-contained static site to look into runs (opens "
                                             "from file://; --serve serves it on 127.0.0.1).")
    ap.add_argument("runs", nargs="+", help="run folders, or folders above them such as a sweep's (two or more "
                                            "runs: the compare and sweep pages)")
    ap.add_argument("--out", help="site folder (default: RUN/viewer, or <common folder>/viewer_report)")
    ap.add_argument("--serve", action="store_true", help="serve the site on 127.0.0.1 and print its URL")
    ap.add_argument("--port", type=int, default=0, help="port for --serve (default: a free one)")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        index = build_site(args.runs, args.out, progress=False if args.no_progress else None)
    except ViewerError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"viewer: {index.resolve().as_uri()}", flush=True)
    if args.serve:
        httpd = make_server(index.parent, args.port)
        print(f"serving on http://127.0.0.1:{httpd.server_address[1]}/index.html (Ctrl-C stops)", flush=True)
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            httpd.server_close()
    return 0
