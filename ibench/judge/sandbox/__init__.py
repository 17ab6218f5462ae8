"""The sandbox layer: what the host offers, a per-process slot, and one call that runs a case.

The native supervisor (``supervisor.c``) does the running and measuring; this module builds it
once per machine, picks the strongest isolation the host allows, and sends it each run
(``messages``: the typed :class:`RunRequest` and :class:`RunReport`). Verdicts are decided elsewhere (``ibench/judge/verdict.py``).
"""

from __future__ import annotations

from .host import Isolation, detect_isolation
from .messages import RunReport, RunRequest
from .run import Sandbox

__all__ = ["Isolation", "detect_isolation", "RunReport", "RunRequest", "Sandbox"]
