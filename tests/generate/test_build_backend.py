"""One way to build a backend from its config (ibench.generate.backends.build_backend), and each
backend checks its own settings (Backend.config_problems / readiness_problems): the preflight
asks the class the config names, never its name."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from ibench.generate import reference
from ibench.generate.backends import build_backend
from ibench.generate.base import Backend
from ibench.generate.openai_backend import OpenAIBackend
from ibench.generate.reference import ReferenceBackend
from ibench.generate.vllm_backend import VLLMBackend
from ibench.run.config import compose
from ibench.run.preflight import ConfigError, preflight

REPO = Path(__file__).resolve().parents[2]


def test_build_backend_from_a_composed_model_config_and_from_a_mapping():
    cfg = compose(["model=reference"])
    backend = build_backend(cfg.model)  # model.preflight is no argument of a backend
    assert isinstance(backend, ReferenceBackend)
    plain = build_backend({"_target_": "ibench.generate.openai_backend.OpenAIBackend", "name": "m", "model": "m",
                           "max_concurrency": 16, "preflight": False}, max_concurrency=3, not_a_setting=1)
    assert isinstance(plain, OpenAIBackend) and plain.max_concurrency == 3


def test_build_backend_refuses_a_target_that_is_no_backend():
    with pytest.raises(TypeError, match="not a Backend"):
        build_backend({"_target_": "pathlib.PurePath"})


def test_each_backend_checks_its_own_settings():
    openai = compose(["model=openai-api", "model.base_url=ftp://x", "model.max_concurrency=0"]).model
    assert OpenAIBackend.config_problems(openai) == [
        "model.max_concurrency: 0; expected at least 1", "model.base_url: 'ftp://x'; expected an http:// or https:// URL"]
    vllm = compose(["model=qwen3-32b", "model.replicas=0"]).model
    assert VLLMBackend.config_problems(vllm) == ["model.replicas: 0; expected at least 1"]
    assert ReferenceBackend.config_problems(compose(["model=reference"]).model) == []


class Picky(ReferenceBackend):
    """A backend of a kind the preflight has never heard of: its own check is what counts."""

    @classmethod
    def config_problems(cls, model) -> list[str]:
        return ["model.language: picky refuses every language"]

    @classmethod
    def readiness_problems(cls, model, cluster, request=True, probed=None) -> list[str]:
        return ["model: picky is never ready"]


def test_the_preflight_asks_the_class_the_config_names(monkeypatch, tmp_path):
    monkeypatch.setattr(reference, "Picky", Picky, raising=False)
    cfg = compose(["model=reference", "model._target_=ibench.generate.reference.Picky", "wandb.mode=disabled",
                   f"paths.output_dir={tmp_path}"])
    with pytest.raises(ConfigError) as e:
        preflight(cfg, request=False)
    assert "model.language: picky refuses every language" in str(e.value)
    assert "model: picky is never ready" in str(e.value)
    cfg = compose(["model=reference", "model._target_=ibench.generate.nowhere.Backend"])
    with pytest.raises(ConfigError, match=r"model._target_: 'ibench.generate.nowhere.Backend' cannot be imported"):
        preflight(cfg, request=False)


def test_nothing_else_builds_a_backend_or_tells_backends_apart_by_name():
    """hydra's instantiate of a model config appears in build_backend alone; no module of ibench
    reads a backend's kind off its ``_target_`` string."""
    offenders = []
    for path in (REPO / "ibench").rglob("*.py"):
        if path.name == "backends.py" or "analyses" in path.parts:
            continue
        text = path.read_text()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "instantiate":
                src = ast.get_source_segment(text, node) or ""
                if "model" in src:
                    offenders.append(f"{path.relative_to(REPO)}: {src}")
        for m in re.finditer(r"endswith\(\s*[\"'][.\w]*(Reference|OpenAI|VLLM)Backend", text):
            offenders.append(f"{path.relative_to(REPO)}: {m.group(0)}")
    assert Backend.config_problems({}) == [] and not offenders, offenders
