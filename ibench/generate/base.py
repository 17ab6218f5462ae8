"""The generation interface: what a backend receives and what it returns.

A backend turns :class:`GenerationRequest` objects (one per task, with the sample indices still
missing) into :class:`Completion` objects (one per sample), yielded as they finish so that the
pipeline can start judging while generation goes on. Everything a backend records about one
sample lives in :class:`Completion`; code extraction is applied afterwards, in one place
(:func:`ibench.generate.extract.extract_code`), for every backend alike.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from ibench.tasks.model import Task
from ibench.roles import EXTENT, LABEL, MEASURED, role


@dataclass
class SamplingSettings:
    """Decoding settings shared by every backend (mirrored by ``conf/sampling/*.yaml``)."""

    name: str = role(LABEL, "interactbench")
    n: int = role(MEASURED, 10)  # samples per task
    temperature: float = role(MEASURED, 0.8)
    top_p: float = role(MEASURED, 1.0)
    top_k: int | None = role(MEASURED, None)
    max_tokens: int = role(MEASURED, 32768)  # all generated tokens, reasoning included
    seed: int = role(MEASURED, 0)  # base seed; each task and sample derives its own from it
    reasoning_budget: int | None = role(MEASURED, None)  # tokens of thinking before the answer is forced
    reasoning_effort: str | None = role(MEASURED, None)  # gpt-oss / OpenAI "low" | "medium" | "high"
    # Iterative refinement (InteractBench C.2): rounds per sample in all, the first attempt
    # included; after a failed round the model sees the judge's feedback and revises. 1 = none.
    refine_rounds: int = role(EXTENT, 1)


@dataclass
class GenerationRequest:
    """The samples still wanted for one task."""

    task: Task
    messages: list[dict[str, str]]  # chat messages (system + user)
    indices: list[int]  # sample indices to produce, e.g. [0..9] or the ones a resume lacks
    seed: int  # the task's seed (derived from the base seed and the task id)
    # Refinement round (1 = the first attempt). A later round's messages continue the sample's
    # conversation: its earlier answers and the judge's feedback on each.
    round: int = 1

    @property
    def task_id(self) -> str:
        return self.task.task_id

    def sample_seed(self, index: int) -> int:
        return (self.seed + index) % (2**31 - 1)


@dataclass
class Completion:
    """What a backend returns for one sample, before code extraction."""

    task_id: str
    sample_index: int
    prompt: str  # the chat messages as JSON (or the rendered prompt text)
    response: str  # raw final text as returned (may contain a <think> block)
    reasoning: str = ""  # reasoning text when the backend returns it separately
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    reasoning_tokens: int | None = None
    finish_reason: str = ""  # "stop", "length", "error", "replay", ...
    seed: int | None = None
    latency_s: float = 0.0
    error: str = ""  # non-empty when the request failed after all retries
    source: str = ""  # reference backend: the replayed solution file
    attempts: int = 1  # HTTP attempts (openai backend)
    extra: dict[str, Any] = field(default_factory=dict)


class Backend(ABC):
    """A generation backend. Subclasses are built by Hydra from ``conf/model/*.yaml``."""

    #: the model's display name (also part of the resume key)
    name: str = "model"
    #: how reasoning shows in a response (``think`` blocks, ``harmony`` channels, ``none``):
    #: code extraction and the answers replayed into refinement rounds leave it out
    reasoning_format: str = "think"
    #: whether it runs in Ray actors (a tool outside the launch starts a cluster for it first)
    runs_in_ray: bool = False
    #: whether it writes text of its own (the reference model replays files: it cannot rephrase a
    #: statement, ibench.generate.rephrase)
    writes_text: bool = True

    def setup(self, sampling: SamplingSettings) -> None:  # noqa: B027 - optional hook
        """Acquire resources (clients, Ray actors). Called once before :meth:`generate`."""
        self.sampling = sampling

    def samples_per_task(self, task: Task, n: int) -> int:
        """How many samples this backend produces for ``task`` (``n`` from the sampling config)."""
        return n

    @abstractmethod
    def generate(self, requests: Iterable[GenerationRequest]) -> Iterator[Completion]:
        """Yield one :class:`Completion` per requested sample, in completion order."""

    def task_fingerprint(self, task: Task) -> str:
        """Per-task part of the sample keys (e.g. the reference backend's solution files); "" if none."""
        return ""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release resources; safe to call twice."""

    def identity(self) -> dict[str, Any]:
        """What distinguishes this backend's outputs (goes into the resume key)."""
        return {"name": self.name, "type": type(self).__name__}

    # -- its settings, checked before a run starts (ibench.run.preflight) -------------------------
    # Each backend checks its own model config (``conf/model/*.yaml``, a mapping with attribute
    # access); every problem is one line led by the field, ``model.<field>: why``.
    @classmethod
    def config_problems(cls, model: Any) -> list[str]:
        """The model config's settings that cannot work (no I/O)."""
        return []

    @classmethod
    def readiness_problems(cls, model: Any, cluster: Any, request: bool = True,
                           probed: dict | None = None) -> list[str]:
        """Whether the model can run from here with ``cluster`` (its config): an API key and an
        endpoint that answers, or the GPUs and weights of one replica. ``request=False``: no
        network request; ``probed`` remembers each endpoint's answer (the jobs of a sweep ask once)."""
        return []

    def __enter__(self) -> "Backend":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def stable_seed(*parts: object) -> int:
    """A seed that depends only on its parts (not on Python's hash randomisation)."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:4], "big") % (2**31 - 1)
