"""What a run's label may show of its overrides: the settings that change what it measures (by
their role, :func:`ibench.run.config.role_of_key`), each value normalised (Hydra's escapes undone:
``http\\://`` is ``http://``; a path by its last part; a long value cut), never an endpoint or a
credential. ``compare``, ``show DIR`` and ``study`` label runs from here, by the settings that
differ between the runs shown.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence

# Never in a label, whatever their role: where a model is served and how one gets in.
_SECRET_WORDS = {"key", "token", "secret", "password", "passwd", "auth", "header", "headers", "cookie", "url",
                 "endpoint", "address", "host"}
_ESCAPE = re.compile(r"\\(.)")


@lru_cache(maxsize=1)
def _roles() -> dict[str, str]:
    from ibench.run.config import setting_roles

    return setting_roles()


def plain_value(text: str) -> str:
    """An override's value as the user meant it: Hydra's quoting and escapes undone."""
    value = text.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1]
    return _ESCAPE.sub(r"\1", value)


def is_secret(key: str, value: str) -> bool:
    """An endpoint or a credential: never shown in a label."""
    words = set(key.lower().rsplit(".", 1)[-1].split("_"))  # api_key_env, base_url (not max_tokens)
    return bool(words & _SECRET_WORDS) or "://" in value


def short(value: str, width: int = 24) -> str:
    value = value.strip()
    if value.startswith(("/", "./", "../", "~")):
        value = value.rstrip("/").rsplit("/", 1)[-1] or value
    return value if len(value) <= width else value[: width - 1] + "…"


def labelled(overrides: Iterable[str]) -> dict[str, str]:
    """The overrides a label may show: key (``+``/``~`` dropped) -> normalised value, only the
    measured (and extent) settings, never an endpoint or credential."""
    from ibench.run.config import role_of_key
    from ibench.roles import EXECUTION

    out: dict[str, str] = {}
    roles = _roles()
    for o in overrides:
        key, _, raw = str(o).partition("=")
        key = key.strip().lstrip("+~")
        value = plain_value(raw)
        if key.startswith(("hydra.", "hydra/")) or role_of_key(key, roles) == EXECUTION or is_secret(key, value):
            continue
        out[key] = value
    return out


def differing(settings: Sequence[Mapping[str, Any]]) -> list[str]:
    """The keys whose value is not the same in every mapping (absent counts as a value)."""
    keys = sorted({k for s in settings for k in s})
    return [k for k in keys if len({str(s.get(k)) for s in settings}) > 1]
