"""What a setting is, and how a settings record enters a key: the marks and the rule every
settings class of ibench uses (sampling, prompt, feedback, judge, the model configs).

Every settings field carries one role, marked once in its own dataclass
(``field(metadata={"role": ...})`` through :func:`role`); the key rules (:attr:`Keyed.left_out`,
:func:`left_out_of`), the run folder's name (``exclude_keys``,
:func:`ibench.run.config.execution_keys`) and what a resume may change
(:data:`ibench.run.resume.RESUME_ALLOWED`) are all derived from it.

The rule (:class:`Keyed`): each settings record names the fields its key held when that key was
first computed (``base``: always hashed) and the fields that say how or where rather than what
(``left_out``: never hashed, derived from each field's role, :func:`mark_of`). Every other field
is hashed only when it differs from its default. So adding a setting never changes an existing
key, and a run that uses its default keeps its keys; a run that sets it gets keys of its own.

This module imports nothing else of ibench, so ``ibench.generate``, ``ibench.judge`` and
``ibench.run`` may all stand on it (each settings class keeps its own rule; the run's keys are
:mod:`ibench.run.keys`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import json
from dataclasses import dataclass, field
from typing import Any


# -- hashes ---------------------------------------------------------------------------------------
def fingerprint(obj: Any, length: int = 16) -> str:
    """A stable short hash of a JSON-able object (dict keys sorted)."""
    blob = json.dumps(obj, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()[:length]


def short_hash(parts: Any, length: int, ascii_only: bool) -> str:
    # How the prompt's (UTF-8), the example's and the feedback's (ASCII escapes) hashes were
    # first serialised: part of those keys, so kept.
    return hashlib.sha256(json.dumps(parts, ensure_ascii=ascii_only, sort_keys=True).encode()).hexdigest()[:length]


# -- what a setting is: its role, marked once ----------------------------------------------------
MEASURED = "measured"  # changes what a run measures: hashed into its key, in its folder's name; resume refuses a change
EXECUTION = "execution"  # where or how it runs, or what its report shows: none of those; resume accepts a change
EXTENT = "extent"  # how far a run goes (refinement rounds: each round has keys of its own): in the folder's name,
#                    never hashed; a resume may raise it
LABEL = "label"  # a name for people (a preset's name): never hashed; names the folder; a resume keeps it
ROLES = (MEASURED, EXECUTION, EXTENT, LABEL)


def role(role_: str, default: Any = dataclasses.MISSING, *, factory: Any = dataclasses.MISSING,
         hashed: bool = True) -> Any:
    """A settings field with its role. ``hashed=False`` on a measured field: it enters the keys
    another way (say so where it is marked)."""
    if role_ not in ROLES:
        raise ValueError(f"unknown role {role_!r}; expected one of {', '.join(ROLES)}")
    meta = {"role": role_} if hashed else {"role": role_, "hashed": False}
    if factory is not dataclasses.MISSING:
        return field(default_factory=factory, metadata=meta)
    return field(default=default, metadata=meta)


class UnmarkedField(LookupError):
    """A settings field without a role."""


def mark_of(cls: type, name: str, strict: bool = False) -> tuple[str, bool]:
    """(the role of ``cls``'s field ``name``, whether it is hashed into the key). A field marked
    nowhere counts as measured (the safe side: its own folder, refused by a resume, hashed off its
    default, as every later field was before the marks); ``strict``: raise
    :class:`UnmarkedField` instead (tests/results/test_roles.py walks every field so)."""
    fields_ = {f.name: f for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else {}
    meta = fields_[name].metadata if name in fields_ else {}
    if "role" in meta:
        return str(meta["role"]), bool(meta.get("hashed", True)) and meta["role"] == MEASURED
    if strict:
        raise UnmarkedField(f"{cls.__name__}.{name} has no role (mark it with ibench.roles.role: "
                            f"{', '.join(ROLES)})")
    return MEASURED, True


def left_out_of(cls: type) -> tuple[str, ...]:
    """The fields of ``cls`` never hashed into its key: every one not measured, or measured but
    entering the keys another way."""
    return tuple(f.name for f in dataclasses.fields(cls) if not mark_of(cls, f.name)[1])


# -- the rule -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Keyed:
    """How one settings record enters its key (see the module docstring)."""

    base: tuple[str, ...]  # hashed always, in this order where the key is a list
    left_out: tuple[str, ...] = ()  # never hashed
    # name -> fields hashed together, as one list under ``name``, when ``name`` is off its default
    groups: dict[str, tuple[str, ...]] = field(default_factory=dict)
    constants: dict[str, tuple[Any, ...]] = field(default_factory=dict)  # appended to a group's list


def defaults_of(obj: Any) -> dict[str, Any]:
    if dataclasses.is_dataclass(obj):
        out = {}
        for f in dataclasses.fields(obj):
            if f.default is not dataclasses.MISSING:
                out[f.name] = f.default
            elif f.default_factory is not dataclasses.MISSING:
                out[f.name] = f.default_factory()
        return out
    return {name: p.default for name, p in inspect.signature(type(obj).__init__).parameters.items()
            if p.default is not inspect.Parameter.empty}


def _names(obj: Any) -> list[str]:
    if dataclasses.is_dataclass(obj):
        return [f.name for f in dataclasses.fields(obj)]
    return [n for n in inspect.signature(type(obj).__init__).parameters if n != "self" and hasattr(obj, n)]


def plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str)) if isinstance(value, (dict, list, tuple)) else value


def keyed(obj: Any, rule: Keyed) -> tuple[list[Any], dict[str, Any]]:
    """(the base fields' values in order, every other field off its default by name)."""
    defaults = defaults_of(obj)
    grouped = {f for fields_ in rule.groups.values() for f in fields_}
    base = [plain(getattr(obj, name)) for name in rule.base]
    extra: dict[str, Any] = {}
    for name in _names(obj):
        if name in rule.base or name in rule.left_out or (name in grouped and name not in rule.groups):
            continue
        value = getattr(obj, name)
        if name in defaults and value == defaults[name]:
            continue
        if name in rule.groups:
            extra[name] = [plain(getattr(obj, f)) for f in rule.groups[name]] + list(rule.constants.get(name, ()))
        else:
            extra[name] = plain(value)
    return base, extra


def keyed_dict(obj: Any, rule: Keyed) -> dict[str, Any]:
    base, extra = keyed(obj, rule)
    return {**dict(zip(rule.base, base)), **extra}
