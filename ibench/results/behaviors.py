"""``python -m ibench.results behaviors RUN [RUN ...] judge_model=NAME [judge_model.KEY=VALUE ...]``:
LiveOIBench's reasoning-behavior analysis on a run's stored reasoning traces.

Each sample's ``reasoning`` is cut into segments of about ``segment_tokens`` tokens (characters /
``chars_per_token``, cut at a paragraph or line end near the limit), and a judge model — a config
of ``conf/model/`` run through ibench's own backends (OpenAI-compatible or vLLM) — names the one
behavior of eight, in five groups, that describes each segment (wording: ``conf/behaviors/``,
``behaviors=NAME`` picks another file). Labels are stored next to the run, in
``RUN/behaviors/labels.jsonl`` (one line per segment the moment its answer arrives) and
``labels.parquet``, keyed by the sample, the segment, its text, the prompt's fingerprint and the
judge model's identity: a re-run classifies only what is missing.

The report, per model (run) and difficulty: the token share of each group in solved vs unsolved
samples (``shares.csv``, ``shares.md``, ``behaviors.png``; a W&B run of job type ``behaviors``
with the table and a bar chart). A judge answer naming no known behavior is stored as unparsed,
counted and shown; a sample without reasoning is skipped and counted; a request that failed is
counted and asked again by the next run.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence, cast

from ibench.results.store import fingerprint

GROUP_ORDER = ("Analysis", "Planning", "Exploration", "Implementation", "Verification")
OUT_DIR = "behaviors"


class BehaviorsError(ValueError):
    """Bad input (printed as one line, exit 2)."""


# -- settings ------------------------------------------------------------------------------------------
@dataclass
class BehaviorSettings:
    segment_tokens: int = 5000
    chars_per_token: int = 4
    temperature: float = 0.0
    max_tokens: int = 256
    max_concurrency: int | None = None
    groups: dict[str, list[str]] = field(default_factory=dict)
    descriptions: dict[str, str] = field(default_factory=dict)
    system: str = ""
    user: str = ""
    name: str = "default"

    @property
    def labels(self) -> dict[str, str]:
        """behavior → its group."""
        return {b: g for g, bs in self.groups.items() for b in bs}

    def fingerprint(self) -> str:
        return fingerprint({"segment_tokens": self.segment_tokens, "chars_per_token": self.chars_per_token,
                            "temperature": self.temperature, "groups": self.groups,
                            "descriptions": self.descriptions, "system": self.system, "user": self.user})

    def messages(self, segment: str, number: int, total: int) -> list[dict[str, str]]:
        names = list(self.labels)
        listing = "\n".join(f"- {b} ({self.labels[b]}): {self.descriptions.get(b, '')}".rstrip(": ") for b in names)
        user = self.user.format(segment=segment, segment_number=number, segments=total, behaviors=listing,
                                names=", ".join(names))
        msgs = [{"role": "system", "content": self.system}] if self.system else []
        return msgs + [{"role": "user", "content": user}]


def load_settings(name: str = "default") -> BehaviorSettings:
    from omegaconf import OmegaConf

    from ibench.run.config import CONF_DIR

    path = Path(name) if name.endswith((".yaml", ".yml")) else Path(CONF_DIR) / "behaviors" / f"{name}.yaml"
    if not path.is_file():
        have = sorted(p.stem for p in (Path(CONF_DIR) / "behaviors").glob("*.yaml"))
        raise BehaviorsError(f"behaviors={name}: no {path} (have: {', '.join(have)})")
    d = OmegaConf.to_container(OmegaConf.load(path), resolve=True)
    if not isinstance(d, dict):
        raise BehaviorsError(f"{path}: expected a mapping of settings, not a {type(d).__name__}")
    known = set(BehaviorSettings.__dataclass_fields__)
    unknown = sorted(set(d) - known)
    if unknown:
        raise BehaviorsError(f"{path}: unknown key(s) {', '.join(unknown)}")
    s = BehaviorSettings(**{**d, "name": path.stem})
    if not s.groups:
        raise BehaviorsError(f"{path}: no behaviors (groups:) defined")
    return s


# -- segments and answers --------------------------------------------------------------------------------
def segment(text: str, max_chars: int) -> list[tuple[int, int]]:
    """Contiguous ``(start, end)`` spans covering ``text``, each at most ``max_chars`` long, cut at
    the last paragraph break, else line break, else sentence end in the window's last fifth."""
    spans: list[tuple[int, int]] = []
    n, pos = len(text), 0
    max_chars = max(1, int(max_chars))
    while pos < n:
        end = min(n, pos + max_chars)
        if end < n:
            lo = pos + int(max_chars * 0.8)
            for sep in ("\n\n", "\n", ". "):
                cut = text.rfind(sep, lo, end)
                if cut > pos:
                    end = cut + len(sep)
                    break
        spans.append((pos, end))
        pos = end
    return spans


