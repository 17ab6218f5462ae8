"""The launch's command line, checked whole before Hydra runs any job: every job of a sweep
composed from the overrides (:class:`~ibench.run.overrides.CommandLine`) and preflighted
(``resume=PATH``: the folder's settings). A problem names the field, what was expected and the
nearest valid names; nothing is run and no folder is made.

``python -m ibench.run.check ARGS`` runs these checks of ``python -m ibench.launch ARGS`` and
nothing else (no Ray, no folder): exit 2 with one line per problem, else 0.
``slurm/ibench.sbatch`` runs it before the Ray cluster comes up, so a wrong setting, a TP × PP
the job's GPUs do not divide or weights missing on the node end the job in seconds.

Only Hydra's public API is used: the command line is read by :func:`command_args` (Hydra's own
flags, ``-m`` and the overrides, as ``hydra.main`` reads them; an option it does not know goes
to Hydra unchecked) and a sweep is expanded by :func:`sweep_jobs` from the parsed overrides, as
Hydra's basic sweeper does.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path
from typing import Any

from ibench.run.overrides import CommandLine, first_lines
from ibench.run.preflight import ConfigError, preflight
from ibench.run.resume import IDENTITY_GROUPS, adopt_resume, folder_settings

PROBES: dict[tuple, str | None] = {}  # endpoint answers of this command's check, reused by its jobs


def command_args(argv: list[str]) -> argparse.Namespace:
    """The command line as ``hydra.main`` reads it: ``overrides``, ``multirun``, and
    ``hydra_only`` (a flag Hydra answers itself, ``--cfg``, ``--help``, ``--info``, ..., or one
    this parser does not know: the command then goes to Hydra as it is)."""
    p = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    for flags in (("--help", "-h"), ("--hydra-help",), ("--version",), ("--resolve",), ("--run", "-r"),
                  ("--multirun", "-m"), ("--shell-completion", "-sc")):
        p.add_argument(*flags, action="store_true")
    for flags in (("--cfg", "-c"), ("--package", "-p"), ("--config-path", "-cp"), ("--config-name", "-cn"),
                  ("--config-dir", "-cd"), ("--experimental-rerun",)):
        p.add_argument(*flags)
    p.add_argument("--info", "-i", nargs="?", const="all")
    p.add_argument("overrides", nargs="*")
    args, unknown = p.parse_known_args(argv)
    args.hydra_only = bool(unknown) or any(getattr(args, name) for name in (
        "help", "hydra_help", "version", "shell_completion", "cfg", "info", "experimental_rerun", "config_path",
        "config_name", "config_dir"))
    return args


def sweep_jobs(overrides: list[str]) -> list[list[str]]:
    """The jobs of a multirun, as Hydra's basic sweeper makes them (one override list each: the
    product of every swept key's values, keys in their first order, a repeated key's last value)."""
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    choices: dict[str, list[str]] = {}
    for o in OverridesParser.create().parse_overrides(overrides):
        key = o.get_key_element()
        if not o.is_sweep_override():
            choices[key] = [f"{key}={o.get_value_element_as_str()}"]
        elif o.is_discrete_sweep():
            choices[key] = [f"{key}={v}" for v in o.sweep_string_iterator()]
        else:
            raise HydraException(f"the basic sweeper does not sweep a {o.value_type.name if o.value_type else 'range'}")
    return [list(job) for job in itertools.product(*choices.values())]


def swept_keys(overrides: list[str]) -> list[str]:
    """The keys a multirun sweeps, in the command's order."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    return [o.key_or_group.lstrip("+~") for o in OverridesParser.create().parse_overrides(overrides)
            if o.is_sweep_override()]


def remote(overrides: list[str]) -> bool:
    """Jobs sent to another launcher than the local one (Slurm): they check their GPUs and endpoint where they run."""
    return any(o.startswith("hydra/launcher=") and not o.endswith("=basic") for o in overrides)


