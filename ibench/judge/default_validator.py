"""The ICPC / Kattis default output validator, with every flag, run in the judge's process.

Flags (``problem.yaml`` ``validator_flags``, ``testdata.yaml`` ``output_validator_flags``):

- ``case_sensitive``: letters compare exactly (default: case-insensitive);
- ``space_change_sensitive``: the whitespace between tokens must match byte for byte (default:
  tokens are compared, whitespace only separates them);
- ``float_relative_tolerance e``, ``float_absolute_tolerance e``, ``float_tolerance e`` (both):
  where the judge's token is a floating-point number (a decimal point or an exponent: "200"
  is not one, so "2.0e2" does not match it), the program's token must be a number within
  either tolerance (``|x - y| <= abs`` or ``|x - y| <= rel * |y|``, y the judge's value), in
  any valid formatting. Without a tolerance numbers compare as text.

Both files are read whole (the program's output is capped by the output limit it ran under);
lists of tokens compare in C first, token by token only where they differ.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from .verdict import Decision, Verdict

_NUMBER = re.compile(rb"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_SPACE_SPLIT = re.compile(rb"(\s+)")
FLAGS_WITH_VALUE = ("float_tolerance", "float_absolute_tolerance", "float_relative_tolerance")
FLAGS_ALONE = ("case_sensitive", "space_change_sensitive")


@dataclass(frozen=True)
class Flags:
    case_sensitive: bool = False
    space_change_sensitive: bool = False
    absolute: float | None = None
    relative: float | None = None

    @property
    def floats(self) -> bool:
        return self.absolute is not None or self.relative is not None


def parse_flags(flags: Sequence[str]) -> Flags:
    """The default validator's flags; ValueError naming an unknown flag or a bad value."""
    case = space = False
    absolute: float | None = None
    relative: float | None = None
    i = 0
    while i < len(flags):
        name = flags[i]
        if name in FLAGS_ALONE:
            case = case or name == "case_sensitive"
            space = space or name == "space_change_sensitive"
            i += 1
            continue
        if name not in FLAGS_WITH_VALUE:
            raise ValueError(f"unknown default-validator flag {name!r}; expected {', '.join(FLAGS_ALONE + FLAGS_WITH_VALUE)}")
        if i + 1 >= len(flags):
            raise ValueError(f"{name} needs a value")
        try:
            value = float(flags[i + 1])
        except ValueError:
            raise ValueError(f"{name} {flags[i + 1]!r}: expected a number") from None
        if not value >= 0:
            raise ValueError(f"{name} {flags[i + 1]!r}: expected a non-negative number")
        if name in ("float_tolerance", "float_absolute_tolerance"):
            absolute = value
        if name in ("float_tolerance", "float_relative_tolerance"):
            relative = value
        i += 2
    return Flags(case, space, absolute, relative)


def _show(token: bytes) -> str:
    text = token[:40].decode("utf-8", "replace")
    return repr(text + ("..." if len(token) > 40 else ""))


def _is_float_token(token: bytes) -> bool:
    """A floating-point token of the judge's: a number with a decimal point or an exponent."""
    return (b"." in token or b"e" in token or b"E" in token) and _NUMBER.fullmatch(token) is not None


def _float_ok(got: bytes, want: bytes, flags: Flags) -> bool | None:
    """None when the judge's token is not a floating-point number (compare as text); else
    whether the program's token is a number within either tolerance of it."""
    if not _is_float_token(want):
        return None
    if not _NUMBER.fullmatch(got):
        return False
    x, y = float(got), float(want)
    if not (math.isfinite(x) and math.isfinite(y)):
        return x == y
    diff = abs(x - y)
    if flags.absolute is not None and diff <= flags.absolute:
        return True
    return flags.relative is not None and diff <= flags.relative * abs(y)


def _same(got: bytes, want: bytes, flags: Flags) -> bool:
    if flags.floats:
        ok = _float_ok(got, want, flags)
        if ok is not None:
            return ok
    return got == want if flags.case_sensitive else got.lower() == want.lower()


