"""A finished run's summary and report: the metrics over its judged samples, what the run adds
to them (refine@k, sandbox mismatches, prompts that did not fit, the run's own figures in
``meta``), then every product written from that one :class:`~ibench.results.metrics.RunSummary`:
the files, the study figures this run allows, the console tables, W&B and the viewer."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from omegaconf import DictConfig

from ibench.results.metrics import RunSummary, summarize
from ibench.results.store import RunStore
from ibench.run.spec import RunSpec

log = logging.getLogger("ibench.launch")


def prompts_too_long(verdicts: Any) -> int:
    """Samples of a verdicts table that failed because their prompt did not fit the context."""
    if verdicts is None or "message" not in getattr(verdicts, "columns", []):
        return 0
    return int(verdicts["message"].str.contains("generation failed: prompt too long", literal=True).sum())


def refine_summary(verdicts: Any, gen_key: str, expected: dict[str, int], rounds: int) -> list[dict]:
    """refine@k and the per-round failure composition of a run's samples (its judge key's
    verdicts), over the samples the run plans for."""
    from ibench.results.metrics import refine_rounds, refine_rows

    return refine_rounds(refine_rows(verdicts.filter(verdicts["gen_key"] == gen_key), expected), max_round=rounds)


class _NotFrom(logging.Filter):
    def __init__(self, name: str) -> None:
        super().__init__()
        self.logger = name

    def filter(self, record: logging.LogRecord) -> bool:
        return record.name != self.logger


class file_only:
    """Records of ``name`` reach the log files only (not the console) while inside."""

    def __init__(self, name: str) -> None:
        self.flt = _NotFrom(name)
        self.handlers: list[logging.Handler] = []

    def __enter__(self) -> "file_only":
        self.handlers = [h for h in logging.getLogger().handlers if not isinstance(h, logging.FileHandler)]
        for h in self.handlers:
            h.addFilter(self.flt)
        return self

    def __exit__(self, *exc: Any) -> None:
        for h in self.handlers:
            h.removeFilter(self.flt)


def summarize_run(cfg: DictConfig, spec: RunSpec, name: str, tasks: list, pipeline: Any, plan: Any,
                  store: RunStore, run_dir: Path, identity: dict, started: float) -> RunSummary:
    """The run's :class:`RunSummary`: metrics over the samples its plan expects (judged under its
    judge key), its warnings, refine@k over its rounds and its own figures (``meta``)."""
    from ibench.cluster.judging import sandbox_mismatches

    m = cfg.metrics
    with file_only("ibench.results.metrics"):  # its warnings: the report prints them once
        summary = summarize(name, tasks, pipeline.verdicts_by_task(plan.expected), ks=list(m.ks),
                            bootstrap=m.bootstrap, confidence=m.confidence, seed=m.seed)
    keys = pipeline.keys
    verdicts = store.table("verdicts")
    verdicts = verdicts.filter(verdicts["judge_key"] == keys.judge_key)
    # A node whose sandbox differs from the others' must be visible in the results.
    summary.warnings += [f"node {n} judged in a different sandbox: {d}" for n, d in sandbox_mismatches(verdicts).items()]
    if pipeline.rounds > 1:
        summary.refine = refine_summary(verdicts, keys.gen_key, plan.expected, pipeline.rounds)
    too_long = prompts_too_long(verdicts)
    if too_long:  # failed samples that are the setup's doing, not the model's
        summary.warnings.append(f"{too_long} sample(s) failed before generating: the prompt is longer than the "
                                "model's context window (raise max_model_len, or leave those tasks out)")
    from ibench.results.cost import cost_of_store

    # What the run spent (tokens, generation and judge seconds, money where conf/prices.yaml
    # prices the model by its label or name): summary.json, the report, W&B, the viewer.
    summary.cost = cost_of_store(store, keys.gen_key, keys.judge_key, (identity.get("label"), name, spec.model.model_id))
    summary.meta = {"reasoning": spec.model.reasoning, "sampling": spec.sampling.name,
                    "gen_key": keys.gen_key, "judge_key": keys.judge_key,
                    "run_dir": str(run_dir), "generated": plan.n_generate,
                    "reused_samples": plan.reused_samples, "reused_verdicts": plan.reused_verdicts,
                    "judged_now": pipeline.progress.judged, "wall_s": round(time.time() - started, 2),
                    "tasks_dir": str(cfg.bench.tasks_dir), "identity": identity}
    return summary


def report_run(summary: RunSummary, cfg: DictConfig, run_dir: Path, console: Any, sink: Any, store: RunStore,
               progress: Any) -> None:
    """Every product of the summary: ``summary.*``, ``per_task.csv``, ``failures.csv`` and plots,
    the study figures this run allows (C.3 / C.4), the console tables, the W&B summary (with
    the per-sample table) and, when ``report.viewer`` is set, the results viewer."""
    from ibench.results import load as load_results
    from ibench.results.report import per_task_rows, render, write_files
    from ibench.results.study import run_study

    files = write_files(summary, run_dir)
    study_files, study_tables = run_study(summary, run_dir)
    files.update(study_files)
    render(summary, console)
    sink.progress(progress.as_log(), force=True)
    store.flush()
    samples_table = None
    try:
        samples_table = load_results(run_dir).sample_table()
    except Exception as exc:  # noqa: BLE001 - the W&B viewer table is a convenience
        log.warning("per-sample table for W&B: %s", exc)
    sink.summary(summary, per_task_rows(summary), files, samples=samples_table, tables=study_tables)
    if cfg.report.viewer:  # the results viewer (docs/VIEWER.md); never fails the run
        from ibench.results.viewer import write_for_launch

        write_for_launch(run_dir, console, sink.run if sink.active else None)