def _problems_of(job: list[str], cfg: Any, cmd: CommandLine, request: bool, tasks_cache: dict) -> tuple[Any, list[str]]:
    """(the job's config, adopted from its folder for ``resume=PATH``; its problems)."""
    from ibench.tasks.errors import TaskError

    try:
        if cfg.resume:
            cfg, _, _ = adopt_resume(cfg, Path(str(cfg.resume)).resolve(),
                                     [o for o in job if not o.startswith("resume=")], cmd)
        if not cfg.print_config:
            far = remote(job)
            preflight(cfg, request=request and not far, model=not far, probed=PROBES, tasks_cache=tasks_cache)
        return cfg, []
    except (ConfigError, TaskError) as e:
        return cfg, [ln[2:] if ln.startswith("  ") else ln
                     for ln in str(e).removeprefix("invalid settings:").splitlines() if ln.strip()]


def check_command(argv: list[str], request: bool = True) -> tuple[list[list[str]], list[Any], list[str]]:
    """(the jobs, their checked configs, problems): every job of the command composed from the
    CLI overrides and preflighted, before Hydra runs one; a problem of every job is said once."""
    from hydra.errors import HydraException

    args = command_args(argv)
    overrides = list(args.overrides)
    jobs: list[list[str]] = [overrides]
    swept: set[str] = set()
    if args.multirun:
        try:
            jobs = sweep_jobs(overrides)
        except HydraException as exc:
            return [], [], [f"the sweep: {first_lines(exc)}"]
        swept = set(swept_keys(overrides))

    def label(job: list[str]) -> str:  # a job by its swept values
        return " ".join(o for o in job if o.partition("=")[0].lstrip("+~") in swept) or " ".join(job)

    configs: list[Any] = []
    per_job: list[list[str]] = []
    tasks_cache: dict[tuple, list] = {}
    with CommandLine() as cmd:
        for job in jobs:
            cfg, mine = cmd.check_overrides(job)
            if cfg is not None and not mine:
                cfg, mine = _problems_of(job, cfg, cmd, request, tasks_cache)
            configs.append(cfg)
            per_job.append(mine)
    if len(jobs) == 1:
        return jobs, configs, per_job[0]
    seen: dict[str, list[int]] = {}
    for i, mine in enumerate(per_job):
        for line in mine:
            seen.setdefault(line, []).append(i)
    problems: list[str] = []
    for line, idx in seen.items():
        if len(idx) == len(jobs):
            problems.append(f"every job: {line}")
        else:
            problems += [f"job {i} ({label(jobs[i])}): {line}" for i in idx]
    return jobs, configs, problems


def with_folder_choices(argv: list[str]) -> list[str]:
    """``resume=PATH``: the folder's config-group choices (``model=vllm-server``, ...) go first,
    for the groups the command does not choose itself, so that Hydra composes the folder's model
    (and its keys, e.g. ``model.base_url``, can be given) before the folder's values are adopted."""
    resume = [a for a in argv if a.startswith("resume=")]
    if not resume:
        return argv
    from hydra.core.override_parser.overrides_parser import OverridesParser

    try:
        path = OverridesParser.create().parse_override(resume[-1]).value()
        if not path or not Path(str(path)).is_dir():
            return argv
        _, choices = folder_settings(Path(str(path)))
    except Exception:  # noqa: BLE001 - the checks report a bad path or folder
        return argv
    given = {a.partition("=")[0].lstrip("+~") for a in argv if "=" in a}
    return [f"{g}={c}" for g, c in choices.items() if g in IDENTITY_GROUPS and g not in given] + argv


def quote_resume(arg: str) -> str:
    """``resume=PATH`` as typed: a run folder's name holds ``=`` and ``,``, which Hydra's parser
    reads as syntax, so an unquoted path is quoted here."""
    key, sep, value = arg.partition("=")
    if key != "resume" or not sep or not value or value[0] in "'\"" or value == "null":
        return arg
    return "resume='" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def main(argv: list[str] | None = None) -> int:
    """``python -m ibench.run.check ARGS`` (see the module's docstring)."""
    argv = [quote_resume(a) for a in (sys.argv[1:] if argv is None else argv)]  # as the launch reads them
    parsed = command_args(argv)
    if parsed.hydra_only:
        return 0  # --cfg, --help, ...: Hydra's own answers, nothing to check
    jobs, _, problems = check_command(argv if parsed.multirun else with_folder_choices(argv))
    if problems:
        print("error: invalid settings:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 2
    print(f"preflight: {len(jobs)} job(s) checked, no problem")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
