"""``resume=PATH``: a run folder's own settings are the run's.

The folder's config (``.hydra/config.yaml``, its config-group choices in ``.hydra/hydra.yaml``)
is composed again; the command's overrides apply only where they change where or how the run
executes or what its report shows (:data:`RESUME_ALLOWED`), never what it measures — such an
override is refused, naming it (:func:`adopt_resume`).
"""

from __future__ import annotations

from typing import Any

from omegaconf import DictConfig, OmegaConf

from ibench.run.config import GROUP_SCHEMAS, resume_allowed_keys, setting_roles
from ibench.roles import EXECUTION
from ibench.run.overrides import CommandLine, config_node, first_lines
from ibench.run.preflight import ConfigError

# Settings a resume may change: they change where or how a run executes, or what its report
# shows, or how far it goes (more refinement rounds), never a sample or a verdict — derived from
# each field's role (ibench.run.keys.role; patterns: a key, or a prefix ending in `.`).
RESUME_ALLOWED = (*resume_allowed_keys(), "hydra.", "hydra/")
# Groups whose choice is part of what a run measures (a resume keeps the folder's).
IDENTITY_GROUPS = ("model", "sampling", "prompt", "feedback", "judge", "bench")


def resume_allowed(key: str) -> bool:
    """Whether a resume may change ``key``: it, or the dict setting or group it is under, is allowed."""
    parts = key.split(".")
    under = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
    return any(p in under or (p.endswith((".", "/")) and key.startswith(p)) for p in RESUME_ALLOWED)


def allowed_text() -> str:
    """What a resume may change, for people: a group whose every setting is execution as
    ``group.*``, the rest one key each."""
    roles = setting_roles()
    whole = [g for g in GROUP_SCHEMAS if roles.get(g) == EXECUTION]
    keys = [p for p in RESUME_ALLOWED if "." in p and not p.endswith(".") and p.split(".")[0] not in whole]
    return ", ".join([f"{g}.*" for g in whole] + keys)



def folder_settings(run_dir: Any) -> tuple[dict, dict[str, str]]:
    """(the config a run folder was made with, its config-group choices): ``.hydra/config.yaml``
    and ``.hydra/hydra.yaml`` (written by every launch that passed the preflight), else
    ``config.resolved.yaml`` with the choices read from the names it records."""
    from pathlib import Path

    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise ConfigError(f"invalid settings:\n  resume: {run_dir}: not a folder (resume=PATH continues an existing "
                          "run folder)")
    hydra_cfg, hydra_yaml = run_dir / ".hydra" / "config.yaml", run_dir / ".hydra" / "hydra.yaml"
    resolved = run_dir / "config.resolved.yaml"
    if hydra_cfg.is_file():
        saved = OmegaConf.to_container(OmegaConf.load(hydra_cfg), resolve=False)
    elif resolved.is_file():
        saved = OmegaConf.to_container(OmegaConf.load(resolved), resolve=False)
    else:
        raise ConfigError(f"invalid settings:\n  resume: {run_dir}: no .hydra/config.yaml or config.resolved.yaml; "
                          "resume=PATH continues a run folder that a launch made")
    choices: dict[str, str] = {}
    if hydra_yaml.is_file():
        try:
            raw: Any = OmegaConf.to_container(OmegaConf.load(hydra_yaml), resolve=False)
            got = ((raw or {}).get("hydra") or {}).get("runtime", {}).get("choices") or {}
            choices = {str(k): str(v) for k, v in got.items() if v is not None and not str(k).startswith("hydra/")}
        except Exception:  # noqa: BLE001 - then the names below
            choices = {}
    assert isinstance(saved, dict)
    for group in IDENTITY_GROUPS + ("cluster", "wandb"):
        if group not in choices and isinstance(saved.get(group), dict) and saved[group].get("name"):
            choices[group] = str(saved[group]["name"])
    return saved, choices


def _merge_leafwise(base: DictConfig, saved: Any, path: str, dropped: list[str]) -> None:
    """Merge ``saved`` into ``base`` in place; keys the schema no longer has are skipped and named."""
    try:
        merged: Any = OmegaConf.merge(OmegaConf.select(base, path) if path else base, saved)
        if path:
            OmegaConf.update(base, path, merged, merge=False)
        else:
            for k in merged.keys():
                base[k] = merged[k]
        return
    except Exception:  # noqa: BLE001 - one key at a time
        pass
    if not isinstance(saved, dict):
        dropped.append(path)
        return
    for k, v in saved.items():
        sub = f"{path}.{k}" if path else str(k)
        if config_node(base, sub) is None:
            dropped.append(sub)
            continue
        _merge_leafwise(base, v, sub, dropped)


def _plain_value(cfg: DictConfig, key: str) -> Any:
    try:
        v = OmegaConf.select(cfg, key, throw_on_missing=False)
    except Exception as exc:  # noqa: BLE001 - an interpolation that does not resolve here
        return f"<{type(exc).__name__}>"
    return OmegaConf.to_container(v, resolve=True) if OmegaConf.is_config(v) else v