def _norm(s: str) -> str:
    return re.sub(r"[^a-z]+", "_", s.lower()).strip("_")


def parse_answer(text: str, labels: Iterable[str]) -> str | None:
    """The behavior a judge's answer names (JSON ``{"behavior": ...}``, or exactly one behavior's
    name in the text), or None."""
    labels = list(labels)
    by_norm = {_norm(b): b for b in labels}
    text = re.sub(r"<think>.*?</think>", "", text or "", flags=re.S)
    for m in re.finditer(r"\{[^{}]*\}", text):
        try:
            obj = json.loads(m.group(0))
        except ValueError:
            continue
        if isinstance(obj, dict):
            for k in ("behavior", "behaviour", "label", "category"):
                v = obj.get(k)
                if isinstance(v, str) and _norm(v) in by_norm:
                    return by_norm[_norm(v)]
    flat = "_" + _norm(text) + "_"
    found = {b for nb, b in by_norm.items() if f"_{nb}_" in flat}
    return found.pop() if len(found) == 1 else None


# -- the label store -------------------------------------------------------------------------------------
def labels_path(run_dir: Path) -> Path:
    return Path(run_dir) / OUT_DIR / "labels.jsonl"


def read_labels(run_dir: str | Path) -> list[dict[str, Any]]:
    """Every stored label row of a run (the journal and the parquet file, de-duplicated by key)."""
    run_dir = Path(run_dir)
    rows: dict[str, dict[str, Any]] = {}
    pq = run_dir / OUT_DIR / "labels.parquet"
    if pq.is_file():
        import polars as pl

        for r in pl.read_parquet(pq, glob=False).iter_rows(named=True):
            rows[r["key"]] = r
    jl = labels_path(run_dir)
    if jl.is_file():
        for line in jl.read_text(encoding="utf-8").splitlines():
            try:
                r = json.loads(line)
            except ValueError:
                break  # a torn last line
            rows[r["key"]] = r
    return list(rows.values())


def _write_parquet(run_dir: Path, rows: list[dict[str, Any]]) -> None:
    import os

    import polars as pl

    if not rows:
        return
    out = run_dir / OUT_DIR
    tmp = out / ".tmp-labels.parquet"
    pl.DataFrame(rows, infer_schema_length=None).write_parquet(tmp)
    os.replace(tmp, out / "labels.parquet")


# -- what the viewer reads -------------------------------------------------------------------------------
def segments_by_sample(run_dir: str | Path) -> dict[str, list[dict[str, Any]]]:
    """sample_id → its labelled segments ``{start, end, tokens, label, group}`` (latest prompt
    fingerprint only), for the viewer's highlighting."""
    rows = read_labels(run_dir)
    if not rows:
        return {}
    last = max(rows, key=lambda r: r.get("at") or 0)
    latest = (last["prompt_fp"], last["judge_id"])  # the latest analysis: its prompt and judge model
    out: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        if (r["prompt_fp"], r["judge_id"]) != latest:
            continue
        out.setdefault(r["sample_id"], []).append({"start": r["start"], "end": r["end"], "tokens": r["tokens"],
                                                   "label": r.get("behavior") or "", "group": r.get("group") or ""})
    for segs in out.values():
        segs.sort(key=lambda s: s["start"])
    return out


