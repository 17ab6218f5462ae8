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


def _float_ok(got: bytes, want: bytes, flags: Flags) -> bool | None:
    """None when the judge's token is not a number (compare as text); else whether it agrees."""
    if not _NUMBER.fullmatch(want) or not any(ch in want for ch in b".eE"):
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


def compare(output: Path, answer: Path, flags: Flags, output_limit: int | None = None) -> Decision:
    """The program's output against the judge's answer under ``flags``: OK or WA with the first
    difference; an output of ``output_limit`` bytes or more is the output limit's RE."""
    with open(output, "rb") as f:
        got_bytes = f.read() if output_limit is None else f.read(output_limit)
    if output_limit is not None and len(got_bytes) >= output_limit:
        return Decision(Verdict.RE, f"output limit exceeded ({output_limit / (1 << 20):g} MB)")
    want_bytes = answer.read_bytes()
    if flags.space_change_sensitive:
        got, want = _SPACE_SPLIT.split(got_bytes), _SPACE_SPLIT.split(want_bytes)
    else:
        got, want = got_bytes.split(), want_bytes.split()
    if got == want:
        return Decision(Verdict.OK, "ok", 1.0)
    token = 0
    for i, (g, w) in enumerate(zip(got, want)):
        separator = flags.space_change_sensitive and i % 2 == 1
        if not separator:
            token += 1
        if g == w:
            continue
        if separator:
            return Decision(Verdict.WA, f"space change error after token {token}: expected {_show(w)}, found {_show(g)}", 0.0)
        if not _same(g, w, flags):
            return Decision(Verdict.WA, f"token {token} differs: expected {_show(w)}, found {_show(g)}", 0.0)
    if len(got) < len(want):
        rest = [t for t in want[len(got):] if t.strip()]
        if rest:
            return Decision(Verdict.WA, f"output ends after {token} tokens; expected {_show(rest[0])} next", 0.0)
        return Decision(Verdict.WA, "space change error at the end of the output", 0.0)
    if len(got) > len(want):
        rest = [t for t in got[len(want):] if t.strip()]
        if rest:
            return Decision(Verdict.WA, f"trailing output after {token} tokens: {_show(rest[0])}", 0.0)
        return Decision(Verdict.WA, "space change error at the end of the output", 0.0)
    return Decision(Verdict.OK, "ok", 1.0)
