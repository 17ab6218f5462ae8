"""A sweep's own record: every ``-m`` invocation is a sweep with an id and a folder of its own,
``outputs/sweeps/<id>/``, holding ``sweep.json`` (the id, the swept keys in order, the command's
overrides) and one folder per job below it.

The id is readable and deterministic: the swept keys' last parts and a digest of what the
command measures (its overrides less the execution settings, :func:`ibench.run.config.execution_keys`),
so the same command run again continues its own sweep, while a sweep of other tasks or another
model gets a folder of its own and never mixes with it. ``results sweep`` and the viewer take the
swept keys from this record (:func:`record_of`) instead of guessing them.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Iterable, Sequence

SWEEP_FILE = "sweep.json"
FILE_VERSION = 1


def sweep_id(swept: Sequence[str], overrides: Iterable[str]) -> str:
    """``<swept keys' last parts>-<digest of the measured overrides>``, e.g.
    ``reasoning_budget-3fa2b1c0``."""
    from ibench.run.config import digest, execution_keys, safe_name

    skip = execution_keys()
    prefixes = tuple(k for k in skip if k.endswith("."))
    measured = sorted(o for o in (str(x) for x in overrides)
                      if (k := o.partition("=")[0].lstrip("+~")) not in skip and not k.startswith(prefixes)
                      and not k.startswith(("hydra.", "hydra/")))
    names = "+".join(k.rsplit(".", 1)[-1] for k in swept) or "sweep"
    return f"{safe_name(names, 48)}-{digest(chr(10).join(measured))}"


def swept_keys_env() -> list[str]:
    from ibench.run.config import SWEEP_KEYS_ENV

    return [k for k in os.environ.get(SWEEP_KEYS_ENV, "").split(",") if k]


def write_record(sweep_dir: Path, sid: str, swept: Sequence[str], overrides: Sequence[str] | None) -> Path:
    """sweep.json in ``sweep_dir`` (kept when it exists: the same sweep continued)."""
    path = Path(sweep_dir) / SWEEP_FILE
    if path.is_file():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {"file_version": FILE_VERSION, "id": sid, "swept": list(swept),
              "overrides": None if overrides is None else [str(o) for o in overrides],
              "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(record, indent=1) + "\n")
    tmp.replace(path)
    return path


def record_of(run_dir: Path, levels: int = 4) -> dict[str, Any] | None:
    """The sweep record of a run folder: the nearest sweep.json at or above it (``levels`` up),
    with ``dir`` added; None for a run of no sweep."""
    d = Path(run_dir).resolve()
    for p in [d, *d.parents][: levels + 1]:
        f = p / SWEEP_FILE
        if f.is_file():
            try:
                rec = json.loads(f.read_text())
            except (OSError, ValueError):
                return None
            return {**rec, "dir": str(p)}
    return None


def ensure_for_job(sweep_dir: Path) -> None:
    """Each job of a multirun: its sweep's record exists (a job started where the command's
    check did not write it, e.g. on a Slurm node)."""
    from ibench.run.config import current_sweep_id

    try:
        write_record(sweep_dir, current_sweep_id(), swept_keys_env(), None)
    except OSError:
        pass
