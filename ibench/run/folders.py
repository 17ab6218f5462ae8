"""A run's folder: which one a launch writes (its own, ``resume=PATH``'s, or one of the naming
before issue 22), what Hydra's files in it say, its W&B run id, and no trace of a launch that
never started."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from omegaconf import DictConfig, OmegaConf

from ibench.run.config import as_dict, legacy_run_leaf
from ibench.run.overrides import CommandLine
from ibench.run.preflight import ConfigError
from ibench.run.resume import adopt_resume, folder_settings


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


def remove_if_empty(path: Path, stop: Path) -> None:
    """rmdir ``path`` and its parents up to (not including) ``stop`` while they are empty: the
    folder Hydra made for a launch that never started leaves no trace. Never deletes a file."""
    path, stop = path.resolve(), stop.resolve()
    while path != stop and stop in path.parents:
        try:
            path.rmdir()
        except OSError:
            return
        path = path.parent


def write_hydra_files(run_dir: Path, cfg: DictConfig, overrides: list[str] | None = None) -> None:
    """What Hydra writes itself (``.hydra/config.yaml``, ``hydra.yaml``, ``overrides.yaml``),
    written into the run's folder only once the preflight has passed. A resume writes the
    folder's own settings back (its config-group choices kept in ``hydra.yaml``)."""
    from hydra.core.hydra_config import HydraConfig

    d = run_dir / ".hydra"
    d.mkdir(parents=True, exist_ok=True)
    hc = as_dict(HydraConfig.get(), resolve=False)
    if cfg.resume and (d / "hydra.yaml").is_file():
        _, choices = folder_settings(run_dir)
        hc["runtime"]["choices"].update(choices)
    OmegaConf.save(cfg, d / "config.yaml")
    OmegaConf.save(OmegaConf.create({"hydra": hc}), d / "hydra.yaml")
    OmegaConf.save(OmegaConf.create(list(overrides if overrides is not None else hc["overrides"]["task"])),
                   d / "overrides.yaml")


def adopt_folder(cfg: DictConfig, run_dir: Path, overrides: list[str]) -> tuple[DictConfig, list[str], list[str]]:
    """``resume=PATH``: (the folder's config with the command's non-identity overrides, the
    overrides the folder's run was made with plus those, notes); :class:`ConfigError` when
    PATH is no run folder or an override would change what the run measures."""
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


def legacy_folder(hydra_dir: Path, overrides: list[str]) -> Path | None:
    """The folder this command's run had under the naming before issue 22 (cut at 120
    characters plus a digest), when it exists with results and the new name does not: the same
    run resumes there, so no existing folder is orphaned."""
    from hydra.core.hydra_config import HydraConfig

    try:
        exclude = list(HydraConfig.get().job.config.override_dirname.exclude_keys)
    except Exception:  # noqa: BLE001
        return None
    old = hydra_dir.parent / legacy_run_leaf(overrides, exclude)
    if old == hydra_dir or not (old / "results").is_dir() or (hydra_dir / "results").exists():
        return None
    return old


def finished_pass_at_1(run_dir: Path) -> float | None:
    """A finished run's pass@1, from its summary (the sweep objective of a resume with nothing to do)."""
    return (json.loads((run_dir / "summary.json").read_text())["overall"]["pass_at"] or {}).get("1")
