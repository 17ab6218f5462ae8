"""The ``reference`` model: replays each task's own known solutions as its samples.

It is the harness self-check and the no-GPU, no-network default: sample ``i`` of a task is its
``i``-th known solution (sorted by file name), accepted and known-bad alike, wrapped in a fenced
block exactly as a model would answer, so the same extraction and judging paths run. The
expected verdicts in ``solutions/expected.json`` then predict every metric of the run. With
refinement rounds (``sampling.refine_rounds``) a sample's later rounds replay the next known
solutions, bad ones first (:meth:`ReferenceBackend.solution_for`), so the loop runs end to end
without a model and refine@k is predicted by the labels too.
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
from typing import Iterable, Iterator

from ibench.languages import LANGUAGES
from ibench.roles import Keyed, keyed_dict, left_out_of
from ibench.tasks.model import KnownSolution, Task

from .base import Backend, Completion, GenerationRequest


class ReferenceBackend(Backend):
    writes_text = False  # it replays known solutions: it cannot rephrase a statement

    def __init__(self, name: str = "reference", language: str = "cpp", repeat_to_n: bool = False,
                 variant: str = "interactive", **_: object) -> None:
        self.name = name
        self.language = language
        # interactive | batch: the known solutions replayed are those of the run's variant
        # (expected.json "variant"; InteractBench C.1)
        self.variant = variant
        # False: one sample per known solution (n varies by task). True: cycle through the
        # solutions until the sampling config's n is reached.
        self.repeat_to_n = repeat_to_n

    def solutions(self, task: Task) -> list[KnownSolution]:
        exts = LANGUAGES[self.language].extensions if self.language in LANGUAGES else ()
        variant = getattr(self, "variant", "interactive")
        return sorted((s for s in task.solutions if s.path.suffix in exts and getattr(s, "variant", "interactive") == variant),
                      key=lambda s: s.path.name)

    def samples_per_task(self, task: Task, n: int) -> int:
        count = len(self.solutions(task))
        return (n if count else 0) if self.repeat_to_n else count

    def solution_for(self, task: Task, index: int, round_: int = 1) -> KnownSolution:
        """Sample ``index``'s answer in refinement round ``round_``. Round 1: the ``index``-th
        solution by file name. Each later round moves one step along the solutions in a fixed
        order, known-bad ones first (then by file name), cycling: a sample that starts on a bad
        solution is answered with the next bad ones and reaches the accepted ones, so
        refine@k follows from the labels alone."""
        sols = self.solutions(task)
        first = sols[index % len(sols)]
        if round_ <= 1:
            return first
        order = sorted(sols, key=lambda s: (s.accepted, s.path.name))
        return order[(order.index(first) + round_ - 1) % len(order)]

    def task_fingerprint(self, task: Task) -> str:
        # Adding, removing or editing a known solution re-keys that task's samples (indices shift).
        digest = hashlib.sha256()
        for sol in self.solutions(task):
            digest.update(f"{sol.path.name}\0{sol.expected}\0".encode())
            digest.update(hashlib.sha256(sol.path.read_bytes()).digest())
        return digest.hexdigest()[:16]

    def generate(self, requests: Iterable[GenerationRequest]) -> Iterator[Completion]:
        for req in requests:
            for index in req.indices:
                start = time.perf_counter()
                sol = self.solution_for(req.task, index, req.round)
                code = sol.path.read_text(encoding="utf-8", errors="replace")
                fence = LANGUAGES[self.language].fence if self.language in LANGUAGES else self.language
                yield Completion(
                    task_id=req.task_id,
                    sample_index=index,
                    prompt=json.dumps(req.messages, ensure_ascii=False),
                    response=f"```{fence}\n{code.rstrip()}\n```\n",
                    finish_reason="replay",
                    seed=req.sample_seed(index),
                    latency_s=time.perf_counter() - start,
                    source=sol.path.name,
                    extra={"expected": sol.expected, "note": sol.note},
                )

    def identity(self) -> dict:
        return {**super().identity(), **keyed_dict(self, key_rule())}


@functools.cache
def key_rule() -> Keyed:
    """The reference model's own part of its identity: what it replays (its config's fields'
    roles say what is left out, :class:`ibench.generate.configs.ReferenceModelConfig`)."""
    from .configs import ReferenceModelConfig

    return Keyed(base=("language", "repeat_to_n"), left_out=left_out_of(ReferenceModelConfig))
