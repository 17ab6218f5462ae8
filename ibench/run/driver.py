"""One run, from its checked settings to its report: build each part from the config (cluster,
backend, store, W&B sink, pipeline), record what the run is (``identity.json``, ``spec.json``),
run the rounds, summarise and report. Every held resource is released in ``finally`` (W&B
finished with the right exit code, so one failed job does not break a sweep)."""

from __future__ import annotations

import json
import logging
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf

from ibench.generate.base import Backend, SamplingSettings
from ibench.results.metrics import RunSummary
from ibench.results.store import RunStore
from ibench.run.config import as_dict
from ibench.run.folders import wandb_run_id
from ibench.run.interrupts import RunInterrupted, reclaim_sigterm, signals_ignored, signum_of
from ibench.run.preflight import preflight
from ibench.run.progress import ProgressLog
from ibench.run.spec import RunSpec
from ibench.run.summary import report_run, summarize_run


def quiet_libraries() -> None:
    """Lines no user acts on: the HTTP clients' per-request INFO lines, and Ray's notice that
    the local cluster it starts uses token authentication (it does; nothing to do)."""
    for noisy in ("httpx", "httpcore"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    logging.getLogger("ray._private.authentication.authentication_token_setup").setLevel(logging.ERROR)


def banner_note(backend: Backend, tasks: list, sampling: SamplingSettings) -> str:
    """What the reference model replays, and whether ``sampling.n`` applies (other backends: "")."""
    from ibench.generate.reference import ReferenceBackend

    if not isinstance(backend, ReferenceBackend):
        return ""
    sols = sum(len(backend.solutions(t)) for t in tasks)
    if backend.repeat_to_n:
        return (f"replays the {sols} known {backend.language} solution(s) of {len(tasks)} task(s), cycled to "
                f"sampling.n={sampling.n} sample(s) per task; the other sampling settings do not apply")
    return (f"replays the {sols} known {backend.language} solution(s) of {len(tasks)} task(s) as {sols} sample(s), "
            f"one per solution, so sampling.n={sampling.n} does not apply (model.repeat_to_n=true makes exactly "
            f"sampling.n samples per task, cycling the solutions)")


def record_spec(run_dir: Path, spec: RunSpec, identity: dict, keys: Any, tasks: list, overrides: list[str] | None,
                sink: Any) -> None:
    """What the run measures, in full: ``identity.json`` (a folder's name shows only part of a
    long override list) and the whole RunSpec, versioned, at the head of the run log."""
    from ibench.results import runspec
    from ibench.run.keys import spec_feedback_key

    (run_dir / "identity.json").write_text(json.dumps(identity, indent=1, default=str) + "\n")
    record = runspec.build(spec, identity, {"gen_key": keys.gen_key, "judge_key": keys.judge_key,
                                            "feedback_key": spec_feedback_key(spec)}, tasks, overrides or [])
    runspec.write(run_dir, record)
    sink.record_spec(record)


def judged_so_far(run_dir: Path, pipeline: Any) -> tuple[int, int]:
    """(samples of this run judged and stored, samples the run must end with)."""
    if pipeline is None:
        return 0, 0
    from ibench.results.store import read_table

    v = read_table(run_dir / "results", "verdicts")
    keys = pipeline.keys
    v = v.filter((v["gen_key"] == keys.gen_key) & (v["judge_key"] == keys.judge_key) & (v["verdict"] != "SE"))
    return v.height, pipeline.progress.planned_expected


def _console() -> Any:
    from rich.console import Console

    console = Console()
    return console if console.is_terminal else Console(width=170)  # logs and CI: wide enough for the tables


def run(cfg: DictConfig, run_dir: str | Path, console: Any = None, overrides: list[str] | None = None,
        checked: Any = None) -> RunSummary:
    """Evaluate ``cfg.model`` on ``cfg.bench``; results land in ``run_dir``.

    The preflight (:func:`ibench.run.preflight.preflight`) runs first unless ``checked`` holds its
    result: a bad setting raises :class:`~ibench.run.preflight.ConfigError` before the folder, Ray
    or W&B exist. A SIGINT / SIGTERM flushes the store, finishes W&B as interrupted and raises
    :class:`~ibench.run.interrupts.RunInterrupted`."""
    from hydra.utils import instantiate
    from rich.markup import escape

    from ibench.cluster.judging import check_isolation
    from ibench.generate.backends import build_backend
    from ibench.results.wandb_sink import WandbSink
    from ibench.run.pipeline import Execution, Pipeline

    console = console if console is not None else _console()
    checked = checked or preflight(cfg)
    quiet_libraries()
    spec, tasks = checked.spec, checked.tasks
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    started = time.time()
    resolved = as_dict(cfg)
    (run_dir / "config.resolved.yaml").write_text(OmegaConf.to_yaml(OmegaConf.create(resolved)))
    file_log = logging.FileHandler(run_dir / "ibench.log")
    file_log.setFormatter(logging.Formatter("[%(asctime)s][%(name)s][%(levelname)s] - %(message)s"))
    logging.getLogger().addHandler(file_log)

    cluster = instantiate(cfg.cluster)
    backend: Backend | None = None
    store: RunStore | None = None
    pipeline: Any = None
    sink = WandbSink(**as_dict(cfg.wandb), config=resolved, dir=run_dir,
                     run_id=wandb_run_id(run_dir) if cfg.wandb.mode != "disabled" else None)
    exit_code = 1
    interrupted: KeyboardInterrupt | None = None
    p = cfg.pipeline
    terminal = bool(getattr(console, "is_terminal", False))
    progress_log = ProgressLog(console, 0.0 if terminal else float(p.log_every_s))
    try:
        cluster.start()
        reclaim_sigterm()
        # Every judging node's isolation, before anything is generated; refused where
        # judge.require_isolation is set and a node has no box.
        check_isolation(spec.judge, lambda line: console.print(escape(line)))
        backend = build_backend(cfg.model)
        store = RunStore(run_dir / "results", flush_rows=p.flush_rows, flush_seconds=p.flush_seconds)
        sink.start()

        def on_progress(pr: Any) -> None:
            sink.progress(pr.as_log())
            progress_log(pr)

        pipeline = Pipeline(spec, backend, tasks, store, Execution.from_config(p), progress=p.progress and terminal,
                            on_progress=on_progress, console=console)
        identity = spec.identity(backend.name, overrides)
        record_spec(run_dir, spec, identity, pipeline.keys, tasks, overrides, sink)
        console.print(f"[bold]ibench[/bold] model={escape(backend.name)} tasks={len(tasks)} "
                      f"sampling={escape(spec.sampling.name)} run_dir={escape(str(run_dir))} "
                      f"wandb={sink.mode if sink.active else 'off'}", soft_wrap=True)
        if note := banner_note(backend, tasks, spec.sampling):
            console.print(f"[bold]{escape(backend.name)}[/bold]: {escape(note)}")
        plan = pipeline.run()
        progress_log(pipeline.progress, force=True)
        summary = summarize_run(cfg, spec, backend.name, tasks, pipeline, plan, store, run_dir, identity, started)
        report_run(summary, cfg, run_dir, console, sink, store, pipeline.progress)
        console.print(f"results: {escape(str(run_dir))}", soft_wrap=True)  # a path is never broken mid-word
        exit_code = 0
        return summary
    except KeyboardInterrupt as exc:
        interrupted = exc
        exit_code = 128 + signum_of(exc)
        raise
    finally:
        with signals_ignored() if interrupted is not None else nullcontext():
            if backend is not None:
                backend.close()
            if store is not None:
                store.close()
            sink.finish(exit_code, status="finished" if exit_code == 0 else
                        ("interrupted" if interrupted is not None else "failed"))
            cluster.stop()
            logging.getLogger().removeHandler(file_log)
            file_log.close()
        if interrupted is not None:
            judged, expected = judged_so_far(run_dir, pipeline)
            raise RunInterrupted(signum_of(interrupted), judged, expected, run_dir) from None