def site_summary(run_dir: str | Path) -> dict[str, Any] | None:
    """The run page's section: the shares table, the counts and the PNG (None when not analysed)."""
    d = Path(run_dir) / OUT_DIR
    if not (d / "behaviors.json").is_file():
        return None
    s = json.loads((d / "behaviors.json").read_text())
    c = s.get("counts", {})
    note = (f"judge model {s.get('judge_model')}, prompt {s.get('prompt')} ({s.get('prompt_fp')}): "
            f"{c.get('segments', 0)} segment(s) labelled, {c.get('unparsed', 0)} unparseable answer(s), "
            f"{c.get('no_reasoning', 0)} sample(s) without reasoning skipped, {c.get('failed', 0)} failed request(s)")
    png = d / "behaviors.png"
    return {"note": note, "rows": s.get("rows", []), "png": str(png) if png.is_file() else None}


# -- the report ------------------------------------------------------------------------------------------
def share_rows(model: str, rows: list[dict[str, Any]], outcome: dict[str, bool], difficulty: dict[str, str],
               settings: BehaviorSettings) -> list[dict[str, Any]]:
    """Per difficulty (``all`` first) and outcome: samples, segments, unparsed segments and each
    group's share of the labelled tokens."""
    groups = [g for g in GROUP_ORDER if g in settings.groups] + [g for g in settings.groups if g not in GROUP_ORDER]
    diffs = ["all"] + [d for d in ("Easy", "Medium", "Hard") if d in set(difficulty.values())]
    diffs += sorted(set(difficulty.values()) - set(diffs))
    out = []
    for d in diffs:
        for solved in (True, False):
            sel = [r for r in rows if r["sample_id"] in outcome and outcome[r["sample_id"]] == solved
                   and (d == "all" or difficulty.get(r["task_id"]) == d)]
            parsed = [r for r in sel if r.get("group")]
            total = sum(r["tokens"] for r in parsed)
            row: dict[str, Any] = {"model": model, "difficulty": d, "outcome": "solved" if solved else "unsolved",
                                   "samples": len({r["sample_id"] for r in sel}), "segments": len(sel),
                                   "unparsed": len(sel) - len(parsed)}
            for g in groups:
                row[g] = (sum(r["tokens"] for r in parsed if r["group"] == g) / total) if total else None
            out.append(row)
    return out


def plot(rows: list[dict[str, Any]], groups: list[str], path: Path) -> Path:
    from ibench.results.figstyle import panels, save_figure, title

    sel = [r for r in rows if r["difficulty"] == "all"]
    fig, (ax,) = panels(1, panel_size=(max(6.0, 1.3 * len(groups) * max(1, len(sel)) / 2), 3.8))
    width = 0.8 / max(1, len(sel))
    for j, r in enumerate(sel):
        ax.bar([i + j * width for i in range(len(groups))], [100 * (r[g] or 0) for g in groups], width,
               label=f"{r['model']} {r['outcome']} ({r['samples']})", hatch="" if r["outcome"] == "solved" else "//")
    ax.set_xticks([i + width * (len(sel) - 1) / 2 for i in range(len(groups))])
    ax.set_xticklabels(groups)
    ax.set_ylabel("share of reasoning tokens (%)")
    title(ax, "reasoning behaviors: solved vs unsolved samples")
    ax.legend(fontsize=8)
    return save_figure(fig, path.parent, path.stem)[0]