def _first_difference(got: list[bytes], want: list[bytes], flags: Flags) -> int | None:
    """The index of the first pair of tokens that disagree (over the shorter list), or None.
    Lists equal as they are settle it in C; with a tolerance, numpy compares the numbers of
    both lists at once, and the token-by-token rule above is the reference it falls back to."""
    n = min(len(got), len(want))
    if got[:n] == want[:n]:
        return None
    if flags.floats and n > 1000:
        index = _first_difference_numpy(got[:n], want[:n], flags)
        if index is not False:
            return index  # type: ignore[return-value]
    for i in range(n):
        if got[i] != want[i] and not _same(got[i], want[i], flags):
            return i
    return None


def _first_difference_numpy(got: list[bytes], want: list[bytes], flags: Flags) -> int | None | bool:
    """Vectorised :func:`_first_difference`; False where it cannot decide (a token numpy does
    not read as the rule above does: then the reference loop decides)."""
    import numpy as np

    g, w = np.array(got), np.array(want)
    floats = np.fromiter(map(_is_float_token, want), dtype=bool, count=len(want))
    ok = np.ones(len(got), dtype=bool)
    idx = np.flatnonzero(floats)
    if len(idx):
        if (np.char.find(w[idx], b"_") >= 0).any() or (np.char.find(g[idx], b"_") >= 0).any():
            return False  # numpy reads 1_0.5 as a number, the rule does not
        try:
            y = w[idx].astype(np.float64)
            x = g[idx].astype(np.float64)
        except ValueError:
            return False
        if not (np.isfinite(x).all() and np.isfinite(y).all()):
            return False
        diff = np.abs(x - y)
        good = np.zeros(len(idx), dtype=bool)
        if flags.absolute is not None:
            good |= diff <= flags.absolute
        if flags.relative is not None:
            good |= diff <= flags.relative * np.abs(y)
        ok[idx] = good
    text = np.flatnonzero(~floats)
    if len(text):
        gt, wt = g[text], w[text]
        if not flags.case_sensitive:
            gt, wt = np.char.lower(gt), np.char.lower(wt)
        ok[text] = gt == wt
    bad = np.flatnonzero(~ok)
    if not len(bad):
        return None
    first = int(bad[0])
    # numpy reads what the rule reads for well-formed numbers; confirm the one it reports
    return first if not _same(got[first], want[first], flags) else False


def compare(output: Path, answer: Path, flags: Flags, output_limit: int | None = None) -> Decision:
    """The program's output against the judge's answer under ``flags``: OK or WA with the first
    difference; an output of ``output_limit`` bytes or more is the output limit's RE."""
    with open(output, "rb") as f:
        got_bytes = f.read() if output_limit is None else f.read(output_limit)
    if output_limit is not None and len(got_bytes) >= output_limit:
        return Decision(Verdict.RE, f"output limit exceeded ({output_limit / (1 << 20):g} MB)")
    want_bytes = answer.read_bytes()
    if flags.space_change_sensitive:
        got_parts, want_parts = _SPACE_SPLIT.split(got_bytes), _SPACE_SPLIT.split(want_bytes)
        got, want = got_parts[0::2], want_parts[0::2]
        got_seps, want_seps = got_parts[1::2], want_parts[1::2]
    else:
        got, want = got_bytes.split(), want_bytes.split()
        got_seps = want_seps = []
    first = _first_difference(got, want, flags)
    if got_seps != want_seps:
        n = min(len(got_seps), len(want_seps))
        sep = next((i for i in range(n) if got_seps[i] != want_seps[i]), n)
        if first is None or sep < first:
            if sep < n:
                return Decision(Verdict.WA, f"space change error after token {sep + 1}: expected {_show(want_seps[sep])}, "
                                            f"found {_show(got_seps[sep])}", 0.0)
            if len(got) == len(want) and first is None:
                return Decision(Verdict.WA, "space change error at the end of the output", 0.0)
    if first is not None:
        return Decision(Verdict.WA, f"token {first + 1} differs: expected {_show(want[first])}, found {_show(got[first])}", 0.0)
    if len(got) < len(want):
        rest = [t for t in want[len(got):] if t]
        if rest:
            return Decision(Verdict.WA, f"output ends after {len(got)} tokens; expected {_show(rest[0])} next", 0.0)
    if len(got) > len(want):
        rest = [t for t in got[len(want):] if t]
        if rest:
            return Decision(Verdict.WA, f"trailing output after {len(want)} tokens: {_show(rest[0])}", 0.0)
    if len(got) != len(want) or got_seps != want_seps:
        return Decision(Verdict.WA, "space change error at the end of the output", 0.0)
    return Decision(Verdict.OK, "ok", 1.0)