def adopt_resume(current: DictConfig, run_dir: Any, overrides: list[str], cmd: "CommandLine") -> tuple[DictConfig, list[str], list[str]]:
    """The config of ``resume=PATH``: the folder's own (its group choices composed, then its saved
    values), with the command's non-identity overrides applied. Returns (config, the command's
    overrides kept, notes). An override that would change what the run measures raises
    :class:`ConfigError` naming it and listing what a resume may change."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    saved, choices = folder_settings(run_dir)
    group_overrides = [f"{g}={c}" for g, c in choices.items() if cmd.group_options(g) is not None]
    try:
        base = cmd.compose(group_overrides)
    except Exception as exc:  # noqa: BLE001 - a config the folder names no longer exists
        raise ConfigError(f"invalid settings:\n  resume: {run_dir} was made with {', '.join(group_overrides)}, "
                          f"which no longer compose: {first_lines(exc)}") from None
    dropped: list[str] = []
    for k, v in saved.items():
        if k in ("resume", "print_config", "hydra"):
            continue
        if config_node(base, str(k)) is None:
            dropped.append(str(k))
            continue
        _merge_leafwise(base, v, str(k), dropped)
    parser = OverridesParser.create()
    conflicts, kept = [], []
    for text in overrides:
        o = parser.parse_override(text)
        key = o.key_or_group
        if resume_allowed(key):
            kept.append(text)
            continue
        if cmd.group_options(key) is not None:
            have = choices.get(key)
            if str(o.value()) != have:
                conflicts.append(f"{text}: the folder's run has {key}={have}")
            continue
        mine, theirs = _plain_value(current, key), _plain_value(base, key)
        if mine != theirs:
            conflicts.append(f"{text}: the folder's run has {key}={theirs!r}")
    if conflicts:
        allowed = allowed_text()
        raise ConfigError(
            f"invalid settings:\n  resume: {run_dir} continues its own run, made with the settings in its "
            ".hydra/config.yaml; these overrides would change what it measures:\n    " + "\n    ".join(conflicts)
            + f"\n  drop them (the folder's values apply), or start a new run without resume=. A resume may "
            f"change: {allowed}")
    for text in kept:  # the command's own values of what a resume may change
        o = parser.parse_override(text)
        key = o.key_or_group
        if key.startswith("hydra") or o.is_delete():
            continue
        if cmd.group_options(key) is not None:
            base[key] = current[key]
        else:
            node = OmegaConf.select(current, key, throw_on_missing=False)
            OmegaConf.update(base, key, node, merge=False, force_add=True)
    base.resume = current.resume
    base.print_config = current.print_config
    notes = [f"resume: the settings of {run_dir} (" + ", ".join(f"{g}={c}" for g, c in choices.items()
                                                            if g in IDENTITY_GROUPS) + ")"]
    notes += _spec_notes(run_dir)
    if dropped:
        notes.append(f"resume: settings the folder has and this version does not: {', '.join(dropped)} (left out)")
    return base, kept, notes


def _spec_notes(run_dir: Any) -> list[str]:
    """What the folder's spec.json says (ibench.results.runspec): its keys' version must be this
    ibench's (else nothing stored would be reused: refused), the code that made it is named."""
    from pathlib import Path

    from ibench.run.keys import KEY_VERSION
    from ibench.results import runspec

    try:
        rec = runspec.read(Path(run_dir))
    except runspec.SpecError as exc:
        raise ConfigError(f"invalid settings:\n  resume: {exc}") from None
    if rec is None:
        return []
    if rec.get("key_version") not in (None, KEY_VERSION):
        raise ConfigError(f"invalid settings:\n  resume: {run_dir} was keyed with key version {rec['key_version']}; this "
                          f"ibench computes version {KEY_VERSION}, so nothing stored would be reused: start a new run")
    keys = rec.get("keys") or {}
    return [f"resume: its spec.json: {len(rec.get('tasks') or [])} task(s), gen key {keys.get('gen_key', '?')}, "
            f"made by {rec.get('code_version') or 'unknown code'}"]


def finished(run_dir: Any, cfg: DictConfig, overrides: Any = ()) -> str | None:
    """Why ``resume=PATH`` has nothing to do (None: it has): the folder's run finished (its
    summary.json), the command asks for no more refinement rounds than it went and no other
    report (no metrics.* or report.* override), and no sample of it waits for a retry (a failed
    request with pipeline.regenerate_failed, a judge error with pipeline.rejudge_se). Such a
    resume starts nothing: no Ray, no W&B run."""
    import json
    from pathlib import Path

    if any(str(o).lstrip("+~").startswith(("metrics.", "report.")) for o in overrides):
        return None  # the report is made again
    run_dir = Path(run_dir)
    try:
        summary = json.loads((run_dir / "summary.json").read_text())
    except (OSError, ValueError):
        return None
    meta = summary.get("meta") or {}
    went = int(((meta.get("identity") or {}).get("sampling") or {}).get("refine_rounds") or 1)
    if int(cfg.sampling.refine_rounds or 1) > went:
        return None
    if int(cfg.pipeline.rejudge_se or 0) > 0 and int(summary.get("n_judge_errors") or 0) > 0:
        return None
    if bool(cfg.pipeline.regenerate_failed):
        try:
            from ibench.results.runlog import RunLog

            samples = RunLog.open(run_dir).current()[0]
            if "error" in samples.columns and any(samples["error"].to_list()):  # a failed request, to retry
                return None
        except Exception:  # noqa: BLE001 - an unreadable store: let the run look
            return None
    return f"finished: {summary.get('n_samples', 0)} samples judged, {went} round(s)"
