"""The two ways a task is posed: as stated, or InteractBench C.1's batch variant. One enum, the
only list of them; like :mod:`ibench.languages` this module imports nothing else of ibench, so
``ibench.tasks``, ``ibench.generate``, ``ibench.judge`` and the run's spec
(:class:`ibench.run.spec.RunSpec`, which checks ``bench.variant`` once) all stand on it."""

from __future__ import annotations

import enum


class Variant(str, enum.Enum):
    """The tasks as stated, or InteractBench C.1's batch variant (a stdio-interactive task's
    hidden case first on the solver's stdin)."""

    INTERACTIVE = "interactive"
    BATCH = "batch"


# The variant's allowed values as the config spells them (bench.variant, judge.variant,
# expected.json "variant"): defined by :class:`Variant` alone, listed here for checks and choices.
VARIANTS: tuple[str, ...] = tuple(v.value for v in Variant)
