"""Where ibench's own files are: the repository (``$IBENCH_ROOT`` in configs, the
``${ibench.root:}`` resolver) and its ``conf/`` folder. Imports nothing else of ibench, so any
part may name a config file without importing the run's schema (:mod:`ibench.run.config`)."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
CONF_DIR = REPO_ROOT / "conf"
