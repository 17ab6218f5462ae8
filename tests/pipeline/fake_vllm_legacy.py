"""The stand-in engine of fake_vllm.py, as an older vLLM without ``thinking_token_budget``."""

from fake_vllm import LLM  # noqa: F401
from fake_vllm import SamplingParams as _SP


class SamplingParams(_SP):
    def __init__(self, n=1, temperature=1.0, top_p=1.0, max_tokens=16, seed=None, top_k=None, stop=None,
                 include_stop_str_in_output=False, skip_special_tokens=True):
        super().__init__(n=n, temperature=temperature, top_p=top_p, max_tokens=max_tokens, seed=seed, top_k=top_k,
                         stop=stop, include_stop_str_in_output=include_stop_str_in_output,
                         skip_special_tokens=skip_special_tokens)
        del self.__dict__["thinking_token_budget"]
