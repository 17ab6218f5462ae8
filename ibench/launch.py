"""Entry point: ``python -m ibench.launch [model=qwen3-32b] [key=value ...]``.

Compose the config → build each part from it (backend, judge settings, cluster, W&B sink,
store) → run the pipeline → metrics → report. Every held resource is released in ``finally``
(W&B finished with the right exit code, so one failed job does not break a sweep).
"""

from __future__ import annotations

import json
import logging
import sys
import time
import uuid
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import hydra
from hydra.utils import instantiate
from omegaconf import DictConfig, OmegaConf

from ibench.run import config as _config  # registers the structured configs
from ibench.generate.base import Backend, SamplingSettings
from ibench.run.interrupts import RunInterrupted, interrupt_signals, reclaim_sigterm, signals_ignored, signum_of
from ibench.run.preflight import ConfigError, preflight
from ibench.run.progress import ProgressLog
from ibench.results.metrics import RunSummary, summarize
from ibench.results.store import RunStore

log = logging.getLogger("ibench.launch")

__all__ = ["ConfigError", "RunInterrupted", "main", "run"]


def _dict(node: Any, resolve: bool = True) -> dict[str, Any]:
    """A config node as a plain dict (a mapping node always converts to one)."""
    out = OmegaConf.to_container(node, resolve=resolve)
    assert isinstance(out, dict)
    return {str(k): v for k, v in out.items()}


def wandb_run_id(run_dir: Path) -> str:
    """The run folder's own W&B run id: made once, kept in ``wandb/ibench-run-id``, so every
    resume of the folder continues the same W&B run."""
    path = run_dir / "wandb" / "ibench-run-id"
    if path.is_file():
        rid = path.read_text().strip()
        if rid:
            return rid
    path.parent.mkdir(parents=True, exist_ok=True)
    rid = uuid.uuid4().hex[:16]
    path.write_text(rid + "\n")
    return rid


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


