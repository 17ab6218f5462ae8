"""Verdicts and their precedence (SPEC §4), encoded once.

Every place that needs to pick one label out of several — the combination of solver and
interactor outcomes inside one case, or the per-sample label over many failing cases — goes
through :func:`most_severe`, so the order below is the single source of truth.
"""

from __future__ import annotations

from enum import Enum
from typing import Iterable


class Verdict(str, Enum):
    OK = "OK"
    WA = "WA"  # protocol-compliant but wrong answer
    PE = "PE"  # protocol / format violation
    QLE = "QLE"  # query budget overrun (decided by the harness, not the interactor)
    IDLE = "IDLE"  # blocked I/O or deadlock, ended by the wall-clock cap
    TLE = "TLE"  # CPU time over the limit
    MLE = "MLE"  # peak memory over the limit
    RE = "RE"  # signal or non-zero exit of the solver
    CE = "CE"  # compile error, or no code at all
    SE = "SE"  # judge error (interactor/checker FAIL or crash): never charged to the model

    @property
    def accepted(self) -> bool:
        return self is Verdict.OK

    @property
    def is_failure_label(self) -> bool:
        """A label that counts as the model's failure (SE is the judge's, OK is success)."""
        return self not in (Verdict.OK, Verdict.SE)


# Most severe first. SE outranks everything: a sample touched by a judge error cannot be
# scored at all. Then SPEC §4: compile, runtime, resource and idle failures, then PE > QLE > WA.
SEVERITY: tuple[Verdict, ...] = (
    Verdict.SE,
    Verdict.CE,
    Verdict.RE,
    Verdict.TLE,
    Verdict.MLE,
    Verdict.IDLE,
    Verdict.PE,
    Verdict.QLE,
    Verdict.WA,
    Verdict.OK,
)
_RANK = {v: i for i, v in enumerate(SEVERITY)}

# The primary failure labels of SPEC §4, in display order (failure-composition tables).
FAILURE_LABELS: tuple[Verdict, ...] = (
    Verdict.IDLE,
    Verdict.PE,
    Verdict.QLE,
    Verdict.CE,
    Verdict.RE,
    Verdict.TLE,
    Verdict.MLE,
    Verdict.WA,
)


def most_severe(verdicts: Iterable[Verdict]) -> Verdict:
    """The label that wins among several (OK when the iterable is empty or all OK)."""
    best = Verdict.OK
    for v in verdicts:
        if _RANK[v] < _RANK[best]:
            best = v
    return best


def parse_verdict(text: str) -> Verdict:
    """Parse a verdict name, accepting the common aliases used in task manifests."""
    aliases = {"AC": "OK", "ACCEPTED": "OK", "ILE": "IDLE", "JE": "SE", "FAIL": "SE"}
    key = text.strip().upper()
    key = aliases.get(key, key)
    try:
        return Verdict(key)
    except ValueError:
        names = ", ".join(v.value for v in Verdict)
        raise ValueError(f"unknown verdict {text!r}; expected one of {names}") from None
