"""A stand-in for the `vllm` module, for testing the vLLM backend's wiring without a GPU.

It mimics the few parts of vLLM's offline API the backend uses (``LLM.chat``, ``LLM.generate``,
``LLM.get_tokenizer``, ``SamplingParams`` with ``thinking_token_budget``) and writes what it was
given into its replies, so a test can check what reached the engine. The real engine needs a
GPU and model weights and is not exercised by the test suite.
"""

from __future__ import annotations

import hashlib
import json
import os


def conversation_digest(messages) -> str:
    """A digest of a whole conversation as the engine received it (the reply carries this, not
    the turns themselves, whose code fences would break the reply's own code block)."""
    return hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()


class SamplingParams:
    def __init__(self, n=1, temperature=1.0, top_p=1.0, max_tokens=16, seed=None, top_k=None, stop=None,
                 include_stop_str_in_output=False, thinking_token_budget=None, skip_special_tokens=True):
        self.__dict__.update(locals())
        del self.__dict__["self"]


class _Completion:
    def __init__(self, text, n_tokens, finish_reason):
        self.text, self.token_ids, self.finish_reason = text, list(range(n_tokens)), finish_reason


class _Request:
    def __init__(self, prompt_len, outputs):
        self.prompt_token_ids, self.outputs = list(range(prompt_len)), outputs


class _Tokenizer:
    def apply_chat_template(self, messages, tokenize=False, add_generation_prompt=True, **kwargs):
        return "PROMPT " + json.dumps({"messages": messages, "kwargs": kwargs}) + " ASSISTANT "


class LLM:
    def __init__(self, model, **kwargs):
        self.model, self.kwargs = model, kwargs
        self.gpus = os.environ.get("CUDA_VISIBLE_DEVICES", "")

    def get_tokenizer(self):
        return _Tokenizer()

    def _info(self, params, **extra):
        return json.dumps({"model": self.model, "engine": self.kwargs, "gpus": self.gpus, "n": params.n,
                           "seed": params.seed, "temperature": params.temperature, "top_p": params.top_p,
                           "max_tokens": params.max_tokens, "budget": getattr(params, "thinking_token_budget", None),
                           **extra}, sort_keys=True)

    def chat(self, messages, sampling_params, use_tqdm=False, chat_template_kwargs=None):
        out = []
        for conv, params in zip(messages, sampling_params):
            info = self._info(params, ctk=chat_template_kwargs or {}, user=conv[-1]["content"][:40],
                              roles=[m["role"] for m in conv], conv_sha256=conversation_digest(conv))
            outputs = [_Completion(f"<think>sample {j}</think>\n```cpp\n// {info}\nint main() {{}}\n```", 42, "stop")
                       for j in range(params.n)]
            out.append(_Request(17, outputs))
        return out

    def generate(self, prompts, sampling_params, use_tqdm=False):
        out = []
        for prompt, params in zip(prompts, sampling_params):
            if params.stop:  # phase 1 of the budget fallback: think until the budget runs out
                outputs = [_Completion(f"<think>long thought {j}", params.max_tokens, "length") for j in range(params.n)]
            else:  # phase 2: continue after the closed thinking block
                closed = "</think>" in prompt
                info = self._info(params, continued_after_close=closed)
                outputs = [_Completion(f"```cpp\n// {info}\nint main() {{}}\n```", 30, "stop")]
            out.append(_Request(9, outputs))
        return out
