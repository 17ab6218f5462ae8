"""Samples of the ``vllm`` backend: chunks of requests, seeds, and the rows of samples that
failed before generating.

vLLM seeds the j-th of ``n`` samples of one request with ``seed + j``; :func:`seed_runs` cuts a
request's sample indices into runs that keep every sample on the seed
:meth:`~ibench.generate.base.GenerationRequest.sample_seed` names. No vLLM here: the driver
and the actor both use these.
"""

from __future__ import annotations

from .base import GenerationRequest

SEED_MOD = 2**31 - 1


def sample_chunks(reqs: list[GenerationRequest], samples: int) -> list[list[GenerationRequest]]:
    """Requests in order, cut into chunks of about ``samples`` samples each: ``tasks_per_call``
    tasks of ``n`` samples in a first round, and as many samples again in a refinement round,
    whose requests carry one sample each (a chunk per 8 one-sample requests would starve the
    engine's batch)."""
    chunks: list[list[GenerationRequest]] = []
    size = 0
    for r in reqs:
        if not chunks or size + len(r.indices) > samples:
            chunks.append([])
            size = 0
        chunks[-1].append(r)
        size += len(r.indices)
    return chunks


def seed_runs(indices: list[int], seed: int | None) -> list[tuple[list[int], int | None]]:
    """Split sample indices into runs that one request with ``n = len(run)`` can serve: vLLM
    seeds the j-th of n samples with ``seed + j``, so a run of consecutive indices starting at
    ``i`` sent with the seed of sample ``i`` gives every sample the seed
    :meth:`GenerationRequest.sample_seed` names — the same as the ``openai`` backend, and
    independent of which samples a resumed run still lacks."""
    runs: list[tuple[list[int], int | None]] = []
    for idx in indices:
        s = None if seed is None else (seed + idx) % SEED_MOD
        if runs and runs[-1][0][-1] + 1 == idx and (s is None or s == add_seed(runs[-1][1], len(runs[-1][0]))):
            runs[-1][0].append(idx)
        else:
            runs.append(([idx], s))
    return runs



def add_seed(seed: int | None, j: int) -> int | None:
    """The seed vLLM gives the j-th sample of a request seeded ``seed``."""
    return None if seed is None else seed + j



def too_long(plen: int | None, limit: int | None) -> str:
    """The error of a prompt that leaves no room in the context window."""
    return (f"prompt too long: {plen} tokens, the context window (max_model_len) is {limit}; "
            "nothing was generated")


def failed_rows(b: dict, indices: list[int], plen: int | None, error: str) -> list[dict]:
    """Result rows (as the actor returns them) for samples that failed with ``error``."""
    return [dict(task_id=b["task_id"], sample_index=idx, response="", prompt_tokens=plen, completion_tokens=0,
                 reasoning_tokens=None, finish_reason="error", error=error,
                 seed=None if b["seed"] is None else (b["seed"] + idx) % SEED_MOD) for idx in indices]

