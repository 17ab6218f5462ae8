"""Entry point: ``python -m ibench.launch [model=qwen3-32b] [key=value ...]``.

Compose the config → build each part from it (backend, judge settings, cluster, W&B sink,
store) → run the pipeline → metrics → report. Every held resource is released in ``finally``
(W&B finished with the right exit code, so one failed job does not break a sweep).
"""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path
from typing import Any

import hydra
from hydra.utils import instantiate
from omegaconf import DictConfig, OmegaConf

from ibench import config as _config  # registers the structured configs
from ibench.generate.base import Backend, SamplingSettings
from ibench.generate.prompt import PromptTemplate
from ibench.judge.executors import executor_class
from ibench.judge.settings import JudgeSettings
from ibench.metrics import RunSummary, summarize
from ibench.store import RunStore

log = logging.getLogger("ibench.launch")


class ConfigError(ValueError):
    """A setting that cannot work; raised before anything starts."""


def build_judge_settings(cfg: DictConfig) -> JudgeSettings:
    settings = OmegaConf.to_object(cfg.judge)
    assert isinstance(settings, JudgeSettings)
    if cfg.bench.non_adaptive_cases is not None:
        settings.non_adaptive_cases = int(cfg.bench.non_adaptive_cases)
    if cfg.bench.adaptive_cases is not None:
        settings.adaptive_cases = int(cfg.bench.adaptive_cases)
    problems = settings.problems()
    try:
        # One spelling from here on: prompts, code extraction and the reference model key on it.
        cfg.bench.language = executor_class(cfg.bench.language).language
    except ValueError as e:
        problems.append(f"bench.language: {e}")
    if problems:
        raise ConfigError("invalid settings:\n  " + "\n  ".join(problems))
    return settings


def load_bench(cfg: DictConfig) -> list:
    from ibench.tasks.load import load_tasks

    b = cfg.bench
    tasks = load_tasks(b.tasks_dir, ids=b.ids, difficulties=b.difficulties, categories=b.categories)
    if b.language != "cpp":
        # A grader-linked task links the solution with C++ code: it cannot be solved in another
        # language, so it is left out rather than charged to the model as CE.
        linked = [t.problem_id for t in tasks if t.grader_files]
        if linked:
            log.warning("bench.language=%s: left out %d grader-linked task(s) that take C++ only: %s",
                        b.language, len(linked), ", ".join(linked))
            tasks = [t for t in tasks if not t.grader_files]
    if b.limit is not None:
        tasks = tasks[: int(b.limit)]
    if not tasks:
        raise SystemExit(f"no tasks selected from {b.tasks_dir} (ids={b.ids}, difficulties={b.difficulties}, "
                         f"categories={b.categories})")
    return tasks


def run(cfg: DictConfig, run_dir: str | Path, console: Any = None) -> RunSummary:
    """Evaluate ``cfg.model`` on ``cfg.bench``; results land in ``run_dir``."""
    from rich.console import Console
    from rich.markup import escape

    from ibench.pipeline import Pipeline
    from ibench.report import per_task_rows, render, write_files
    from ibench.wandb_sink import WandbSink

    if console is None:
        console = Console()
        if not console.is_terminal:  # logs and CI: wide enough for the category table
            console = Console(width=170)
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    started = time.time()
    resolved = OmegaConf.to_container(cfg, resolve=True)
    (run_dir / "config.resolved.yaml").write_text(OmegaConf.to_yaml(OmegaConf.create(resolved)))
    if cfg.print_config:
        console.print(OmegaConf.to_yaml(resolved))

    judge_settings = build_judge_settings(cfg)
    tasks = load_bench(cfg)
    sampling = OmegaConf.to_object(cfg.sampling)
    prompt = OmegaConf.to_object(cfg.prompt)
    assert isinstance(sampling, SamplingSettings) and isinstance(prompt, PromptTemplate)
    cluster = instantiate(cfg.cluster)
    backend: Backend | None = None
    store: RunStore | None = None
    sink = WandbSink(**OmegaConf.to_container(cfg.wandb, resolve=True), config=resolved, dir=run_dir)
    exit_code = 1
    try:
        cluster.start()
        backend = instantiate(cfg.model, _convert_="all")
        store = RunStore(run_dir / "results", flush_rows=cfg.pipeline.flush_rows,
                         flush_seconds=cfg.pipeline.flush_seconds)
        sink.start()
        p = cfg.pipeline
        pipeline = Pipeline(backend, tasks, store, sampling, prompt, judge_settings, language=cfg.bench.language,
                            judge_cpus=p.judge_cpus, max_inflight=p.max_inflight, task_retries=p.task_retries,
                            rejudge_se=p.rejudge_se, regenerate_failed=p.regenerate_failed,
                            accept_untagged=cfg.bench.accept_untagged_fence, progress=p.progress,
                            on_progress=lambda pr: sink.progress(pr.as_log()), console=console)
        console.print(f"[bold]ibench[/bold] model={escape(backend.name)} tasks={len(tasks)} "
                      f"sampling={escape(sampling.name)} run_dir={escape(str(run_dir))} "
                      f"wandb={sink.mode if sink.active else 'off'}")
        plan = pipeline.run()
        m = cfg.metrics
        summary = summarize(backend.name, tasks, pipeline.verdicts_by_task(plan.expected), ks=list(m.ks),
                            bootstrap=m.bootstrap, confidence=m.confidence, seed=m.seed)
        # A node whose sandbox differs from the others' must be visible in the results.
        from ibench.cluster.judging import sandbox_mismatches

        verdicts = store.table("verdicts")
        verdicts = verdicts.filter(verdicts["judge_key"] == pipeline.keys.judge_key)
        summary.warnings += [f"node {n} judged in a different sandbox: {d}" for n, d in sandbox_mismatches(verdicts).items()]
        summary.meta = {"reasoning": bool(cfg.model.get("reasoning", False)), "sampling": sampling.name,
                        "gen_key": pipeline.keys.gen_key, "judge_key": pipeline.keys.judge_key,
                        "run_dir": str(run_dir), "generated": plan.n_generate,
                        "reused_samples": plan.reused_samples, "reused_verdicts": plan.reused_verdicts,
                        "judged_now": pipeline.progress.judged, "wall_s": round(time.time() - started, 2),
                        "tasks_dir": str(cfg.bench.tasks_dir)}
        files = write_files(summary, run_dir)
        render(summary, console)
        sink.progress(pipeline.progress.as_log(), force=True)
        sink.summary(summary, per_task_rows(summary), files)
        console.print(f"results: {escape(str(run_dir))}")
        exit_code = 0
        return summary
    finally:
        if backend is not None:
            backend.close()
        if store is not None:
            store.close()
        sink.finish(exit_code)
        cluster.stop()


@hydra.main(version_base="1.3", config_path=str(_config.CONF_DIR), config_name="config")
def main(cfg: DictConfig) -> float | None:
    from hydra.core.hydra_config import HydraConfig

    from ibench.cluster.slurm import NotTheDriver
    from ibench.tasks.errors import TaskError

    run_dir = Path(cfg.resume) if cfg.resume else Path(HydraConfig.get().runtime.output_dir)
    try:
        summary = run(cfg, run_dir)
    except NotTheDriver:  # the other ranks of a multi-node Slurm job only host Ray workers
        return None
    except (ConfigError, TaskError) as e:  # bad input: the message names the file or field
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    return summary.overall.pass_at.get(1)  # the sweep objective (e.g. for an Optuna sweeper)


if __name__ == "__main__":
    main()