def run(cfg: DictConfig, run_dir: str | Path, console: Any = None, overrides: list[str] | None = None,
        checked: Any = None) -> RunSummary:
    """Evaluate ``cfg.model`` on ``cfg.bench``; results land in ``run_dir``.

    The preflight (:func:`ibench.run.preflight.preflight`) runs first unless ``checked`` holds its
    result: a bad setting raises :class:`ConfigError` before the folder, Ray or W&B exist. A
    SIGINT / SIGTERM (:class:`Terminated`) flushes the store, finishes W&B as interrupted and
    raises :class:`RunInterrupted`."""
    from rich.console import Console
    from rich.markup import escape

    from ibench.run.pipeline import Execution, Pipeline
    from ibench.results.report import per_task_rows, render, write_files
    from ibench.results import load as load_results
    from ibench.results.wandb_sink import WandbSink

    if console is None:
        console = Console()
        if not console.is_terminal:  # logs and CI: wide enough for the category table
            console = Console(width=170)
    checked = checked or preflight(cfg)
    quiet_libraries()
    spec, tasks = checked.spec, checked.tasks
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    started = time.time()
    resolved = _dict(cfg)
    (run_dir / "config.resolved.yaml").write_text(OmegaConf.to_yaml(OmegaConf.create(resolved)))
    file_log = logging.FileHandler(run_dir / "ibench.log")
    file_log.setFormatter(logging.Formatter("[%(asctime)s][%(name)s][%(levelname)s] - %(message)s"))
    logging.getLogger().addHandler(file_log)

    sampling = spec.sampling
    cluster = instantiate(cfg.cluster)
    backend: Backend | None = None
    store: RunStore | None = None
    pipeline: Any = None
    model_kwargs = {k: v for k, v in _dict(cfg.model).items() if k != "preflight"}
    sink = WandbSink(**_dict(cfg.wandb), config=resolved, dir=run_dir,
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
        from ibench.cluster.judging import check_isolation
        check_isolation(spec.judge, lambda line: console.print(escape(line)))
        backend = instantiate(OmegaConf.create(model_kwargs), _convert_="all")
        store = RunStore(run_dir / "results", flush_rows=p.flush_rows, flush_seconds=p.flush_seconds)
        sink.start()

        def on_progress(pr: Any) -> None:
            sink.progress(pr.as_log())
            progress_log(pr)

        pipeline = Pipeline(spec, backend, tasks, store, Execution.from_config(p), progress=p.progress and terminal,
                            on_progress=on_progress, console=console)
        # What the run measures, in full (a folder's name shows only part of a long override list).
        (run_dir / "identity.json").write_text(json.dumps(
            spec.identity(backend.name, overrides), indent=1, default=str) + "\n")
        from ibench.run.keys import spec_feedback_key
        from ibench.results import runspec

        spec_record = runspec.build(  # the whole RunSpec, versioned, at the head of the run log
            spec, spec.identity(backend.name, overrides),
            {"gen_key": pipeline.keys.gen_key, "judge_key": pipeline.keys.judge_key,
             "feedback_key": spec_feedback_key(spec)}, tasks, overrides or [])
        runspec.write(run_dir, spec_record)
        sink.record_spec(spec_record)
        console.print(f"[bold]ibench[/bold] model={escape(backend.name)} tasks={len(tasks)} "
                      f"sampling={escape(sampling.name)} run_dir={escape(str(run_dir))} "
                      f"wandb={sink.mode if sink.active else 'off'}", soft_wrap=True)
        note = banner_note(backend, tasks, sampling)
        if note:
            console.print(f"[bold]{escape(backend.name)}[/bold]: {escape(note)}")
        plan = pipeline.run()
        progress_log(pipeline.progress, force=True)
        m = cfg.metrics
        with _file_only("ibench.results.metrics"):  # its warnings: the report prints them once
            summary = summarize(backend.name, tasks, pipeline.verdicts_by_task(plan.expected), ks=list(m.ks),
                                bootstrap=m.bootstrap, confidence=m.confidence, seed=m.seed)
        # A node whose sandbox differs from the others' must be visible in the results.
        from ibench.cluster.judging import sandbox_mismatches

        verdicts = store.table("verdicts")
        verdicts = verdicts.filter(verdicts["judge_key"] == pipeline.keys.judge_key)
        summary.warnings += [f"node {n} judged in a different sandbox: {d}" for n, d in sandbox_mismatches(verdicts).items()]
        if pipeline.rounds > 1:
            summary.refine = refine_summary(verdicts, pipeline.keys.gen_key, plan.expected, pipeline.rounds)
        too_long = prompts_too_long(verdicts)
        if too_long:  # failed samples that are the setup's doing, not the model's
            summary.warnings.append(f"{too_long} sample(s) failed before generating: the prompt is longer than the "
                                    "model's context window (raise max_model_len, or leave those tasks out)")
        summary.meta = {"reasoning": spec.model.reasoning, "sampling": sampling.name,
                        "gen_key": pipeline.keys.gen_key, "judge_key": pipeline.keys.judge_key,
                        "run_dir": str(run_dir), "generated": plan.n_generate,
                        "reused_samples": plan.reused_samples, "reused_verdicts": plan.reused_verdicts,
                        "judged_now": pipeline.progress.judged, "wall_s": round(time.time() - started, 2),
                        "tasks_dir": str(cfg.bench.tasks_dir),
                        "identity": spec.identity(backend.name, overrides)}
        files = write_files(summary, run_dir)
        from ibench.results.study import run_study

        study_files, study_tables = run_study(summary, run_dir)  # C.3 / C.4 figures this run allows
        files.update(study_files)
        render(summary, console)
        sink.progress(pipeline.progress.as_log(), force=True)
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
            judged, expected = _judged_so_far(run_dir, pipeline)
            raise RunInterrupted(signum_of(interrupted), judged, expected,
                                 run_dir) from None


class _NotFrom(logging.Filter):
    def __init__(self, name: str) -> None:
        super().__init__()
        self.logger = name

    def filter(self, record: logging.LogRecord) -> bool:
        return record.name != self.logger


class _file_only:
    """Records of ``name`` reach the log files only (not the console) while inside."""

    def __init__(self, name: str) -> None:
        self.flt = _NotFrom(name)
        self.handlers: list[logging.Handler] = []

    def __enter__(self) -> "_file_only":
        self.handlers = [h for h in logging.getLogger().handlers if not isinstance(h, logging.FileHandler)]
        for h in self.handlers:
            h.addFilter(self.flt)
        return self

    def __exit__(self, *exc: Any) -> None:
        for h in self.handlers:
            h.removeFilter(self.flt)


def _judged_so_far(run_dir: Path, pipeline: Any) -> tuple[int, int]:
    """(samples of this run judged and stored, samples the run must end with)."""
    if pipeline is None:
        return 0, 0
    from ibench.results.store import read_table

    v = read_table(run_dir / "results", "verdicts")
    keys = pipeline.keys
    v = v.filter((v["gen_key"] == keys.gen_key) & (v["judge_key"] == keys.judge_key) & (v["verdict"] != "SE"))
    expected = pipeline.progress.planned_expected
    return v.height, expected


def _remove_if_empty(path: Path, stop: Path) -> None:
    """rmdir ``path`` and its parents up to (not including) ``stop`` while they are empty: the
    folder Hydra made for a launch that never started leaves no trace. Never deletes a file."""
    path, stop = path.resolve(), stop.resolve()
    while path != stop and stop in path.parents:
        try:
            path.rmdir()
        except OSError:
            return
        path = path.parent


def _write_hydra_files(run_dir: Path, cfg: DictConfig, overrides: list[str] | None = None) -> None:
    """What Hydra writes itself (``.hydra/config.yaml``, ``hydra.yaml``, ``overrides.yaml``),
    written into the run's folder only once the preflight has passed. A resume writes the
    folder's own settings back (its config-group choices kept in ``hydra.yaml``)."""
    from hydra.core.hydra_config import HydraConfig

    d = run_dir / ".hydra"
    d.mkdir(parents=True, exist_ok=True)
    hc = _dict(HydraConfig.get(), resolve=False)
    if cfg.resume and (d / "hydra.yaml").is_file():
        from ibench.run.resume import folder_settings

        _, choices = folder_settings(run_dir)
        hc["runtime"]["choices"].update(choices)
    OmegaConf.save(cfg, d / "config.yaml")
    OmegaConf.save(OmegaConf.create({"hydra": hc}), d / "hydra.yaml")
    OmegaConf.save(OmegaConf.create(list(overrides if overrides is not None else hc["overrides"]["task"])),
                   d / "overrides.yaml")


def quiet_libraries() -> None:
    """Lines no user acts on: the HTTP clients' per-request INFO lines, and Ray's notice that
    the local cluster it starts uses token authentication (it does; nothing to do)."""
    for noisy in ("httpx", "httpcore"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    logging.getLogger("ray._private.authentication.authentication_token_setup").setLevel(logging.ERROR)


def adopt_folder(cfg: DictConfig, run_dir: Path, overrides: list[str]) -> tuple[DictConfig, list[str], list[str]]:
    """``resume=PATH``: (the folder's config with the command's non-identity overrides, the
    overrides the folder's run was made with plus those, notes); :class:`ConfigError` when
    PATH is no run folder or an override would change what the run measures."""
    from ibench.run.preflight import CommandLine
    from ibench.run.resume import adopt_resume

    if not run_dir.is_dir():
        raise ConfigError(f"invalid settings:\n  resume: {cfg.resume}: not a folder (resume=PATH continues an "
                          "existing run folder)")
    with CommandLine() as cmd:
        adopted, kept, notes = adopt_resume(cfg, run_dir, overrides, cmd)
    before: list[str] = []
    path = run_dir / ".hydra" / "overrides.yaml"
    if path.is_file():
        before = [str(o) for o in OmegaConf.load(path) if not str(o).startswith("resume=")]
    keys = {o.partition("=")[0].lstrip("+~") for o in kept}
    merged = [o for o in before if o.partition("=")[0].lstrip("+~") not in keys] + kept
    return adopted, merged, notes


def _legacy_folder(hydra_dir: Path, overrides: list[str]) -> Path | None:
    """The folder this command's run had under the naming before issue 22 (cut at 120
    characters plus a digest), when it exists with results and the new name does not: the same
    run resumes there, so no existing folder is orphaned."""
    from hydra.core.hydra_config import HydraConfig

    from ibench.run.config import legacy_run_leaf

    try:
        exclude = list(HydraConfig.get().job.config.override_dirname.exclude_keys)
    except Exception:  # noqa: BLE001
        return None
    old = hydra_dir.parent / legacy_run_leaf(overrides, exclude)
    if old == hydra_dir or not (old / "results").is_dir() or (hydra_dir / "results").exists():
        return None
    return old


@hydra.main(version_base="1.3", config_path=str(_config.CONF_DIR), config_name="config")
def main(cfg: DictConfig) -> float | None:
    from hydra.core.hydra_config import HydraConfig

    from ibench.cluster.slurm import NotTheDriver
    from ibench.judge.judge import IsolationError
    from ibench.run.resume import finished
    from ibench.tasks.errors import TaskError

    hc = HydraConfig.get()
    hydra_dir = Path(hc.runtime.output_dir)
    outputs = Path(str(cfg.paths.output_dir))
    overrides = [str(o) for o in hc.overrides.task]
    overrides = [o for o in overrides if not o.startswith("resume=")]
    run_dir = Path(cfg.resume).resolve() if cfg.resume else hydra_dir
    quiet_libraries()
    notes: list[str] = []
    try:
        if cfg.resume:
            # resume=PATH: the folder's own settings are the run's; an override that would change
            # what it measures is refused (ibench.run.resume.adopt_resume).
            cfg, overrides, notes = adopt_folder(cfg, run_dir, overrides)
        if cfg.print_config:
            _remove_if_empty(hydra_dir, outputs)
            print(OmegaConf.to_yaml(OmegaConf.to_container(cfg, resolve=True)), end="")
            return None
        if not cfg.resume:
            legacy = _legacy_folder(hydra_dir, overrides)
            if legacy is not None:  # a folder named by the scheme before issue 22: the same run, resumed there
                run_dir = legacy
        checked = preflight(cfg, probed=_CLI_PROBES)  # an endpoint the command check asked is not asked again
    except (ConfigError, TaskError) as e:  # bad input: the message names the file or field
        _remove_if_empty(hydra_dir, outputs)
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    if run_dir != hydra_dir:  # resume=PATH (or a folder of the old naming): only that folder is written
        _remove_if_empty(hydra_dir, outputs)
    elif hc.mode is not None and hc.mode.name == "MULTIRUN":  # a job of a sweep: its sweep's record exists
        from ibench.results.sweeps import ensure_for_job

        ensure_for_job(Path(hc.sweep.dir))
    for line in notes:
        print(line, file=sys.stderr)
    if cfg.resume and (done := finished(run_dir, cfg, hc.overrides.task)):  # nothing to run: no Ray, no W&B run
        print(f"resume: {run_dir} is {done}; nothing to do (show it: python -m ibench.results show PATH)")
        return (json.loads((run_dir / "summary.json").read_text())["overall"]["pass_at"] or {}).get("1")
    _write_hydra_files(run_dir, cfg, overrides)
    try:
        with interrupt_signals():
            summary = run(cfg, run_dir, overrides=overrides, checked=checked)
    except NotTheDriver:  # the other ranks of a multi-node Slurm job only host Ray workers
        return None
    except RunInterrupted as e:
        print(e.line(), file=sys.stderr, flush=True)
        raise SystemExit(e.exit_code) from None
    except (ConfigError, TaskError, IsolationError) as e:
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    return summary.overall.pass_at.get(1)  # the sweep objective (e.g. for an Optuna sweeper)


# -- the command line, checked whole before Hydra runs any job ----------------------------------------
_HYDRA_ONLY = ("help", "hydra_help", "cfg", "info", "shell_completion", "experimental_rerun", "config_path",
               "config_name", "config_dir")


def sweep_jobs(overrides: list[str]) -> list[list[str]]:
    """The jobs of a multirun, as Hydra's basic sweeper makes them (one override list each)."""
    from hydra._internal.core_plugins.basic_sweeper import BasicSweeper
    from hydra.core.override_parser.overrides_parser import OverridesParser

    parsed = OverridesParser.create().parse_overrides(overrides)
    return [job for batch in BasicSweeper.split_arguments(parsed, None) for job in batch]


_CLI_PROBES: dict[tuple, str | None] = {}  # endpoint answers of this command's check, reused by its jobs


def check_command(argv: list[str], request: bool = True) -> tuple[list[list[str]], list[Any], list[str]]:
    """(the jobs, their checked configs, problems): every job of the command composed from the
    CLI overrides and preflighted (``resume=PATH``: the folder's settings), before Hydra runs
    one. A problem names the field, what was expected and the nearest valid names."""
    from hydra._internal.utils import get_args_parser
    from hydra.errors import HydraException

    from ibench.run.preflight import CommandLine, _first_lines
    from ibench.run.resume import adopt_resume
    from ibench.tasks.errors import TaskError

    args = get_args_parser().parse_args(argv)
    overrides = list(args.overrides)
    problems: list[str] = []
    jobs: list[list[str]] = [overrides]
    if args.multirun:
        try:
            jobs = sweep_jobs(overrides)
        except HydraException as exc:
            return [], [], [f"the sweep: {_first_lines(exc)}"]
    swept: set[str] = set()
    if args.multirun:
        from hydra.core.override_parser.overrides_parser import OverridesParser

        swept = {o.key_or_group for o in OverridesParser.create().parse_overrides(overrides) if o.is_sweep_override()}

    def label(job: list[str]) -> str:  # a job by its swept values
        return " ".join(o for o in job if o.partition("=")[0].lstrip("+~") in swept) or " ".join(job)

    configs: list[Any] = []
    probed: dict[tuple, str | None] = _CLI_PROBES
    tasks_cache: dict[tuple, list] = {}
    with CommandLine() as cmd:
        per_job: list[list[str]] = []
        for job in jobs:
            cfg, mine = cmd.check_overrides(job)
            if cfg is not None and not mine:
                remote = any(o.startswith("hydra/launcher=") and not o.endswith("=basic") for o in job)
                try:
                    if cfg.resume:
                        cfg, _, _ = adopt_resume(cfg, Path(str(cfg.resume)).resolve(), [
                            o for o in job if not o.startswith("resume=")], cmd)
                    if not cfg.print_config:
                        # a job sent to Slurm checks its GPUs and endpoint where it runs
                        preflight(cfg, request=request and not remote, model=not remote, probed=probed,
                                  tasks_cache=tasks_cache)
                except (ConfigError, TaskError) as e:
                    mine = [ln[2:] if ln.startswith("  ") else ln
                            for ln in str(e).removeprefix("invalid settings:").splitlines() if ln.strip()]
            configs.append(cfg)
            per_job.append(mine)
    if len(jobs) == 1:
        problems = per_job[0]
    else:
        seen: dict[str, list[int]] = {}
        for i, mine in enumerate(per_job):
            for line in mine:
                seen.setdefault(line, []).append(i)
        for line, idx in seen.items():
            if len(idx) == len(jobs):
                problems.append(f"every job: {line}")
            else:
                for i in idx:
                    problems.append(f"job {i} ({label(jobs[i])}): {line}")
    return jobs, configs, problems


def shared_ray(configs: list[Any]) -> Any:
    """One local Ray for every job of a local multirun whose jobs all start the same local one
    (each job's cluster then reuses it instead of starting its own); None otherwise."""
    from hydra.utils import instantiate

    if len(configs) < 2 or any(c is None for c in configs):
        return None
    clusters = [_dict(c.cluster) for c in configs]
    first = clusters[0]
    if any(c != first for c in clusters) or first.get("address") or not str(first.get("_target_", "")).endswith(
            "LocalCluster"):
        return None
    cluster = instantiate(OmegaConf.create(first))
    cluster.start()
    return cluster


def with_folder_choices(argv: list[str]) -> list[str]:
    """``resume=PATH``: the folder's config-group choices (``model=vllm-server``, ...) go first,
    for the groups the command does not choose itself, so that Hydra composes the folder's model
    (and its keys, e.g. ``model.base_url``, can be given) before the folder's values are adopted."""
    resume = [a for a in argv if a.startswith("resume=")]
    if not resume:
        return argv
    from hydra.core.override_parser.overrides_parser import OverridesParser

    from ibench.run.resume import IDENTITY_GROUPS, folder_settings

    try:
        path = OverridesParser.create().parse_override(resume[-1]).value()
        if not path or not Path(str(path)).is_dir():
            return argv
        _, choices = folder_settings(Path(str(path)))
    except Exception:  # noqa: BLE001 - the checks report a bad path or folder
        return argv
    given = {a.partition("=")[0].lstrip("+~") for a in argv if "=" in a}
    return [f"{g}={c}" for g, c in choices.items() if g in IDENTITY_GROUPS and g not in given] + argv


def _quote_resume(arg: str) -> str:
    """``resume=PATH`` as typed: a run folder's name holds ``=`` and ``,``, which Hydra's parser
    reads as syntax, so an unquoted path is quoted here."""
    key, sep, value = arg.partition("=")
    if key != "resume" or not sep or not value or value[0] in "'\"" or value == "null":
        return arg
    return "resume='" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def cli(argv: list[str] | None = None) -> None:
    """``python -m ibench.launch``: the whole command checked first (every job of a sweep; exit 2
    with one line per problem, nothing run, no folder made), then Hydra runs it."""
    import os

    argv = [_quote_resume(a) for a in (sys.argv[1:] if argv is None else argv)]
    sys.argv[1:] = argv  # Hydra reads them again
    from hydra._internal.utils import get_args_parser

    args = get_args_parser().parse_args(argv)
    if any(getattr(args, name, None) for name in _HYDRA_ONLY):
        main()
        return
    if not args.multirun:
        argv = with_folder_choices(argv)
        sys.argv[1:] = argv
    try:
        _jobs, configs, problems = check_command(argv)
    except Exception as exc:  # noqa: BLE001 - a fault of the check itself must not block a run
        print(f"note: the command-line check could not run ({type(exc).__name__}: {exc}); Hydra's own checks "
              "apply", file=sys.stderr)
        _jobs, configs, problems = [], [], []
    if problems:
        print("error: invalid settings:\n  " + "\n  ".join(problems), file=sys.stderr)
        raise SystemExit(2)
    cluster = None
    if args.multirun:
        from ibench.run.config import SWEEP_KEYS_ENV
        from hydra.core.override_parser.overrides_parser import OverridesParser

        swept = [o.key_or_group.lstrip("+~") for o in OverridesParser.create().parse_overrides(args.overrides)
                 if o.is_sweep_override()]
        os.environ[SWEEP_KEYS_ENV] = ",".join(swept)  # the swept keys name each job's folder
        from ibench.results import sweeps

        os.environ[sweeps.SWEEP_ID_ENV] = sid = sweeps.sweep_id(swept, args.overrides)  # the sweep's own folder
        if configs and configs[0] is not None:
            sweeps.write_record(Path(str(configs[0].paths.output_dir)) / "sweeps" / sid, sid, swept, args.overrides)
        remote = any(o.startswith("hydra/launcher=") and not o.endswith("=basic") for o in args.overrides)
        if not remote:
            quiet_libraries()
            cluster = shared_ray(configs)
    try:
        main()
    finally:
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    cli()
