"""Write the tests of one problem, ``{name: {"input": str, "output": str}}`` JSON, to files
straight from a byte buffer (a Parquet page).

A problem's tests blob can be gigabytes. :func:`write_tests` walks the JSON with a cursor over
the buffer and writes each ``input`` / ``output`` string to its ``.in`` / ``.out`` file without
building a Python string for it: contents go out in chunks, unescaped chunk by chunk; only a
string with ``\\u`` escapes is decoded whole (its escapes may straddle any cut).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from . import safe_name

WRITE_CHUNK = 8 << 20  # bytes of a test's content handled at once

_WS = re.compile(rb"[ \t\r\n]*")
_QUOTE = re.compile(rb'"')
_BACKSLASH = re.compile(rb"\\")
_U_ESCAPE = re.compile(rb"\\u")
_SCALAR = re.compile(rb"-?[0-9][0-9eE.+-]*|true|false|null")
_SIMPLE_ESCAPES = ((b'\\"', b'"'), (b"\\/", b"/"), (b"\\b", b"\b"), (b"\\f", b"\f"),
                   (b"\\n", b"\n"), (b"\\r", b"\r"), (b"\\t", b"\t"))


class JsonShapeError(ValueError):
    """The buffer is not JSON of the expected shape."""


class _Cursor:
    """A read position in a JSON byte buffer; strings are located, never copied."""

    def __init__(self, buf: Any):
        self.mv = memoryview(buf).cast("B") if not isinstance(buf, memoryview) else buf.cast("B")
        self.pos = 0

    def ws(self) -> None:
        m = _WS.match(self.mv, self.pos)
        if m is not None:  # always: the pattern matches the empty string
            self.pos = m.end()

    def peek(self) -> int:
        self.ws()
        if self.pos >= len(self.mv):
            raise JsonShapeError("unexpected end of JSON")
        return self.mv[self.pos]

    def expect(self, ch: bytes) -> None:
        if self.peek() != ch[0]:
            raise JsonShapeError(f"expected {ch.decode()!r} at byte {self.pos}")
        self.pos += 1

    def accept(self, ch: bytes) -> bool:
        if self.peek() == ch[0]:
            self.pos += 1
            return True
        return False

    def string_span(self) -> tuple[int, int]:
        """(start, end) of the raw contents of the string at the cursor (quotes excluded)."""
        if self.peek() != 0x22:
            raise JsonShapeError(f"expected a string at byte {self.pos}")
        start = self.pos + 1
        p = start
        while True:
            m = _QUOTE.search(self.mv, p)
            if m is None:
                raise JsonShapeError("unterminated string")
            q = m.start()
            k = 0
            while q - 1 - k >= start and self.mv[q - 1 - k] == 0x5C:
                k += 1
            if k % 2 == 0:
                self.pos = q + 1
                return start, q
            p = q + 1

    def key(self) -> str:
        a, b = self.string_span()
        return json.loads(b'"' + bytes(self.mv[a:b]) + b'"')

    def skip_value(self) -> None:
        c = self.peek()
        if c == 0x22:
            self.string_span()
        elif c in (0x7B, 0x5B):  # { [
            close = b"}" if c == 0x7B else b"]"
            self.pos += 1
            if self.accept(close):
                return
            while True:
                if c == 0x7B:
                    self.string_span()
                    self.expect(b":")
                self.skip_value()
                if self.accept(b","):
                    continue
                self.expect(close)
                return
        else:
            m = _SCALAR.match(self.mv, self.pos)
            if m is None:
                raise JsonShapeError(f"unexpected byte {chr(c)!r} at {self.pos}")
            self.pos = m.end()


def _unescape_simple(chunk: bytes) -> bytes:
    parts = chunk.split(b"\\\\")
    for i, part in enumerate(parts):
        if b"\\" in part:
            for esc, rep in _SIMPLE_ESCAPES:
                part = part.replace(esc, rep)
            parts[i] = part
    return b"\\".join(parts)


def write_json_string(mv: memoryview, a: int, b: int, fh: BinaryIO, chunk: int = WRITE_CHUNK) -> int:
    """Write the decoded contents of the JSON string ``mv[a:b]`` (raw, quotes excluded) to
    ``fh`` as UTF-8, ``chunk`` bytes at a time; returns bytes written."""
    view = mv[a:b]
    written = 0
    if _BACKSLASH.search(view) is None:
        for s in range(0, len(view), chunk):
            written += fh.write(view[s:s + chunk])
        return written
    if _U_ESCAPE.search(view) is not None:  # \uXXXX (or \\u): decode the string whole
        data = json.loads(b'"' + bytes(view) + b'"').encode("utf-8", "surrogatepass")
        return fh.write(data)
    s, n = 0, len(view)
    while s < n:
        e = min(s + chunk, n)
        if e < n:
            while e > s and view[e - 1] == 0x5C:  # never end a chunk on a backslash
                e -= 1
            if e == s:  # a run of backslashes longer than the chunk: cut between pairs
                e = s + max(2, (min(chunk, n - s) // 2) * 2)
        written += fh.write(_unescape_simple(bytes(view[s:e])))
        s = e
    return written


@dataclass
class ParsedTests:
    """What :func:`write_tests` found: the test names and the file stem each was written to."""

    names: list[str] = field(default_factory=list)  # original names, in file order
    files: dict[str, str] = field(default_factory=dict)  # original name -> file stem
    missing_output: list[str] = field(default_factory=list)
    missing_input: list[str] = field(default_factory=list)


def write_tests(buf: Any, tests_dir: Path, chunk: int = WRITE_CHUNK) -> ParsedTests:
    """Parse ``{name: {"input": str, "output": str}}`` from a bytes-like JSON value and write
    ``tests_dir/<stem>.in`` / ``.out`` (stem = a safe file name for the test name)."""
    tests_dir.mkdir(parents=True, exist_ok=True)
    cur = _Cursor(buf)
    out = ParsedTests()
    cur.expect(b"{")
    if cur.accept(b"}"):
        return out
    used: set[str] = set()
    while True:
        name = cur.key()
        cur.expect(b":")
        stem = safe_name(name)
        while stem in used:
            stem += "_"
        used.add(stem)
        out.names.append(name)
        out.files[name] = stem
        have = set()
        if cur.peek() != 0x7B:
            cur.skip_value()
        else:
            cur.pos += 1
            if not cur.accept(b"}"):
                while True:
                    k = cur.key()
                    cur.expect(b":")
                    c = cur.peek()
                    if k in ("input", "output") and c == 0x22:
                        a, b = cur.string_span()
                        with open(tests_dir / f"{stem}.{'in' if k == 'input' else 'out'}", "wb") as fh:
                            write_json_string(cur.mv, a, b, fh, chunk)
                        have.add(k)
                    else:
                        cur.skip_value()
                    if cur.accept(b","):
                        continue
                    cur.expect(b"}")
                    break
        for k, ext, missing in (("input", "in", out.missing_input), ("output", "out", out.missing_output)):
            if k not in have:
                (tests_dir / f"{stem}.{ext}").write_bytes(b"")
                missing.append(name)
        if cur.accept(b","):
            continue
        cur.expect(b"}")
        break
    return out
