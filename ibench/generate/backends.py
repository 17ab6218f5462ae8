"""A generation backend built from its model config: the one way every caller builds one (the
launch, the LLM mutants of ``tasks probe``, the behaviour judge of ``results behaviors``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import Backend


def build_backend(model: Any, **changes: Any) -> Backend:
    """The backend a model config (``conf/model/*.yaml`` composed: a config node or a plain
    mapping) describes: the class its ``_target_`` names, built with the other settings as its
    arguments; ``preflight`` (whether the launch asks the endpoint first) is no argument of a
    backend and is left out. ``changes`` replace settings the config has (say, a smaller
    ``max_concurrency``); a setting it does not have is left alone."""
    from hydra.utils import instantiate
    from omegaconf import OmegaConf

    settings = OmegaConf.to_container(model, resolve=True) if OmegaConf.is_config(model) else dict(model)
    assert isinstance(settings, Mapping)  # a model config is a mapping
    kwargs = {str(k): v for k, v in settings.items() if k != "preflight"}
    kwargs.update({k: v for k, v in changes.items() if k in kwargs})
    backend = instantiate(OmegaConf.create(kwargs), _convert_="all")
    if not isinstance(backend, Backend):
        raise TypeError(f"model._target_ {kwargs.get('_target_')!r} built a {type(backend).__name__}, not a Backend")
    return backend
