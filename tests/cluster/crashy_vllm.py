"""A stand-in for the ``vllm`` module whose engine dies once: the first ``chat`` call of the first
incarnation kills its own process (as a crashed engine or a lost GPU would), leaving a marker
file so that the restarted actor serves normally. Each reply names the Ray node and process that
produced it."""

from __future__ import annotations

import json
import os
from pathlib import Path


class SamplingParams:
    def __init__(self, n=1, temperature=1.0, top_p=1.0, max_tokens=16, seed=None, top_k=None, **kw):
        self.n, self.seed, self.max_tokens = n, seed, max_tokens


class _Completion:
    def __init__(self, text):
        self.text, self.token_ids, self.finish_reason = text, [0] * 8, "stop"


class _Request:
    def __init__(self, outputs):
        self.prompt_token_ids, self.outputs = [0] * 4, outputs


class LLM:
    def __init__(self, model, crash_marker=None, **kwargs):
        self.model = model
        self.marker = Path(crash_marker) if crash_marker else None

    def get_tokenizer(self):
        raise AttributeError("no tokenizer")  # the backend then skips prompt-length clamping

    def chat(self, messages, sampling_params, use_tqdm=False, chat_template_kwargs=None):
        if self.marker is not None:
            try:  # exactly one engine (of any number of replicas) dies: whoever creates the marker
                fd = os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                fd = -1
            if fd >= 0:
                os.write(fd, str(os.getpid()).encode())
                os.close(fd)
                os._exit(1)  # the engine dies mid-request
        import ray

        info = json.dumps({"node": ray.get_runtime_context().get_node_id(), "pid": os.getpid()})
        return [_Request([_Completion(f"{info}\n```cpp\nint main() {{}}\n```") for _ in range(p.n)])
                for p in sampling_params]
