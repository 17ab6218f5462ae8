"""Separating reasoning from the final answer, and taking the program out of the answer.

SPEC §5: the code is the fenced block of the target language in the *final answer*, never a
block that appears inside the reasoning. A response without such a block is a failed sample
(judged CE with the reason ``"no code block"``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ibench.languages import LANGUAGES

NO_CODE = "no code block"

THINK_OPEN = "<think>"
THINK_CLOSE = "</think>"

# gpt-oss "harmony" markers, as they appear when special tokens are kept in the text.
_HARMONY_FINAL = re.compile(r"<\|channel\|>final<\|message\|>(.*?)(?:<\|return\|>|<\|end\|>|$)", re.S)
_HARMONY_ANALYSIS = re.compile(r"<\|channel\|>analysis<\|message\|>(.*?)(?:<\|end\|>|$)", re.S)

# An opening fence at the start of a line: ``` or more backticks, then an info string.
_FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]{0,3})(?P<fence>`{3,})[ \t]*(?P<info>[^\n`]*)\n", re.M)


@dataclass(frozen=True)
class Extraction:
    code: str | None
    reason: str = ""  # why there is no code ("no code block"), or "" when code was found
    blocks: int = 0  # fenced blocks of the target language in the final answer


def split_reasoning(text: str, fmt: str = "think") -> tuple[str, str]:
    """Split a raw completion into ``(reasoning, final_answer)``.

    ``fmt="think"``: Qwen3 / DeepSeek-R1 style ``<think>…</think>``; the answer is what follows
    the last closing tag. A completion whose template opened the block in the prompt has only
    the closing tag; one that never closes its block (cut by the token limit) is all reasoning.
    ``fmt="harmony"``: gpt-oss channels; ``fmt="none"``: everything is the answer.
    """
    if fmt == "none":
        return "", text
    if fmt == "harmony":
        finals = _HARMONY_FINAL.findall(text)
        analysis = "\n".join(a.strip() for a in _HARMONY_ANALYSIS.findall(text))
        if finals:
            return analysis, finals[-1]
        if "<|channel|>" in text:
            return analysis or text, ""
        return "", text
    close = text.rfind(THINK_CLOSE)
    if close >= 0:
        reasoning = text[:close]
        start = reasoning.find(THINK_OPEN)
        if start >= 0:
            reasoning = reasoning[start + len(THINK_OPEN):]
        return reasoning.strip(), text[close + len(THINK_CLOSE):]
    start = text.find(THINK_OPEN)
    if start >= 0:  # opened, never closed: no final answer at all
        return text[start + len(THINK_OPEN):].strip(), text[:start]
    return "", text


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """All complete fenced blocks as ``(info, body)``, in order. Unclosed fences are dropped."""
    blocks: list[tuple[str, str]] = []
    pos = 0
    while True:
        m = _FENCE_OPEN.search(text, pos)
        if not m:
            return blocks
        fence = m.group("fence")
        close = re.compile(rf"^[ \t]{{0,3}}`{{{len(fence)},}}[ \t]*$", re.M)
        c = close.search(text, m.end())
        if not c:
            return blocks  # truncated answer: an unclosed block is no program
        blocks.append((m.group("info").strip(), text[m.end():c.start()]))
        pos = c.end()


def extract_code(final_answer: str, language: str = "cpp", accept_untagged: bool = False) -> Extraction:
    """The last fenced block of ``language`` in the final answer.

    ``accept_untagged`` also takes a block with an empty info string when no tagged block of the
    language exists (off by default: SPEC §5 asks for a block of the target language).
    """
    # the fence info strings of the language (ibench/languages.py), compared case-insensitively
    tags = LANGUAGES[language].fence_tags if language in LANGUAGES else (language,)
    blocks = fenced_blocks(final_answer)
    ours = [body for info, body in blocks if (info.split() or [""])[0].lower() in tags]
    ours = [body for body in ours if body.strip()]
    if not ours and accept_untagged:
        ours = [body for info, body in blocks if not info and body.strip()]
    if not ours:
        return Extraction(code=None, reason=NO_CODE, blocks=0)
    code = ours[-1]
    if not code.endswith("\n"):
        code += "\n"
    return Extraction(code=code, blocks=len(ours))
