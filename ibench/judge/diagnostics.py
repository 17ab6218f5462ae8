"""Compiler output, shortened for people: the first error lines, not the last line of noise."""

from __future__ import annotations

import re

_ERROR = re.compile(r"\b(error|fatal error)\b\s*:", re.IGNORECASE)


def first_errors(message: str, lines: int = 6) -> str:
    """The compiler's first error and the lines that follow it (the source line and caret), at
    most ``lines`` lines; the first lines when nothing is marked as an error; "" for no output."""
    text = (message or "").strip("\n")
    if not text.strip():
        return ""
    all_lines = text.splitlines()
    start = next((i for i, line in enumerate(all_lines) if _ERROR.search(line)), 0)
    return "\n".join(all_lines[start:start + lines])


def first_error_line(message: str) -> str:
    """One line: the compiler's first error (``file:line:col: error: ...``)."""
    head = first_errors(message, 1)
    return head.strip() or "compile error"
