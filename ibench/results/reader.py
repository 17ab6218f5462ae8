"""A run's results as a library: ``ibench.results.load(run_dir)``.

Works whatever the run folder is called (``[``, ``]``, ``=``, ``,`` in names: the files are read
by exact path, never through polars' globbing) and while a run is still going (parts and journal
included, de-duplicated)::

    from ibench.results import load

    run = load("outputs/runs/reference/interactbench/default")
    run.verdicts.group_by("verdict").len()           # polars frames: samples, verdicts, cases
    run.summary["overall"]["pass_at"]["1"]           # summary.json as a dict; run.per_task a frame
    run.sample_table()                               # one row per sample: verdict, failing case, tails, code
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import polars as pl

from ibench.results.store import TABLES, read_table


class ResultsError(ValueError):
    """The folder is not a run folder (no results store, no summary)."""


@dataclass
class RunResults:
    run_dir: Path
    samples: pl.DataFrame
    verdicts: pl.DataFrame
    cases: pl.DataFrame
    summary: dict[str, Any] = field(default_factory=dict)  # summary.json ({} while a run goes)
    per_task: pl.DataFrame | None = None
    config: dict[str, Any] = field(default_factory=dict)  # config.resolved.yaml

    @property
    def identity(self) -> dict[str, Any]:
        """Model id, sampling and overrides of the run (``summary.json``'s ``meta.identity``)."""
        return dict((self.summary.get("meta") or {}).get("identity") or {})

    @property
    def label(self) -> str:
        ident = self.identity
        return str(ident.get("label") or self.summary.get("model") or self.run_dir.name)

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

    def sample_table(self, tail_chars: int = 400) -> pl.DataFrame:
        """One row per judged sample: task, sample, verdict, message, failing case (the first
        case that is not OK) with its both transcript tails, the compiler message and the code."""
        s, v, c = self.current()
        fails = (c.filter(pl.col("verdict") != "OK")
                 .group_by(["sample_id", "judge_key"], maintain_order=True).first()
                 .select("sample_id", "judge_key", pl.col("case").alias("failing_case"),
                         pl.col("solver_to_judge_tail").str.slice(-tail_chars).alias("solver_to_judge_tail"),
                         pl.col("judge_to_solver_tail").str.slice(-tail_chars).alias("judge_to_solver_tail")))
        out = (v.join(s.select("sample_id", "code", "source", "finish_reason", "completion_tokens"),
                      on="sample_id", how="left")
               .join(fails, on=["sample_id", "judge_key"], how="left")
               .with_columns(pl.col("result_json").map_elements(_compile_message, return_dtype=pl.String)
                             .alias("compile_message"))
               .with_columns(pl.col("round").fill_null(1))
               .select("task_id", "sample_index", "round", "verdict", "score", "message", "failing_case",
                       "solver_to_judge_tail", "judge_to_solver_tail", "compile_message", "code", "source",
                       "finish_reason", "completion_tokens", "n_cases", "n_failed_cases", "sample_id")
               .sort("task_id", "sample_index", "round"))
        return out


def _compile_message(result_json: str | None) -> str:
    try:
        return str((json.loads(result_json or "{}").get("compile") or {}).get("message") or "")
    except ValueError:
        return ""


def store_dir(run_dir: str | Path) -> Path:
    """The results store of a run folder (``<run>/results``), or the folder itself if it is one."""
    p = Path(run_dir)
    if (p / "results").is_dir():
        return p / "results"
    if any((p / f"{name}.parquet").is_file() or (p / name).is_dir() for name in TABLES):
        return p
    raise ResultsError(f"{p}: not a run folder (no results/ store)")


def load(run_dir: str | Path) -> RunResults:
    """Every table of a run (or of its ``results/`` store) as polars frames, by exact path."""
    p = Path(run_dir)
    if not p.is_dir():
        raise ResultsError(f"{p}: not a folder")
    root = store_dir(p)
    base = p if root != p else p.parent
    summary: dict[str, Any] = {}
    if (base / "summary.json").is_file():
        summary = json.loads((base / "summary.json").read_text())
    per_task = None
    if (base / "per_task.parquet").is_file():
        per_task = pl.read_parquet(base / "per_task.parquet", glob=False)
    config: dict[str, Any] = {}
    if (base / "config.resolved.yaml").is_file():
        from omegaconf import OmegaConf

        config = OmegaConf.to_container(OmegaConf.load(base / "config.resolved.yaml"), resolve=False)  # type: ignore[assignment]
    return RunResults(run_dir=base, samples=read_table(root, "samples"), verdicts=read_table(root, "verdicts"),
                      cases=read_table(root, "cases"), summary=summary, per_task=per_task, config=config)


def find_runs(dirs: Sequence[str | Path]) -> list[Path]:
    """The run folders (holding ``summary.json``) given, or found below the folders given; the
    reports' own output folders (``*_report``) are skipped. :class:`ResultsError` names a path
    that is not a folder, or a folder with no run below it."""
    found: list[Path] = []
    for d in dirs:
        d = Path(d)
        if (d / "summary.json").is_file():
            found.append(d)
            continue
        if not d.is_dir():
            raise ResultsError(f"{d}: not a folder")
        hits = [s.parent for s in sorted(d.rglob("summary.json"))
                if not any(part.endswith("_report") for part in s.relative_to(d).parts)]
        if not hits:
            raise ResultsError(f"{d}: no run folder under it (a run folder holds summary.json)")
        found += hits
    return list(dict.fromkeys(p.resolve() for p in found))