def _fmt(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{100 * v:.1f}%"
    return str(v)


def write_report(run_dir: Path, rows: list[dict[str, Any]], groups: list[str]) -> dict[str, Path]:
    import csv

    out = run_dir / OUT_DIR
    out.mkdir(parents=True, exist_ok=True)
    csv_path, md_path = out / "shares.csv", out / "shares.md"
    with open(csv_path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    cols = list(rows[0])
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(_fmt(r[c]) for c in cols) + " |" for r in rows]
    md_path.write_text("\n".join(lines) + "\n")
    return {"csv": csv_path, "md": md_path, "png": plot(rows, groups, out / "behaviors.png")}


def render(rows: list[dict[str, Any]], console: Any) -> None:
    from rich.markup import escape
    from rich.table import Table

    t = Table(title="reasoning behaviors: share of labelled reasoning tokens per group", title_justify="left")
    for c in rows[0]:
        t.add_column(c, justify="left" if c in ("model", "difficulty", "outcome") else "right")
    for r in rows:
        t.add_row(*(escape(_fmt(r[c])) for c in r))
    console.print(t)


def log_wandb(run: Any, rows: list[dict[str, Any]], groups: list[str], summary: dict[str, Any], png: Path,
              mode: str) -> str:
    """A W&B run (job type ``behaviors``) with the table and a bar chart; returns its mode."""
    from ibench.results.wandb_sink import WandbMode, resolve_mode

    mode = resolve_mode(mode)
    if mode == "disabled":
        return mode
    import wandb

    wcfg = (run.config or {}).get("wandb") or {}
    wrun = wandb.init(project=wcfg.get("project") or "ibench", entity=wcfg.get("entity"), group=run.label,
                      job_type="behaviors", mode=cast(WandbMode, mode), dir=str(run.run_dir / OUT_DIR),
                      config={"behaviors": summary}, reinit=True)
    cols = list(rows[0])
    header: list[str | int] = list(cols)  # wandb.Table's columns: list[str | int] (list is invariant)
    table = wandb.Table(columns=header, data=[[r[c] for c in cols] for r in rows])
    long = wandb.Table(columns=["group", "outcome", "share"],
                       data=[[g, r["outcome"], r[g]] for r in rows if r["difficulty"] == "all" for g in groups
                             if r[g] is not None])
    wrun.log({"behaviors/shares": table,
              "behaviors/chart": wandb.plot.bar(long, "group", "share", title="behavior share (all difficulties)"),
              "behaviors/plot": wandb.Image(str(png))})
    wrun.summary.update({f"behaviors/{k}": v for k, v in summary["counts"].items()})
    wrun.finish()
    return mode


# -- the command ------------------------------------------------------------------------------------------
def _judge_backend(judge_model: str, overrides: list[str], settings: BehaviorSettings) -> tuple[Any, Any]:
    from ibench.generate.backends import build_backend
    from ibench.generate.reference import ReferenceBackend
    from ibench.run.config import compose

    try:
        cfg = compose([f"model={judge_model}", *overrides])
    except Exception as e:  # noqa: BLE001 - Hydra's own message says what is wrong
        raise BehaviorsError(f"judge_model={judge_model}: {e}") from None
    backend = build_backend(cfg.model, **({"max_concurrency": settings.max_concurrency}
                                          if settings.max_concurrency else {}))
    if isinstance(backend, ReferenceBackend):
        raise BehaviorsError("judge_model=reference replays solutions: name a model config (openai-api, "
                             "vllm-server, qwen3-32b, ...)")
    return backend, cfg


def analyse(run_dirs: Sequence[str | Path], judge_model: str, overrides: Sequence[str] = (),
            behaviors: str = "default", limit: int | None = None, wandb_mode: str = "auto",
            console: Any = None) -> list[dict[str, Any]]:
    """Classify every missing segment of every run, then write and print the report; returns, per
    run, its summary (counts, rows, files)."""
    from rich.console import Console

    from ibench.generate.base import GenerationRequest, SamplingSettings, stable_seed
    from ibench.results.runlog import ResultsError, load
    from ibench.tasks.model import Task, TaskKind

    console = console or Console()
    settings = load_settings(behaviors)
    labels = settings.labels
    groups = [g for g in GROUP_ORDER if g in settings.groups] + [g for g in settings.groups if g not in GROUP_ORDER]
    prompt_fp = settings.fingerprint()
    try:
        runs = [load(d) for d in run_dirs]
    except ResultsError as e:
        raise BehaviorsError(str(e)) from None
    backend, cfg = _judge_backend(judge_model, list(overrides), settings)
    cluster = None
    results = []
    try:
        if backend.runs_in_ray:  # the vLLM backend runs in Ray actors
            from hydra.utils import instantiate

            cluster = instantiate(cfg.cluster)
            cluster.start()
        backend.setup(SamplingSettings(name="behaviors", n=1, temperature=settings.temperature,
                                       max_tokens=settings.max_tokens, seed=0))
        judge_id = fingerprint(backend.identity())
        max_chars = settings.segment_tokens * settings.chars_per_token
        for run in runs:
            s, v, _ = run.current()
            have = {r["key"] for r in read_labels(run.run_dir)}
            verdict = {r["sample_id"]: r["verdict"] for r in v.iter_rows(named=True)}
            todo: dict[str, tuple[dict[str, Any], list[dict[str, str]]]] = {}
            counts = {"samples": 0, "no_reasoning": 0, "segments": 0, "reused": 0, "classified": 0,
                      "unparsed": 0, "failed": 0}
            rows_s = sorted(s.iter_rows(named=True), key=lambda r: (r["task_id"], r["sample_index"], r["round"] or 1))
            if limit is not None:
                rows_s = rows_s[:limit]
            for srow in rows_s:
                text = srow.get("reasoning") or ""
                counts["samples"] += 1
                if not text.strip():
                    counts["no_reasoning"] += 1
                    continue
                spans = segment(text, max_chars)
                for i, (a, b) in enumerate(spans):
                    seg = text[a:b]
                    key = fingerprint([srow["sample_id"], i, fingerprint(seg), prompt_fp, judge_id])
                    counts["segments"] += 1
                    if key in have:
                        counts["reused"] += 1
                        continue
                    base = {"key": key, "sample_id": srow["sample_id"], "task_id": srow["task_id"],
                            "sample_index": int(srow["sample_index"]), "round": int(srow["round"] or 1),
                            "segment": i, "start": a, "end": b, "tokens": max(1, round((b - a) / settings.chars_per_token)),
                            "judge_model": backend.name, "judge_id": judge_id, "prompt": settings.name,
                            "prompt_fp": prompt_fp}
                    todo[key] = (base, settings.messages(seg, i + 1, len(spans)))
            if todo:
                task = Task(root=run.run_dir, task_id="behaviors", kind=TaskKind.BATCH, cpu_time_limit_ms=1,
                            memory_limit_mb=1, difficulty="Easy", categories=(), cases=())
                reqs = []
                for key, (_, msgs) in todo.items():
                    t = dataclasses.replace(task, task_id=key)
                    reqs.append(GenerationRequest(task=t, messages=msgs, indices=[0], seed=stable_seed(key)))
                jl = labels_path(run.run_dir)
                jl.parent.mkdir(parents=True, exist_ok=True)
                console.print(f"behaviors: {run.label}: {len(todo)} segment(s) to classify with {backend.name} "
                              f"({counts['reused']} already labelled)", highlight=False)
                with open(jl, "a", encoding="utf-8") as fh:
                    for c in backend.generate(reqs):
                        base = todo[c.task_id][0]
                        if c.error:
                            counts["failed"] += 1
                            continue
                        label = parse_answer(c.response, labels) or parse_answer(c.reasoning or "", labels)
                        row = {**base, "behavior": label or "", "group": labels.get(label or "", ""),
                               "parsed": label is not None, "answer": (c.response or "")[:500], "at": time.time()}
                        counts["classified"] += 1
                        fh.write(json.dumps(row, ensure_ascii=False) + "\n")
                        fh.flush()
            stored = [r for r in read_labels(run.run_dir) if r["prompt_fp"] == prompt_fp and r["judge_id"] == judge_id]
            _write_parquet(run.run_dir, read_labels(run.run_dir))
            want = {r["sample_id"] for r in rows_s}
            stored = [r for r in stored if r["sample_id"] in want]
            counts["unparsed"] = sum(1 for r in stored if not r.get("parsed"))
            counts["labelled"] = len(stored)
            difficulty = {t["task_id"]: t.get("difficulty") for t in run.summary.get("tasks") or []}
            outcome = {sid: vv == "OK" for sid, vv in verdict.items() if vv is not None and vv != "SE"}
            rows = share_rows(run.label, stored, outcome, difficulty, settings)
            files = write_report(run.run_dir, rows, groups)
            summary = {"judge_model": backend.name, "judge_id": judge_id, "prompt": settings.name,
                       "prompt_fp": prompt_fp, "segment_tokens": settings.segment_tokens,
                       "chars_per_token": settings.chars_per_token, "counts": counts, "rows": rows,
                       "files": {k: str(p) for k, p in files.items()}}
            (run.run_dir / OUT_DIR / "behaviors.json").write_text(json.dumps(summary, indent=2, default=str) + "\n")
            render(rows, console)
            console.print(f"behaviors: {run.label}: {counts['classified']} classified now, {counts['reused']} reused, "
                          f"{counts['unparsed']} unparseable answer(s), {counts['no_reasoning']} sample(s) without "
                          f"reasoning skipped, {counts['failed']} failed request(s); wrote {files['csv']}, "
                          f"{files['md']}, {files['png']}", highlight=False)
            try:
                summary["wandb"] = log_wandb(run, rows, groups, summary, files["png"], wandb_mode)
            except Exception as e:  # noqa: BLE001 - W&B is a sink: never lose the analysis to it
                console.print(f"behaviors: W&B: {type(e).__name__}: {e}", highlight=False)
            results.append(summary)
    finally:
        backend.close()
        if cluster is not None:
            cluster.stop()
    return results


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ibench.results behaviors", description=__doc__.split("\n\n")[0],
                                 epilog="judge_model=NAME is a config of conf/model/; judge_model.KEY=VALUE "
                                        "overrides its settings (e.g. judge_model.base_url=...); cluster.KEY=VALUE "
                                        "sets where a vLLM judge runs; behaviors=NAME picks "
                                        "conf/behaviors/NAME.yaml (or a .yaml path).")
    ap.add_argument("args", nargs="+", help="run folders, judge_model=NAME, judge_model.KEY=VALUE, behaviors=NAME")
    ap.add_argument("--limit", type=int, default=None, help="only the first N samples of each run (a smoke test)")
    ap.add_argument("--wandb", default="auto", help="W&B mode: auto | online | offline | disabled")
    a = ap.parse_args(list(sys.argv[1:] if argv is None else argv))
    runs, overrides, judge, behaviors = [], [], None, "default"
    for x in a.args:
        if x.startswith("judge_model="):
            judge = x.split("=", 1)[1]
        elif x.startswith("judge_model."):
            overrides.append("model." + x[len("judge_model."):])
        elif x.startswith("cluster."):  # where a vLLM judge model runs (cluster.num_gpus=1, ...)
            overrides.append(x)
        elif x.startswith("behaviors="):
            behaviors = x.split("=", 1)[1]
        else:
            runs.append(x)
    try:
        if not judge:
            raise BehaviorsError("name the judge model: judge_model=NAME (a config of conf/model/)")
        if not runs:
            raise BehaviorsError("name at least one run folder")
        analyse(runs, judge, overrides, behaviors, a.limit, a.wandb)
    except BehaviorsError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0
