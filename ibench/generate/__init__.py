"""Generation: prompts in, programs out (SPEC §5).

Backends (built from ``conf/model/*.yaml`` by their ``_target_``):

- :class:`~ibench.generate.reference.ReferenceBackend` — replays each task's known solutions
  (no GPU, no network; the harness self-check and the default).
- :class:`~ibench.generate.openai_backend.OpenAIBackend` — any OpenAI-compatible endpoint.
- :class:`~ibench.generate.vllm_backend.VLLMBackend` — ``vllm.LLM`` in Ray actors.
"""

from .base import Backend, Completion, GenerationRequest, SamplingSettings, stable_seed
from .extract import NO_CODE, Extraction, extract_code, split_reasoning
from .prompt import LANGUAGES, PromptTemplate

__all__ = [
    "Backend", "Completion", "GenerationRequest", "SamplingSettings", "stable_seed",
    "NO_CODE", "Extraction", "extract_code", "split_reasoning", "LANGUAGES", "PromptTemplate",
]
