"""Reasoning in ``vllm`` outputs: how many generated tokens were thinking, counted on token ids,
and the text that closes a thinking block whose budget is spent.

Two formats: ``think`` (``<think>`` … ``</think>``, the tags one token each) and ``harmony``
(gpt-oss: everything before the final channel's marker is reasoning).
"""

from __future__ import annotations

DEFAULT_CLOSE = "\n\nThe thinking budget is spent; I will now write the final solution.\n</think>\n\n"


def think_reasoning_tokens(prompt_ids: list[int], out_ids: list[int], open_id: int, close_id: int) -> int:
    """Generated tokens inside ``<think>`` … ``</think>`` (the tags themselves not counted). A
    prompt that ends inside an open thinking block (templates that open it for the model)
    starts the count inside it."""
    last_open = max((i for i, t in enumerate(prompt_ids) if t == open_id), default=-1)
    last_close = max((i for i, t in enumerate(prompt_ids) if t == close_id), default=-1)
    depth = 1 if last_open > last_close else 0
    count = 0
    for t in out_ids:
        if t == open_id:
            depth += 1
        elif t == close_id:
            depth = max(0, depth - 1)
        elif depth:
            count += 1
    return count


def harmony_reasoning_tokens(out_ids: list[int], final_marker: list[int] | None) -> int | None:
    """gpt-oss (harmony): the tokens before the last ``<|channel|>final`` marker (all of them
    when the answer never reached the final channel)."""
    if not final_marker:
        return None
    k = len(final_marker)
    for i in range(len(out_ids) - k, -1, -1):
        if out_ids[i:i + k] == final_marker:
            return i
    return len(out_ids)
