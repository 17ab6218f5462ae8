"""Entry point: ``python -m ibench.launch [model=qwen3-32b] [key=value ...]``.

The whole command is checked first (:mod:`ibench.run.check`: every job of a sweep; exit 2 with
one line per problem, nothing run, no folder made); then Hydra composes each job and
:func:`main` picks its folder (its own, ``resume=PATH``'s, or one of the older naming), runs it
(:func:`ibench.run.driver.run`) and returns its pass@1, the sweep objective. Everything behind
this lives in :mod:`ibench.run`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import hydra
from omegaconf import DictConfig, OmegaConf

from ibench.run import config as _config  # registers the structured configs
from ibench.run.check import PROBES, check_command, command_args, quote_resume, with_folder_choices
from ibench.run.driver import quiet_libraries, run
from ibench.run.folders import (adopt_folder, finished_pass_at_1, legacy_folder, remove_if_empty,
                                write_hydra_files)
from ibench.run.interrupts import RunInterrupted, interrupt_signals
from ibench.run.preflight import ConfigError, preflight

__all__ = ["cli", "main"]


@hydra.main(version_base="1.3", config_path=str(_config.CONF_DIR), config_name="config")
def main(cfg: DictConfig) -> float | None:
    """One job: its folder, its preflight (exit 2 on a bad setting, the folder removed), its run."""
    from hydra.core.hydra_config import HydraConfig

    from ibench.cluster.slurm import NotTheDriver
    from ibench.generate.rephrase import RephraseError
    from ibench.judge.judge import IsolationError
    from ibench.run.resume import finished
    from ibench.tasks.errors import TaskError

    hc = HydraConfig.get()
    hydra_dir = Path(hc.runtime.output_dir)
    outputs = Path(str(cfg.paths.output_dir))
    overrides = [o for o in map(str, hc.overrides.task) if not o.startswith("resume=")]
    run_dir = Path(cfg.resume).resolve() if cfg.resume else hydra_dir
    quiet_libraries()
    notes: list[str] = []
    try:
        if cfg.resume:  # the folder's own settings are the run's; a change of what it measures is refused
            cfg, overrides, notes = adopt_folder(cfg, run_dir, overrides)
        if cfg.print_config:
            remove_if_empty(hydra_dir, outputs)
            print(OmegaConf.to_yaml(OmegaConf.to_container(cfg, resolve=True)), end="")
            return None
        if not cfg.resume and (legacy := legacy_folder(hydra_dir, overrides)) is not None:
            run_dir = legacy  # a folder named by the scheme before issue 22: the same run, resumed there
        checked = preflight(cfg, probed=PROBES)  # an endpoint the command check asked is not asked again
    except (ConfigError, TaskError) as e:  # bad input: the message names the file or field
        remove_if_empty(hydra_dir, outputs)
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    if run_dir != hydra_dir:  # resume=PATH (or a folder of the old naming): only that folder is written
        remove_if_empty(hydra_dir, outputs)
    elif hc.mode is not None and hc.mode.name == "MULTIRUN":  # a job of a sweep: its sweep's record exists
        from ibench.results.sweeps import ensure_for_job

        ensure_for_job(Path(hc.sweep.dir))
    for line in notes:
        print(line, file=sys.stderr)
    if cfg.resume and (done := finished(run_dir, cfg, hc.overrides.task)):  # nothing to run: no Ray, no W&B run
        print(f"resume: {run_dir} is {done}; nothing to do (show it: python -m ibench.results show PATH)")
        return finished_pass_at_1(run_dir)
    write_hydra_files(run_dir, cfg, overrides)
    try:
        with interrupt_signals():
            summary = run(cfg, run_dir, overrides=overrides, checked=checked)
    except NotTheDriver:  # the other ranks of a multi-node Slurm job only host Ray workers
        return None
    except RunInterrupted as e:
        print(e.line(), file=sys.stderr, flush=True)
        raise SystemExit(e.exit_code) from None
    except (ConfigError, TaskError, IsolationError, RephraseError) as e:  # the run could not start: one line
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    return summary.overall.pass_at.get(1)  # the sweep objective (e.g. for an Optuna sweeper)


def cli(argv: list[str] | None = None) -> None:
    """``python -m ibench.launch``: the whole command checked first, then Hydra runs it."""
    from ibench.run import multirun

    argv = [quote_resume(a) for a in (sys.argv[1:] if argv is None else argv)]
    sys.argv[1:] = argv  # Hydra reads them again
    args = command_args(argv)
    if args.hydra_only:  # --help, --cfg, ...: Hydra's own answers
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
        configs, problems = [], []
    if problems:
        print("error: invalid settings:\n  " + "\n  ".join(problems), file=sys.stderr)
        raise SystemExit(2)
    quiet_libraries()
    cluster = multirun.begin(args.overrides, configs) if args.multirun else None
    try:
        main()
    finally:
        if cluster is not None:
            cluster.stop()


if __name__ == "__main__":
    cli()
