"""What a ``-m`` command sets up before Hydra runs its jobs: the sweep's id and record (its own
folder under ``outputs/sweeps/``, its swept keys), the swept keys each job's folder is named by,
and one local Ray that every job of a local sweep shares."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from omegaconf import OmegaConf

from ibench.run.check import remote, swept_keys
from ibench.run.config import SWEEP_ID_ENV, SWEEP_KEYS_ENV, as_dict


def shared_ray(configs: list[Any]) -> Any:
    """One local Ray for every job of a local multirun whose jobs all start the same local one
    (each job's cluster then reuses it instead of starting its own); None otherwise."""
    from hydra.utils import instantiate

    if len(configs) < 2 or any(c is None for c in configs):
        return None
    clusters = [as_dict(c.cluster) for c in configs]
    first = clusters[0]
    if any(c != first for c in clusters) or first.get("address") or not str(first.get("_target_", "")).endswith(
            "LocalCluster"):
        return None
    cluster = instantiate(OmegaConf.create(first))
    cluster.start()
    return cluster


def begin(overrides: list[str], configs: list[Any]) -> Any:
    """The sweep's environment and record; the shared local Ray it starts (stop it after the
    jobs), or None."""
    from ibench.results import sweeps

    swept = swept_keys(overrides)
    os.environ[SWEEP_KEYS_ENV] = ",".join(swept)  # the swept keys name each job's folder
    os.environ[SWEEP_ID_ENV] = sid = sweeps.sweep_id(swept, overrides)  # the sweep's own folder
    if configs and configs[0] is not None:
        sweeps.write_record(Path(str(configs[0].paths.output_dir)) / "sweeps" / sid, sid, swept, overrides)
    return None if remote(overrides) else shared_ray(configs)
