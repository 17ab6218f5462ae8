"""The one reader of a finished (or still running) run folder: :class:`RunLog`.

Everything that reads a run back — ``ibench.results.load``, ``show`` / ``compare`` / ``sample``,
the sweep and study reports, contest scoring, the viewer and (through ``load``) the W&B sample
table — opens it here, so a run means the same thing to all of them: the same identity (one
fallback chain for label, language, prompt and variant), the same "current" rows, the same
parse of the judge's stored result.

What a run folder holds (``ibench.launch`` writes it)::

    summary.json            RunSummary.to_dict() (absent while the run goes)
    config.resolved.yaml    the run's configuration, interpolations left as written
    per_task.parquet        one row per task
    results/                the store: samples, verdicts, cases (ibench.results.store)

Files are read by exact path, never through polars' globbing (run folders may hold ``[``, ``]``,
``=``, ``,``), and each only when first asked for: a study of fifty runs that needs their
summaries never opens a cases table.

    from ibench.results import load

    run = load("outputs/runs/reference/interactbench/default")
    run.verdicts.group_by("verdict").len()           # polars frames: samples, verdicts, cases
    run.summary["overall"]["pass_at"]["1"]           # summary.json as a dict; run.per_task a frame
    run.identity.label, run.identity.language        # what the run measures, resolved once
    run.judged()[0].result.cases[0].verdict          # the judge's SampleResult, typed
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from functools import cached_property
from pathlib import Path
from typing import Any, Mapping, Sequence

import polars as pl

from ibench.judge.outcome import CaseResult, CompileInfo, SampleResult
from ibench.judge.verdict import Verdict
from ibench.results.metrics import RunSummary, refine_rows
from ibench.results.store import TABLES, SampleRecord, VerdictRecord, read_table

SUMMARY_FILE = "summary.json"
CONFIG_FILE = "config.resolved.yaml"
PER_TASK_FILE = "per_task.parquet"


class ResultsError(ValueError):
    """The folder is not a run folder (no results store, no summary), or a file in it is unreadable."""


# -- where runs are ---------------------------------------------------------------------------------
def store_dir(run_dir: str | Path) -> Path:
    """The results store of a run folder (``<run>/results``), or the folder itself if it is one."""
    p = Path(run_dir)
    if (p / "results").is_dir():
        return p / "results"
    if any((p / f"{name}.parquet").is_file() or (p / name).is_dir() for name in TABLES):
        return p
    raise ResultsError(f"{p}: not a run folder (no results/ store)")


def find_runs(dirs: Sequence[str | Path]) -> list[Path]:
    """The run folders (holding ``summary.json``) given, or found below the folders given; the
    reports' own output folders (``*_report``) are skipped. :class:`ResultsError` names a path
    that is not a folder, or a folder with no run below it."""
    found: list[Path] = []
    for d in dirs:
        d = Path(d)
        if (d / SUMMARY_FILE).is_file():
            found.append(d)
            continue
        if not d.is_dir():
            raise ResultsError(f"{d}: not a folder")
        hits = [s.parent for s in sorted(d.rglob(SUMMARY_FILE))
                if not any(part.endswith("_report") for part in s.relative_to(d).parts)]
        if not hits:
            raise ResultsError(f"{d}: no run folder under it (a run folder holds summary.json)")
        found += hits
    return list(dict.fromkeys(p.resolve() for p in found))


# -- what a run measures ------------------------------------------------------------------------------
@dataclass(frozen=True)
class RunIdentity:
    """What a run measures, each field resolved once from, in order: the identity the launch
    recorded (``summary.json`` ``meta.identity``), the run's configuration, the summary, a
    default. Runs made before the identity was recorded still get a label and a place."""

    label: str  # the model name, plus its id where they differ; the reports' series and rows
    language: str
    prompt: str
    variant: str  # interactive | batch (the batch variant)
    sampling: Mapping[str, Any]  # the sampling settings as recorded ({} before they were)
    overrides: tuple[str, ...]  # the command line's overrides
    recorded: Mapping[str, Any]  # meta.identity as written ({} before it existed), for the viewer

    @classmethod
    def resolve(cls, summary: Mapping[str, Any], config: Mapping[str, Any], run_dir: Path,
                spec: Mapping[str, Any] | None = None) -> RunIdentity:
        ident = dict((spec or {}).get("identity") or (summary.get("meta") or {}).get("identity") or {})
        bench = config.get("bench") or {}
        label = ident.get("label") or summary.get("model") or (config.get("model") or {}).get("name") or run_dir.name
        return cls(label=str(label),
                   language=str(ident.get("language") or bench.get("language") or "cpp"),
                   prompt=str(ident.get("prompt") or (config.get("prompt") or {}).get("name") or "zero_shot"),
                   variant=str(ident.get("variant") or bench.get("variant") or "interactive"),
                   sampling=dict(ident.get("sampling") or {}),
                   overrides=tuple(str(o) for o in ident.get("overrides") or ()),
                   recorded=ident)


# -- the judge's stored result ------------------------------------------------------------------------
_CASE_FIELDS = frozenset(f.name for f in fields(CaseResult))


def parse_result(text: str | None, verdict: str | None = None) -> SampleResult:
    """The judge's :class:`SampleResult` from a verdict row's ``result_json``
    (``SampleResult.to_dict(full=True)``; the cases' transcripts live in the cases table).

    Lenient with rows written by older code or by hand: a missing verdict is ``verdict`` (the
    row's own), else SE; a missing compile record is an unknown one (not ok, 0 ms). Raises
    ``ValueError`` when the text is not JSON or names no known verdict."""
    d = json.loads(text or "{}")
    if not isinstance(d, dict):
        raise ValueError(f"result_json is a {type(d).__name__}, not an object")
    comp = d.get("compile") or {}
    cases = []
    for c in d.get("cases") or ():
        kw = {k: v for k, v in c.items() if k in _CASE_FIELDS}
        kw["verdict"] = Verdict(kw.get("verdict") or Verdict.SE.value)
        cases.append(CaseResult(**kw))
    return SampleResult(
        verdict=Verdict(d.get("verdict") or verdict or Verdict.SE.value), cases=cases,
        compile=CompileInfo(ok=bool(comp.get("ok")), ms=float(comp.get("ms") or 0.0), cached=bool(comp.get("cached")),
                            message=str(comp.get("message") or ""), toolchain=str(comp.get("toolchain") or "")),
        sandbox=str(d.get("sandbox") or ""), score=d.get("score"),
        subtask_scores={str(k): float(v) for k, v in (d.get("subtask_scores") or {}).items() if v is not None},
        warnings=list(d.get("warnings") or ()), message=str(d.get("message") or ""))


@dataclass(frozen=True)
class Judged:
    """One judged sample: the stored verdict row and the judge's result it holds."""

    record: VerdictRecord
    result: SampleResult


# -- the run ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RunLog:
    """A run folder, read lazily. ``store`` is None for a folder that holds only its summary
    (the reports need no more); asking such a run for its tables raises :class:`ResultsError`."""

    run_dir: Path
    store: Path | None

    @classmethod
    def open(cls, path: str | Path) -> RunLog:
        """A run folder, or its ``results/`` store (the run is then the folder above)."""
        p = Path(path)
        if not p.is_dir():
            raise ResultsError(f"{p}: not a folder")
        try:
            root: Path | None = store_dir(p)
        except ResultsError:
            if not (p / SUMMARY_FILE).is_file():
                raise
            root = None
        return cls(run_dir=p if root != p else p.parent, store=root)

    # -- the files beside the store --
    @cached_property
    def summary(self) -> dict[str, Any]:
        """``summary.json`` as written; ``{}`` while the run goes."""
        path = self.run_dir / SUMMARY_FILE
        if not path.is_file():
            return {}
        try:
            return dict(json.loads(path.read_text()))
        except ValueError as e:
            raise ResultsError(f"{path}: not JSON ({e})") from None

    @cached_property
    def run_summary(self) -> RunSummary:
        """The summary typed (what ``show`` renders); :class:`ResultsError` while the run goes."""
        if not self.summary:
            raise ResultsError(f"{self.run_dir}: no summary.json yet")
        return RunSummary.from_dict(self.summary)

    @cached_property
    def config(self) -> dict[str, Any]:
        """``config.resolved.yaml`` as a dict (interpolations unresolved); ``{}`` without one."""
        path = self.run_dir / CONFIG_FILE
        if not path.is_file():
            return {}
        from omegaconf import OmegaConf

        data = OmegaConf.to_container(OmegaConf.load(path), resolve=False)
        return {str(k): v for k, v in data.items()} if isinstance(data, dict) else {}

    @cached_property
    def per_task(self) -> pl.DataFrame | None:
        path = self.run_dir / PER_TASK_FILE
        return pl.read_parquet(path, glob=False) if path.is_file() else None

    @cached_property
    def spec(self) -> dict[str, Any]:
        """spec.json: the whole RunSpec, versions, keys, task set, code and toolchain versions
        (:mod:`ibench.results.runspec`); a folder made before it existed is migrated once."""
        from ibench.results import runspec

        try:
            got = runspec.read(self.run_dir)
        except runspec.SpecError as exc:
            raise ResultsError(str(exc)) from None
        if got is not None:
            return got
        return runspec.migrate(self.run_dir, self.summary, self.config, persist=bool(self.summary))

    @property
    def task_ids(self) -> tuple[str, ...]:
        """The run's task set as its spec records it (ids, sorted)."""
        from ibench.results.runspec import task_ids

        return task_ids(self.spec) or tuple(sorted(t["task_id"] for t in self.summary.get("tasks") or []))

    @cached_property
    def identity(self) -> RunIdentity:
        return RunIdentity.resolve(self.summary, self.config, self.run_dir, self.spec)

    @property
    def label(self) -> str:
        return self.identity.label

    def task_dates(self) -> dict[str, str]:
        """Each task's release date: the summary's, else (runs that predate dates in the
        summary) the task card's ``meta.json`` in the run's tasks folder, where it still exists."""
        out: dict[str, str] = {}
        root = Path(str((self.summary.get("meta") or {}).get("tasks_dir") or ""))
        for t in self.summary.get("tasks", []):
            if t.get("date") is not None:
                out[t["task_id"]] = t["date"]
                continue
            card = root / t["task_id"] / "meta.json"
            if not root.is_dir() or not card.is_file():
                continue
            try:
                date = json.loads(card.read_text()).get("date")
            except ValueError:
                continue
            if isinstance(date, str):
                out[t["task_id"]] = date
        return out

    # -- the store --
    def _table(self, name: str) -> pl.DataFrame:
        if self.store is None:
            raise ResultsError(f"{self.run_dir}: not a run folder (no results/ store)")
        return read_table(self.store, name)

    @cached_property
    def samples(self) -> pl.DataFrame:
        return self._table("samples")

    @cached_property
    def verdicts(self) -> pl.DataFrame:
        return self._table("verdicts")

    @cached_property
    def cases(self) -> pl.DataFrame:
        return self._table("cases")

    def current(self) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
        """(samples, verdicts, cases) of the run's own keys (a store may also hold rows of an
        earlier configuration that shared the folder)."""
        meta = self.summary.get("meta") or {}
        s, v, c = self.samples, self.verdicts, self.cases
        if meta.get("gen_key"):
            s = s.filter(pl.col("gen_key") == meta["gen_key"])
            v = v.filter(pl.col("gen_key") == meta["gen_key"])
        if meta.get("judge_key"):
            v = v.filter(pl.col("judge_key") == meta["judge_key"])
            c = c.filter(pl.col("judge_key") == meta["judge_key"])
        return s, v, c

    def records(self) -> list[SampleRecord]:
        """The run's own samples as the store's typed records."""
        return [SampleRecord(**row) for row in self.current()[0].iter_rows(named=True)]

    def judged(self) -> list[Judged]:
        """The run's own verdicts, each with the judge's result parsed (rows whose result is not
        JSON are left out: nothing the judge writes is such a row)."""
        out = []
        for row in self.current()[1].iter_rows(named=True):
            try:
                out.append(Judged(VerdictRecord(**row), parse_result(row["result_json"], row["verdict"])))
            except ValueError:
                continue
        return out

    def result(self, sample_id: str) -> SampleResult | None:
        """The judge's result for one sample of the run; None when it is not judged yet."""
        v = self.current()[1].filter(pl.col("sample_id") == sample_id)
        if not v.height:
            return None
        row = v.row(0, named=True)
        return parse_result(row["result_json"], row["verdict"])

    def refine_rows(self) -> list[dict[str, Any]]:
        """One :func:`~ibench.results.metrics.refine_rounds` row per judged sample (task, chain,
        round, verdict) when the run has refinement rounds, else ``[]``. A run whose summary says
        it had none (``refine: []``) has none even where its folder holds another run's rounds;
        an older summary without the key leaves it to the store."""
        if self.summary.get("refine") == []:
            return []
        rows = refine_rows(self.current()[1])
        return rows if any(r["round"] > 1 for r in rows) else []

    def mean_tokens(self) -> float | None:
        """Mean generated tokens per stored sample; None without a readable store or counts."""
        try:
            df = self.samples
        except Exception:  # noqa: BLE001 - a run without a readable store has no token figure
            return None
        vals = [v for v in df["completion_tokens"].to_list() if v is not None]
        return sum(vals) / len(vals) if vals else None

    def sample_table(self, tail_chars: int = 400) -> pl.DataFrame:
        """One row per judged sample: task, sample, verdict, message, failing case (the first
        case that is not OK) with its both transcript tails, the compiler message and the code."""
        s, v, c = self.current()
        fails = (c.filter(pl.col("verdict") != "OK")
                 .group_by(["sample_id", "judge_key"], maintain_order=True).first()
                 .select("sample_id", "judge_key", pl.col("case").alias("failing_case"),
                         pl.col("solver_to_judge_tail").str.slice(-tail_chars).alias("solver_to_judge_tail"),
                         pl.col("judge_to_solver_tail").str.slice(-tail_chars).alias("judge_to_solver_tail")))
        return (v.join(s.select("sample_id", "code", "source", "finish_reason", "completion_tokens"),
                       on="sample_id", how="left")
                .join(fails, on=["sample_id", "judge_key"], how="left")
                .with_columns(pl.col("result_json").map_elements(_compile_message, return_dtype=pl.String)
                              .alias("compile_message"))
                .with_columns(pl.col("round").fill_null(1))
                .select("task_id", "sample_index", "round", "verdict", "score", "message", "failing_case",
                        "solver_to_judge_tail", "judge_to_solver_tail", "compile_message", "code", "source",
                        "finish_reason", "completion_tokens", "n_cases", "n_failed_cases", "sample_id")
                .sort("task_id", "sample_index", "round"))


def _compile_message(result_json: str | None) -> str:
    try:
        return parse_result(result_json).compile.message
    except (ValueError, TypeError):
        return ""


def load(run_dir: str | Path) -> RunLog:
    """A run with its results store (``ibench.results.load``): :class:`ResultsError` for a
    folder without one."""
    log = RunLog.open(run_dir)
    if log.store is None:
        raise ResultsError(f"{Path(run_dir)}: not a run folder (no results/ store)")
    return log
