"""Import the published LiveOIBench release into ibench task folders and contest metadata.

    python -m ibench.tasks import-liveoibench --problems liveoibench_v1.parquet \\
        --tests TESTS_DIR --contests contest_results.parquet --out DIR

Inputs (as published):

* ``--problems``: one row per task: ``id, problem_id`` (``COMP-YEAR-ROUND-task``),
  ``competition, contest, task_name, task_type, time_limit`` (seconds), ``memory_limit`` (MB),
  ``difficulty, algorithms`` (JSON list), ``problem_statement``, ``grader_code`` /
  ``starter_code`` (JSON ``{filename: source}``), ``setup_script, evaluation_script``.
* ``--tests``: a folder of parquet files (or one file) with ``problem_id``, ``tests`` (JSON
  ``{name: {input, output}}``) and ``subtasks`` (JSON ``{"<id>": {"score", "testcases": [...],
  "grading"?: "min-score"}}``). Each published file is a single row group of 6-17 GB.
* ``--contests``: ``contest_id, gold_cutoff, silver_cutoff, bronze_cutoff, division, date,
  num_contestants, problems`` (JSON list of problem ids), ``contestants_ranking`` (JSON rows
  with ``Rank, Contestant, Country``, one column per task, ``Total, Medal, CF_Rating``).

Bounded memory. pyarrow decodes a whole column chunk of a row group even through
``iter_batches(batch_size=1)`` or a dataset scanner (measured: reading one 433 MB row group
that way peaks near 1 GB of Arrow memory; ``read_table`` near 1.7 GB RSS), so a 17 GB row group
cannot be read that way. This module therefore reads the ``tests`` column itself, one Parquet
page at a time (page headers decoded from the Thrift compact protocol; PLAIN and dictionary
encodings; any codec pyarrow can decompress; data pages v1 and v2), and parses each problem's
JSON straight from the page buffer into ``.in``/``.out`` files without building Python strings
for the whole blob (test contents are written in chunks; only a string with ``\\u`` escapes is
decoded whole). Memory is then bounded by the largest page of the column (compressed plus
decompressed) and not by the file or row group; a page never holds less than one value, so a
writer that puts one problem per page gives a peak near twice that problem's tests blob. The
small columns (``problem_id``, ``subtasks``) are read with pyarrow. When the column cannot be
read page-wise (nested types, an unsupported encoding or codec) the importer falls back to
pyarrow row by row and says so in the summary. The summary reports the peak RSS, the peak
Arrow allocation and the largest page met.

Kinds. Batch tasks become ``kind: batch`` (``tests/<name>.in/.out``, ``subtasks.json``; a
testlib ``checker.cpp`` shipped in ``grader_code`` becomes ``checker/checker.cpp``; tests that
belong to no subtask carry no points and are left out). Interactive tasks with a testlib
interactor become ``kind: interactive``: the interactor is ``interactor/non_adaptive.cpp``
(``adaptive.cpp`` and the 001-200 pool when there are more than 100 tests), tests are numbered
``cases/NNN.in`` in name order, ``meta.json`` ``case_names`` keeps the original names and
``subtasks.json`` is written with the new names. Tasks ibench cannot judge yet -- a grader
linked with a batch solution (unless ``--grader-batch import``), script-judged tasks
(``evaluation_script``), manager/stub communication tasks, Python interactors, output-only
tasks -- are written under ``DIR/_unsupported/`` (skipped by the loader) and are not *held*:
contest scoring compares the model with humans on the held tasks only (see
:mod:`ibench.results.contest`).

Task cards carry ``contest``, ``competition`` and ``date`` (YYYY-MM-DD, from the contest),
``title`` (task name), ``difficulty`` (the numeric LiveOIBench difficulty d bucketed as in the
paper: Easy d <= 17, Medium 17 < d < 23, Hard d >= 23; the raw value in ``difficulty_score``),
``categorization`` (algorithm tags mapped onto ibench's categories by keyword; all tags kept in
``algorithms``). Contest metadata and human results go to ``DIR/contests.json``
(:func:`ibench.results.contest.load_contests`).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import math
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Iterator

from ibench.results.contest import ContestInfo, Contestant, normalize_name, write_contests

from . import (
    REJECTED_DIR,
    UNSUPPORTED_DIR,
    ImportLog,
    Staging,
    normalize_categories,
    normalize_difficulty,
    peak_rss_mb,
    positive_int,
    safe_name,
    write_json,
    write_text,
)

SUMMARY_FILE = "import_liveoibench.json"
DEFAULT_TASK_POINTS = 100.0  # max score of a task without subtasks (olympiad tasks are out of 100)
WRITE_CHUNK = 8 << 20  # bytes of a test's content handled at once
CONTESTANT_FIELDS = {
    "rank": "rank", "contestant": "name", "name": "name", "country": "country", "total": "total",
    "medal": "medal", "cf_rating": "cf_rating", "cfrating": "cf_rating",
}
NON_TASK_COLUMNS = {"rank", "contestant", "name", "country", "total", "recalculatedtotal", "medal", "cfrating",
                    "division", "team", "nationality", "scorerel", "day1", "day2", "user", "username"}


# ============================================================================================
# Parquet: one BYTE_ARRAY column, page by page
# ============================================================================================


class PageReadError(Exception):
    """The column cannot be read page-wise (the caller falls back to pyarrow)."""


class _Compact:
    """Minimal Thrift compact-protocol reader (enough for Parquet page headers)."""

    def __init__(self, buf: bytes):
        self.buf = buf
        self.pos = 0

    def byte(self) -> int:
        b = self.buf[self.pos]  # IndexError when the buffer is short: the caller reads more
        self.pos += 1
        return b

    def varint(self) -> int:
        shift = result = 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            if not b & 0x80:
                return result
            shift += 7

    def zigzag(self) -> int:
        n = self.varint()
        return (n >> 1) ^ -(n & 1)

    def struct(self) -> dict[int, Any]:
        fields: dict[int, Any] = {}
        last = 0
        while True:
            b = self.byte()
            if b == 0:
                return fields
            t, delta = b & 0x0F, b >> 4
            fid = last + delta if delta else self.zigzag()
            last = fid
            fields[fid] = self.value(t)

    def value(self, t: int) -> Any:
        if t == 1:
            return True
        if t == 2:
            return False
        if t == 3:
            return self.byte()
        if t in (4, 5, 6):
            return self.zigzag()
        if t == 7:
            self.pos += 8
            if self.pos > len(self.buf):
                raise IndexError
            return None
        if t == 8:
            n = self.varint()
            self.pos += n
            if self.pos > len(self.buf):
                raise IndexError
            return None  # binaries (statistics) are not needed
        if t in (9, 10):
            b = self.byte()
            size, et = b >> 4, b & 0x0F
            if size == 15:
                size = self.varint()
            return [self.byte() == 1 if et in (1, 2) else self.value(et) for _ in range(size)]
        if t == 11:
            size = self.varint()
            if size:
                kv = self.byte()
                for _ in range(size):
                    self.value(kv >> 4)
                    self.value(kv & 0x0F)
            return None
        if t == 12:
            return self.struct()
        raise PageReadError(f"unknown thrift type {t}")


_CODECS = {"SNAPPY": "snappy", "GZIP": "gzip", "ZSTD": "zstd", "BROTLI": "brotli", "LZ4_RAW": "lz4_raw",
           "LZ4": "lz4_hadoop"}


def _lz4_hadoop(raw: bytes, size: int) -> Any:
    """Parquet's legacy LZ4 codec: Hadoop framing (big-endian sizes around raw LZ4 blocks),
    or a bare LZ4 block from writers that never framed it."""
    import pyarrow as pa

    out = bytearray()
    pos = 0
    try:
        while pos < len(raw):
            usize = int.from_bytes(raw[pos:pos + 4], "big")
            csize = int.from_bytes(raw[pos + 4:pos + 8], "big")
            if usize == 0 or pos + 8 + csize > len(raw):
                raise ValueError
            out += pa.decompress(raw[pos + 8:pos + 8 + csize], decompressed_size=usize, codec="lz4_raw", asbytes=True)
            pos += 8 + csize
        if len(out) != size:
            raise ValueError
        return out
    except (ValueError, OSError, pa.ArrowException):
        return pa.decompress(raw, decompressed_size=size, codec="lz4_raw")


@dataclass
class PageStats:
    pages: int = 0
    largest_page: int = 0  # compressed + decompressed bytes of the largest page
    largest_value: int = 0


def _read_header(fh: BinaryIO, pos: int) -> tuple[dict[int, Any], int]:
    size = 1 << 16
    while True:
        fh.seek(pos)
        buf = fh.read(size)
        try:
            c = _Compact(buf)
            header = c.struct()
            return header, c.pos
        except IndexError:
            if len(buf) < size or size >= 1 << 28:
                raise PageReadError("truncated page header") from None
            size <<= 4


def _rle_hybrid(buf: memoryview, bit_width: int, count: int) -> list[int]:
    """Decode Parquet's RLE / bit-packed hybrid encoding (levels, dictionary indices)."""
    out: list[int] = []
    pos = 0
    byte_w = (bit_width + 7) // 8
    mask = (1 << bit_width) - 1
    while len(out) < count and pos < len(buf):
        shift = header = 0
        while True:
            b = buf[pos]
            pos += 1
            header |= (b & 0x7F) << shift
            if not b & 0x80:
                break
            shift += 7
        if header & 1:
            groups = header >> 1
            nbytes = groups * bit_width
            chunk = int.from_bytes(buf[pos:pos + nbytes], "little")
            pos += nbytes
            out.extend((chunk >> (i * bit_width)) & mask for i in range(groups * 8))
        else:
            run = header >> 1
            val = int.from_bytes(buf[pos:pos + byte_w], "little") if byte_w else 0
            pos += byte_w
            out.extend([val] * run)
    if len(out) < count:
        raise PageReadError("RLE run shorter than the page's value count")
    return out[:count]


def _plain_byte_arrays(data: memoryview, n: int) -> list[memoryview]:
    out = []
    off = 0
    for _ in range(n):
        length = int.from_bytes(data[off:off + 4], "little")
        out.append(data[off + 4:off + 4 + length])
        off += 4 + length
    if off > len(data):
        raise PageReadError("PLAIN values overrun the page")
    return out


def iter_byte_array_column(
    path: Path, column: str, row_group: int, stats: PageStats | None = None
) -> Iterator[memoryview | None]:
    """Values of a flat BYTE_ARRAY (string/binary) column of one row group, in row order, as
    zero-copy views into the current page; None for nulls. Only one page (plus the dictionary
    page, if any) is in memory at a time. A view is valid until the next value is requested."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(path)
    names = [pf.schema.column(i).path for i in range(len(pf.schema))]
    if column not in names:
        raise PageReadError(f"no column {column!r}")
    ci = names.index(column)
    desc = pf.schema.column(ci)
    if desc.physical_type != "BYTE_ARRAY" or desc.max_repetition_level != 0:
        raise PageReadError(f"column {column!r} is {desc.physical_type} (nested or not a byte array)")
    max_def = desc.max_definition_level
    meta = pf.metadata.row_group(row_group).column(ci)
    codec_name = str(meta.compression).upper()
    codec = None
    if codec_name != "UNCOMPRESSED":
        codec = _CODECS.get(codec_name)
        if codec is None or not pa.Codec.is_available("lz4_raw" if codec == "lz4_hadoop" else codec):
            raise PageReadError(f"codec {codec_name} is not supported page-wise")
    starts = [meta.data_page_offset]
    if meta.has_dictionary_page and meta.dictionary_page_offset:
        starts.append(meta.dictionary_page_offset)
    pos = min(starts)
    end = pos + meta.total_compressed_size
    remaining = meta.num_values
    dictionary: list[memoryview] = []
    stats = stats if stats is not None else PageStats()
    del pf

    # The system allocator hands a page's memory back at once (Arrow's default pool may cache it).
    pool = pa.system_memory_pool()

    def decompress(raw: bytes, size: int) -> memoryview:
        if codec is None:
            return memoryview(raw)
        if codec == "lz4_hadoop":
            return memoryview(_lz4_hadoop(raw, size))
        return memoryview(pa.decompress(raw, decompressed_size=size, codec=codec, memory_pool=pool))

    with open(path, "rb") as fh:
        while pos < end and remaining > 0:
            header, hlen = _read_header(fh, pos)
            pos += hlen
            ptype, usize, csize = header.get(1), header.get(2, 0), header.get(3, 0)
            fh.seek(pos)
            raw = fh.read(csize)
            pos += csize
            if len(raw) != csize:
                raise PageReadError("file ends inside a page")
            stats.pages += 1
            stats.largest_page = max(stats.largest_page, csize + usize)
            if ptype == 2:  # dictionary page
                dph = header.get(7) or {}
                if dph.get(2, 0) not in (0, 2):
                    raise PageReadError("dictionary page is not PLAIN-encoded")
                data = decompress(raw, usize)
                del raw
                dictionary = _plain_byte_arrays(data, dph.get(1, 0))
                continue
            if ptype == 0:  # data page v1: levels inside the compressed block
                dph = header.get(5) or {}
                n, enc = dph.get(1, 0), dph.get(2, 0)
                data = decompress(raw, usize)
                del raw
                off = 0
                if max_def > 0:
                    ln = int.from_bytes(data[0:4], "little")
                    defs = _rle_hybrid(data[4:4 + ln], max_def.bit_length(), n)
                    off = 4 + ln
                else:
                    defs = None
                values = data[off:]
            elif ptype == 3:  # data page v2: levels uncompressed in front
                dph = header.get(8) or {}
                n, enc = dph.get(1, 0), dph.get(4, 0)
                dl, rl = dph.get(5, 0), dph.get(6, 0)
                compressed = dph.get(7, True)
                mv = memoryview(raw)
                defs = _rle_hybrid(mv[rl:rl + dl], max_def.bit_length(), n) if max_def > 0 else None
                body = bytes(mv[rl + dl:]) if compressed and codec else mv[rl + dl:]
                del mv
                values = decompress(body, usize - rl - dl) if compressed else memoryview(body)
                data = None
                del raw, body
            else:  # index pages and the like
                continue
            present = n if defs is None else sum(1 for d in defs if d == max_def)
            if enc == 0:
                vals = _plain_byte_arrays(values, present)
            elif enc in (2, 8):  # PLAIN_DICTIONARY / RLE_DICTIONARY
                width = values[0] if present else 0
                idx = _rle_hybrid(values[1:], width, present) if present else []
                vals = [dictionary[i] for i in idx]
            else:
                raise PageReadError(f"encoding {enc} of column {column!r} is not supported page-wise")
            it = iter(vals)
            for k in range(n):
                if defs is not None and defs[k] != max_def:
                    yield None
                else:
                    v = next(it)
                    stats.largest_value = max(stats.largest_value, len(v))
                    yield v
            remaining -= n
            v = it = vals = values = data = None  # release this page before reading the next
    if remaining > 0:
        raise PageReadError(f"column chunk ended with {remaining} value(s) unread")


def release_free_memory() -> None:
    """Hand freed heap memory back to the OS (glibc ``malloc_trim``; a no-op elsewhere).

    Pages and test chunks are tens of MB; glibc raises its mmap threshold after freeing such a
    block, so later ones come from the heap and, once freed, stay in the process unless trimmed:
    without this the RSS creeps up by about one page per problem."""
    global _LIBC
    if _LIBC is None:
        try:
            import ctypes

            _LIBC = ctypes.CDLL("libc.so.6")
            _LIBC.malloc_trim.argtypes = [ctypes.c_size_t]
        except (OSError, AttributeError):
            _LIBC = False
    if _LIBC:
        _LIBC.malloc_trim(0)


_LIBC: Any = None


# ============================================================================================
# JSON {name: {input, output}} -> files, straight from a byte buffer
# ============================================================================================

_WS = re.compile(rb"[ \t\r\n]*")
_QUOTE = re.compile(rb'"')
_BACKSLASH = re.compile(rb"\\")
_U_ESCAPE = re.compile(rb"\\u")
_SCALAR = re.compile(rb"-?[0-9][0-9eE.+-]*|true|false|null")
_SIMPLE_ESCAPES = ((b'\\"', b'"'), (b"\\/", b"/"), (b"\\b", b"\b"), (b"\\f", b"\f"),
                   (b"\\n", b"\n"), (b"\\r", b"\r"), (b"\\t", b"\t"))


class JsonShapeError(ValueError):
    pass


class _Cursor:
    def __init__(self, buf: Any):
        self.mv = memoryview(buf).cast("B") if not isinstance(buf, memoryview) else buf.cast("B")
        self.pos = 0

    def ws(self) -> None:
        self.pos = _WS.match(self.mv, self.pos).end()

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


# ============================================================================================
# Field normalisation
# ============================================================================================


def _is_null(v: Any) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def _json_field(v: Any) -> Any:
    """A JSON column value: parsed when a string, as is otherwise (None for null/empty)."""
    if _is_null(v):
        return None
    if isinstance(v, (bytes, bytearray)):
        v = v.decode("utf-8")
    if isinstance(v, str):
        v = v.strip()
        if not v:
            return None
        return json.loads(v)
    return v


def _code_map(v: Any) -> dict[str, str]:
    """``grader_code`` / ``starter_code``: {filename: source} from JSON, a dict or a list of
    {filename|name, content|code} entries."""
    try:
        v = _json_field(v)
    except json.JSONDecodeError:
        return {}
    if isinstance(v, dict):
        return {str(k): s for k, s in v.items() if isinstance(s, str) and s}
    if isinstance(v, list):
        out = {}
        for e in v:
            if isinstance(e, dict):
                name = e.get("filename") or e.get("name")
                src = e.get("content") or e.get("code")
                if isinstance(name, str) and isinstance(src, str) and src:
                    out[name] = src
        return out
    return {}


def difficulty_bucket(v: Any) -> tuple[str | None, float | None]:
    """(Easy|Medium|Hard, numeric d) from the LiveOIBench difficulty: the paper's quantile
    buckets, Easy d <= 17, Medium 17 < d < 23, Hard d >= 23; a label is taken as is."""
    if _is_null(v):
        return None, None
    label = normalize_difficulty(v)
    if label:
        return label, None
    try:
        d = float(v)
    except (TypeError, ValueError):
        return None, None
    if math.isnan(d):
        return None, None
    return ("Easy" if d <= 17 else "Medium" if d < 23 else "Hard"), d


_ALGO_KEYWORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Data Structures", ("data structure", "segment tree", "fenwick", "binary indexed", "heap", "stack", "queue",
                         "union find", "union-find", "disjoint set", "dsu", "sparse table", "treap", "hash",
                         "priority queue", "linked list", "trie")),
    ("Graph", ("graph", "shortest path", "dfs", "bfs", "flow", "matching", "spanning", "lca", "topolog",
               "connectivity", "tree")),
    ("Search", ("search", "brute force", "backtracking", "two pointer", "meet in the middle", "enumeration")),
    ("Greedy", ("greedy",)),
    ("Bit", ("bit manipulation", "bitmask", "bitwise", "xor")),
    ("Math", ("math", "number theory", "combinatoric", "geometry", "probability", "modular", "matrix", "algebra",
              "arithmetic")),
    ("Game", ("game",)),
)


def map_algorithms(tags: list[str]) -> list[str]:
    """ibench categories for LiveOIBench algorithm tags, by keyword (a heuristic; the raw tags
    stay in ``algorithms``). "binary indexed tree" counts as a data structure, not a graph."""
    cats: list[str] = []
    for tag in tags:
        t = str(tag).lower()
        for cat, words in _ALGO_KEYWORDS:
            if cat == "Graph" and any(w in t for w in ("binary indexed", "segment tree", "fenwick")):
                continue
            if any(w in t for w in words) and cat not in cats:
                cats.append(cat)
    known, _ = normalize_categories(cats)
    return known


def _date(v: Any) -> str | None:
    if _is_null(v):
        return None
    if isinstance(v, (_dt.datetime, _dt.date)):
        return v.strftime("%Y-%m-%d")
    m = re.search(r"(\d{4})-(\d{1,2})-(\d{1,2})", str(v))
    if m:
        try:
            return _dt.date(int(m[1]), int(m[2]), int(m[3])).isoformat()
        except ValueError:
            return None
    return None


def _num(v: Any) -> float | None:
    if _is_null(v) or isinstance(v, bool):
        return None
    try:
        f = float(str(v).strip()) if not isinstance(v, (int, float)) else float(v)
    except ValueError:
        return None
    return None if math.isnan(f) else f


def _limits(row: dict, log: ImportLog, pid: str) -> tuple[int | None, int | None]:
    t = _num(row.get("time_limit"))
    cpu = None
    if t is not None and t > 0:
        if t > 100:  # already milliseconds
            log.warn(pid, f"time_limit {t} looks like milliseconds, not seconds; taken as ms")
            cpu = positive_int(t)
        else:
            cpu = positive_int(t * 1000)
    m = _num(row.get("memory_limit"))
    mem = None
    if m is not None and m > 0:
        if m >= 1 << 26:  # bytes
            log.warn(pid, f"memory_limit {m:g} looks like bytes, not MB; converted")
            mem = positive_int(m / (1 << 20))
        elif m > 1 << 16:  # kilobytes
            log.warn(pid, f"memory_limit {m:g} looks like KB, not MB; converted")
            mem = positive_int(m / 1024)
        else:
            mem = positive_int(m)
    return cpu, mem


# ============================================================================================
# The import
# ============================================================================================


@dataclass
class ProblemMeta:
    row: dict[str, Any]
    folder: str
    contest_id: str | None = None


@dataclass
class Held:
    """An imported task as contest scoring sees it."""

    max_points: float
    dest: str  # "" (judgeable) or _unsupported


def _rows(path: Path, columns: list[str] | None = None, batch_size: int = 64) -> Iterator[dict[str, Any]]:
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(path)
    cols = [c for c in columns if c in pf.schema_arrow.names] if columns else None
    for batch in pf.iter_batches(batch_size=batch_size, columns=cols):
        yield from batch.to_pylist()


def _tests_files(tests: Path) -> list[Path]:
    if tests.is_file():
        return [tests]
    return sorted(p for p in tests.rglob("*.parquet") if p.is_file())


def _iter_test_rows(path: Path, log: ImportLog, mem: dict[str, Any]) -> Iterator[tuple[str, Any, Any, dict]]:
    """(problem_id, tests value, subtasks value, extra columns) for every row of a tests file,
    one row at a time; the tests value is a zero-copy view valid until the next row."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(path, pre_buffer=False)
    names = pf.schema_arrow.names
    if "problem_id" not in names or "tests" not in names:
        log.warn(path.name, "no problem_id/tests columns; file skipped")
        return
    small = [c for c in ("problem_id", "subtasks", "grader_codes", "starter_codes") if c in names]
    for rg in range(pf.num_row_groups):
        table = pf.read_row_group(rg, columns=small)
        cols = {c: table.column(c).to_pylist() for c in small}
        del table
        n = len(cols["problem_id"])
        subs = cols.get("subtasks", [None] * n)

        def extra(i: int) -> dict:
            return {c: cols[c][i] for c in small if c not in ("problem_id", "subtasks")}

        done = 0
        try:
            values = iter_byte_array_column(path, "tests", rg, mem["pages"])
            for i in range(n):
                v = next(values)
                mem["arrow_peak"] = max(mem["arrow_peak"], pa.total_allocated_bytes())
                yield cols["problem_id"][i], v, subs[i], extra(i)
                v = None  # drop this page before the next one is decompressed
                done += 1
            values.close()
        except (PageReadError, StopIteration) as e:
            log.warn(path.name, f"tests column not readable page-wise ({e or 'too few values'}); falling back to "
                                f"pyarrow (memory is then bounded by the row group, not by a page)")
            mem["fallback"] = True
            batches = pf.iter_batches(batch_size=1, row_groups=[rg], columns=["tests"])
            for i, batch in enumerate(batches):
                if i < done:
                    continue
                mem["arrow_peak"] = max(mem["arrow_peak"], pa.total_allocated_bytes())
                raw = batch.column(0)[0].as_py()
                if isinstance(raw, str):
                    raw = raw.encode("utf-8")
                elif raw is not None and not isinstance(raw, bytes):
                    if isinstance(raw, list) and all(isinstance(e, tuple) and len(e) == 2 for e in raw):
                        raw = dict(raw)  # a map column
                    raw = json.dumps(raw).encode("utf-8")
                yield cols["problem_id"][i], raw, subs[i], extra(i)


def import_liveoibench(
    problems: Path,
    tests: Path,
    out: Path,
    contests: Path | None = None,
    only: set[str] | None = None,
    grader_batch: str = "skip",
) -> ImportLog:
    """Import the release into ``out``; returns the log. Idempotent over ``out``."""
    log = ImportLog("LiveOIBench")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    mem: dict[str, Any] = {"arrow_peak": 0, "pages": PageStats(), "fallback": False}

    # 1. Problem metadata (small: statements and grader sources).
    metas: dict[str, ProblemMeta] = {}
    for row in _rows(Path(problems)):
        pid = row.get("problem_id")
        if not isinstance(pid, str) or not pid.strip():
            log.warn(f"id={row.get('id')}", "problem row without problem_id; skipped")
            continue
        pid = pid.strip()
        if pid in metas:
            log.warn(pid, "duplicate problem row; keeping the first")
            continue
        metas[pid] = ProblemMeta(row=row, folder=safe_name(pid))
    log.count("problems in metadata", len(metas))
    selected = set(metas) if not only else set(metas) & set(only)  # --only: metadata of the rest stays known

    # 2. Contests (small), so that task cards can carry contest, competition and date.
    contest_rows = list(_rows(Path(contests))) if contests else []
    contest_by_id: dict[str, dict] = {}
    for crow in contest_rows:
        cid = crow.get("contest_id")
        if isinstance(cid, str) and cid:
            contest_by_id[cid] = crow
    problem_contest: dict[str, str] = {}
    for cid, crow in sorted(contest_by_id.items()):
        try:
            plist = _json_field(crow.get("problems")) or []
        except json.JSONDecodeError:
            log.warn(cid, "problems column is not JSON; contest tasks matched by id prefix only")
            plist = []
        for p in plist if isinstance(plist, list) else []:
            problem_contest.setdefault(str(p), cid)
    for pid, pm in metas.items():
        cid = problem_contest.get(pid)
        if cid is None:
            prefix = "-".join(pid.split("-")[:3])
            cid = prefix if prefix in contest_by_id else None
        pm.contest_id = cid
        if contests and cid is None and pid in selected:
            log.warn(pid, "belongs to no contest of the contests file")

    # 3. Tests, one problem at a time, each task swapped in whole.
    staging = Staging(out)
    held: dict[str, Held] = {}
    seen: set[str] = set()
    try:
        files = _tests_files(Path(tests))
        if not files:
            log.warn(str(tests), "no parquet file with tests found")
        for path in files:
            for pid, value, subtasks, extra in _iter_test_rows(path, log, mem):
                pid = str(pid).strip()
                if only and pid not in only:
                    continue
                pm = metas.get(pid)
                if pm is None:
                    log.warn(pid, f"tests in {path.name} for a problem missing from the metadata; skipped")
                    continue
                if pid in seen:
                    log.warn(pid, f"tests appear again in {path.name}; the first copy is kept")
                    continue
                seen.add(pid)
                task_dir = staging.path(pm.folder)
                try:
                    dest, max_points = _build_task(pm, value, subtasks, extra, contest_by_id, task_dir, log, grader_batch)
                except (JsonShapeError, ValueError, OSError) as e:
                    log.warn(pid, f"not imported: {e}; kept under {REJECTED_DIR}/")
                    write_text(task_dir / "REJECTED.txt", f"{e}\n")
                    (task_dir / "meta.json").unlink(missing_ok=True)
                    dest, max_points = REJECTED_DIR, None
                staging.commit(pm.folder, dest)
                log.count({"": "imported", UNSUPPORTED_DIR: "unsupported (kept for reference)",
                           REJECTED_DIR: "rejected"}[dest])
                if dest != REJECTED_DIR and max_points is not None:
                    held[pid] = Held(max_points, dest)
                del value
                release_free_memory()
        for pid in sorted(selected - seen):
            log.warn(pid, "no tests in the tests files; not imported")
            log.count("without tests")
    finally:
        staging.close()

    # 4. Contest metadata for scoring against humans. What is held is read back from the output
    #    folder, so that an import of a few tasks (--only) keeps the earlier ones in the contests.
    if contests:
        for pid, pm in metas.items():
            if pid in held:
                continue
            for dest in ("", UNSUPPORTED_DIR):
                meta_path = (out / dest / pm.folder if dest else out / pm.folder) / "meta.json"
                if meta_path.is_file():
                    try:
                        card = json.loads(meta_path.read_text(encoding="utf-8"))
                        held[pid] = Held(float(card.get("max_score", DEFAULT_TASK_POINTS)), dest)
                    except (ValueError, TypeError):
                        pass
                    break
        infos = _contest_infos(contest_by_id, metas, held, log)
        write_contests(out / "contests.json", infos, source="LiveOIBench")
        log.count("contests", len(infos))

    pages: PageStats = mem["pages"]
    log.note(f"peak memory: RSS {peak_rss_mb():.0f} MiB (Arrow default pool {mem['arrow_peak'] / 2**20:.0f} MiB); "
             f"largest tests page {pages.largest_page / 2**20:.1f} MiB (compressed + decompressed), "
             f"largest tests value {pages.largest_value / 2**20:.1f} MiB, {pages.pages} pages"
             + ("; pyarrow fallback used" if mem["fallback"] else ""))
    log.stats.update({"peak_rss_mib": peak_rss_mb(), "arrow_peak_mib": mem["arrow_peak"] / 2**20,
                      "largest_page_mib": pages.largest_page / 2**20,
                      "largest_value_mib": pages.largest_value / 2**20, "pyarrow_fallback": mem["fallback"]})
    write_json(out / SUMMARY_FILE, {k: v for k, v in log.to_dict().items() if k != "notes"})
    return log


def _build_task(pm: ProblemMeta, value: Any, subtasks_raw: Any, extra: dict, contest_by_id: dict,
                task_dir: Path, log: ImportLog, grader_batch: str) -> tuple[str, float | None]:
    """Write one task folder in ``task_dir``; returns (destination, max points)."""
    row, pid = pm.row, pm.row["problem_id"].strip()
    if value is None:
        raise ValueError("tests value is null")
    statement = row.get("problem_statement")
    if _is_null(statement) or not str(statement).strip():
        raise ValueError("no problem_statement")

    # Tests straight from the buffer.
    parsed = write_tests(value, task_dir / "tests")
    if not parsed.names:
        raise ValueError("no tests")
    if parsed.missing_output:
        log.note(f"{pid}: {len(parsed.missing_output)} test(s) without output (empty .out written)")

    # Subtasks, renamed to the file stems; tests in no subtask are left out.
    subtasks = _subtasks(subtasks_raw, parsed, pid, log)
    if subtasks:
        referenced = {t for s in subtasks.values() for t in s["testcases"]}
        unref = [parsed.files[n] for n in parsed.names if parsed.files[n] not in referenced]
        if unref:
            log.warn(pid, f"{len(unref)} test(s) in no subtask carry no points and are left out: "
                          f"{', '.join(unref[:5])}{' ...' if len(unref) > 5 else ''}")
            for stem in unref:
                for ext in ("in", "out"):
                    (task_dir / "tests" / f"{stem}.{ext}").unlink(missing_ok=True)
        max_points = float(sum(s["score"] for s in subtasks.values()))
    else:
        max_points = DEFAULT_TASK_POINTS
        log.warn(pid, f"no subtasks: the task is all-or-nothing, worth {DEFAULT_TASK_POINTS:g} points")

    # Task card.
    cpu, mem = _limits(row, log, pid)
    if cpu is None or mem is None:
        raise ValueError(f"invalid limits time_limit={row.get('time_limit')!r} memory_limit={row.get('memory_limit')!r}")
    diff, dscore = difficulty_bucket(row.get("difficulty"))
    meta: dict[str, Any] = {"problem_id": pm.folder}
    try:
        algos = _json_field(row.get("algorithms")) or []
    except json.JSONDecodeError:
        algos = [a.strip() for a in str(row.get("algorithms")).split(",") if a.strip()]
    if not isinstance(algos, list):
        algos = [str(algos)]
    task_type = str(row.get("task_type") or "batch").strip().lower()
    meta.update({"kind": "batch", "cpu_time_limit_ms": cpu, "memory_limit_mb": mem})
    if diff is None:
        log.warn(pid, f"difficulty {row.get('difficulty')!r} missing or invalid; using 'Medium'")
        diff = "Medium"
        meta["difficulty_defaulted"] = True
    meta["difficulty"] = diff
    if dscore is not None:
        meta["difficulty_score"] = dscore
    meta["categorization"] = map_algorithms(algos)
    meta["algorithms"] = [str(a) for a in algos]
    meta["title"] = str(row.get("task_name") or pid.split("-", 3)[-1])
    meta["source"] = "LiveOIBench"
    meta["liveoibench_id"] = pid
    meta["task_type"] = task_type
    if pm.folder != pid:
        log.warn(pid, f"problem_id is not a safe folder name; the folder is {pm.folder!r}")
    crow = contest_by_id.get(pm.contest_id or "")
    competition = row.get("competition")
    meta["competition"] = str(competition) if not _is_null(competition) else pid.split("-")[0]
    if pm.contest_id:
        meta["contest"] = pm.contest_id
    date = _date(crow.get("date")) if crow else None
    if date is None and crow and not _is_null(crow.get("date")):
        log.warn(pid, f"contest date {crow.get('date')!r} is not a date; left out")
    if date:
        meta["date"] = date
    if crow and not _is_null(crow.get("division")):
        meta["division"] = str(crow.get("division"))
    meta["max_score"] = max_points

    # Statement (grader tasks: with the files the solution must fit).
    desc = str(statement).rstrip() + "\n"
    graders = _code_map(row.get("grader_code")) or _code_map(extra.get("grader_codes"))
    starters = _code_map(row.get("starter_code")) or _code_map(extra.get("starter_codes"))
    for name, src in sorted(starters.items()):
        write_text(task_dir / "attachments" / safe_name(name), src)
    setup, evaluate = row.get("setup_script"), row.get("evaluation_script")
    has_scripts = any(isinstance(s, str) and s.strip() for s in (setup, evaluate))
    lower = {n.lower(): n for n in graders}
    grader_linked = any(n in lower for n in ("grader.cpp", "grader.c")) and "manager.cpp" not in lower
    testlib_interactor = next((n for low, n in sorted(lower.items()) if low.endswith((".cpp", ".cc"))
                               and "registerInteraction" in graders[n]), None)

    dest = ""
    reason = ""
    if "output" in task_type:
        dest, reason = UNSUPPORTED_DIR, "output-only task"
    elif task_type.startswith("interactive") or "communication" in task_type:
        if has_scripts:
            dest, reason = UNSUPPORTED_DIR, "judged by the release's setup/evaluation scripts"
        elif "manager.cpp" in lower:
            dest, reason = UNSUPPORTED_DIR, "manager/stub communication task"
        elif testlib_interactor is None:
            dest, reason = UNSUPPORTED_DIR, ("Python interactor" if any(n.endswith(".py") for n in lower)
                                             else "no testlib interactor in grader_code")
    elif grader_linked and grader_batch != "import":
        dest, reason = UNSUPPORTED_DIR, "grader linked with a batch solution (ibench's loader links graders only " \
                                        "for kind 'grader'; use --grader-batch import once it does)"
    elif has_scripts:
        dest, reason = UNSUPPORTED_DIR, "judged by the release's setup/evaluation scripts"

    if graders and (grader_linked or dest):
        headers = [n for n in graders if n.endswith(".h") and n != "testlib.h"]
        shown = [n for n in sorted(starters) + sorted(headers)] + ([lower.get("grader.cpp")] if lower.get("grader.cpp") else [])
        if grader_linked and shown:
            desc += "\n## Files your solution is compiled with\n"
            for n in shown:
                src = starters.get(n) or graders.get(n)
                desc += f"\n`{n}`:\n\n```cpp\n{src.rstrip()}\n```\n"
    write_text(task_dir / "desc.md", desc)

    if dest:
        for name, src in sorted(graders.items()):
            write_text(task_dir / "grader" / safe_name(name), src)
        for name, src in (("setup.sh", setup), ("evaluate.sh", evaluate)):
            if isinstance(src, str) and src.strip():
                write_text(task_dir / "grader" / name, src)
        meta["unsupported"] = reason
        _write_subtasks(task_dir, subtasks)
        write_json(task_dir / "meta.json", meta)
        log.warn(pid, f"{reason}: imported under {UNSUPPORTED_DIR}/, not held for contest scoring")
        return UNSUPPORTED_DIR, max_points

    if task_type.startswith("interactive") or "communication" in task_type:
        return _finish_interactive(task_dir, meta, graders, testlib_interactor, parsed, subtasks, log, pid), max_points

    # Batch.
    checker = next((graders[n] for low, n in lower.items() if low in ("checker.cpp", "checker.cc")), None)
    if checker is not None:
        if "testlib.h" in checker:
            write_text(task_dir / "checker" / "checker.cpp", checker)
        else:
            log.warn(pid, "checker.cpp is not a testlib checker (`checker <in> <out> <ans>`); outputs compared as tokens")
    if grader_linked:
        for name, src in sorted(graders.items()):
            if name.lower() not in ("checker.cpp", "checker.cc", "testlib.h"):
                write_text(task_dir / "grader" / safe_name(name), src)
        meta["grader_linked"] = True
    _write_subtasks(task_dir, subtasks)
    write_json(task_dir / "meta.json", meta)
    return "", max_points


def _subtasks(raw: Any, parsed: ParsedTests, pid: str, log: ImportLog) -> dict[str, dict]:
    try:
        data = _json_field(raw)
    except json.JSONDecodeError:
        log.warn(pid, "subtasks column is not JSON; ignored")
        return {}
    if not data:
        return {}
    if isinstance(data, list):  # [{"score", "testcases"}] -> numbered
        data = {str(i + 1): s for i, s in enumerate(data)}
    if not isinstance(data, dict):
        log.warn(pid, "subtasks is not an object; ignored")
        return {}
    out: dict[str, dict] = {}
    by_name = dict(parsed.files)
    for sid in data:
        sub = data[sid]
        if not isinstance(sub, dict):
            log.warn(pid, f"subtask {sid} is not an object; ignored")
            continue
        score = _num(sub.get("score"))
        if score is None or score < 0:
            log.warn(pid, f"subtask {sid} has no valid score; ignored")
            continue
        names = sub.get("testcases") or []
        if isinstance(names, str):
            names = [names]
        tests, missing = [], []
        for n in names:
            stem = by_name.get(str(n))
            (tests if stem else missing).append(stem or str(n))
        if missing:
            log.warn(pid, f"subtask {sid} names {len(missing)} test(s) not in the tests: "
                          f"{', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''}; dropped from it")
        entry: dict[str, Any] = {"score": int(score) if float(score).is_integer() else score, "testcases": tests}
        grading = sub.get("grading")
        if grading in ("min-score", "all"):
            if grading == "min-score":
                entry["grading"] = grading
        elif grading is not None:
            log.warn(pid, f"subtask {sid} grading {grading!r} unknown; treated as all-or-nothing")
        out[str(sid)] = entry
    return out


def _write_subtasks(task_dir: Path, subtasks: dict[str, dict]) -> None:
    if subtasks:
        write_json(task_dir / "subtasks.json", subtasks)


def _finish_interactive(task_dir: Path, meta: dict, graders: dict[str, str], interactor: str | None,
                        parsed: ParsedTests, subtasks: dict[str, dict], log: ImportLog, pid: str) -> str:
    """Tests -> cases/NNN.in served by a testlib interactor."""
    tdir = task_dir / "tests"
    stems = [parsed.files[n] for n in parsed.names if (tdir / f"{parsed.files[n]}.in").exists()]
    if len(stems) > 200:
        meta["unsupported"] = f"{len(stems)} tests, more than the 200 interactive case slots"
        write_json(task_dir / "meta.json", meta)
        log.warn(pid, f"{meta['unsupported']}: imported under {UNSUPPORTED_DIR}/")
        return UNSUPPORTED_DIR
    mode = "non_adaptive" if len(stems) <= 100 else "adaptive"
    cdir = task_dir / "cases"
    cdir.mkdir()
    rename: dict[str, str] = {}
    for i, stem in enumerate(sorted(stems, key=_natural_key), start=1):
        (tdir / f"{stem}.in").rename(cdir / f"{i:03d}.in")
        rename[stem] = f"{i:03d}"
    shutil.rmtree(tdir)
    assert interactor is not None
    write_text(task_dir / "interactor" / f"{mode}.cpp", graders[interactor])
    meta.update({"kind": "interactive", "interactor_mode": mode,
                 "case_names": {v: k for k, v in rename.items()}})
    if mode == "adaptive":
        log.note(f"{pid}: {len(stems)} tests (> 100): served as the 001-200 pool of interactor/adaptive.cpp")
    if subtasks:
        log.note(f"{pid}: subtasks.json written for an interactive task (the loader scores subtasks of batch tasks only)")
        _write_subtasks(task_dir, {sid: {**s, "testcases": [rename[t] for t in s["testcases"] if t in rename]}
                                   for sid, s in subtasks.items()})
    write_json(task_dir / "meta.json", meta)
    return ""


def _natural_key(name: str) -> tuple:
    return tuple((0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", name) if t)


def _contest_infos(contest_by_id: dict[str, dict], metas: dict[str, ProblemMeta], held: dict[str, Held],
                   log: ImportLog) -> list[ContestInfo]:
    infos = []
    by_contest: dict[str, list[str]] = {}
    for pid, pm in metas.items():
        if pm.contest_id:
            by_contest.setdefault(pm.contest_id, []).append(pid)
    for cid, crow in sorted(contest_by_id.items()):
        try:
            plist = [str(p) for p in (_json_field(crow.get("problems")) or [])]
        except json.JSONDecodeError:
            plist = []
        problems = list(dict.fromkeys(plist + sorted(by_contest.get(cid, []))))
        try:
            ranking = _json_field(crow.get("contestants_ranking")) or []
        except json.JSONDecodeError:
            log.warn(cid, "contestants_ranking is not JSON; no human comparison")
            ranking = []
        contestants = []
        columns: set[str] = set()
        for r in ranking if isinstance(ranking, list) else []:
            if not isinstance(r, dict):
                continue
            fields: dict[str, Any] = {}
            scores: dict[str, float | None] = {}
            recalc = None
            for k, v in r.items():
                nk = normalize_name(k)
                if nk == "recalculatedtotal":
                    recalc = _num(v)
                elif nk in CONTESTANT_FIELDS:
                    fields[CONTESTANT_FIELDS[nk]] = v
                elif nk not in NON_TASK_COLUMNS:
                    scores[str(k)] = _num(v)
                    columns.add(str(k))
            total = recalc if recalc is not None else _num(fields.get("total"))
            medal = fields.get("medal")
            contestants.append(Contestant(
                name=str(fields.get("name") or ""), total=total, scores=scores,
                rank=None if _num(fields.get("rank")) is None else int(_num(fields.get("rank"))),
                country=None if _is_null(fields.get("country")) else str(fields.get("country")),
                medal=None if _is_null(medal) or str(medal).strip() == "" else str(medal).strip(),
                cf_rating=_num(fields.get("cf_rating"))))
        # Task columns by normalised task name (or the task part of the id).
        col_by_norm = {normalize_name(c): c for c in sorted(columns)}
        task_columns = {}
        held_here = [p for p in problems if p in held and held[p].dest == ""]
        for p in problems:
            pm = metas.get(p)
            cands = [pm.row.get("task_name")] if pm else []
            cands.append(p.split("-", 3)[-1])
            for cand in cands:
                if cand and normalize_name(str(cand)) in col_by_norm:
                    task_columns[p] = col_by_norm[normalize_name(str(cand))]
                    break
        unmatched = [p for p in held_here if p not in task_columns]
        if unmatched and contestants:
            log.warn(cid, f"no ranking column for held task(s) {', '.join(unmatched)}; humans are compared on "
                          f"their official totals")
        competition = crow.get("competition")
        if _is_null(competition):
            competition = cid.split("-")[0]
        # Ids as the task folders (and so the results store) spell them.
        fid = {p: (metas[p].folder if p in metas else safe_name(p)) for p in problems}
        infos.append(ContestInfo(
            contest_id=cid,
            competition=str(competition),
            date=_date(crow.get("date")),
            division=None if _is_null(crow.get("division")) else str(crow.get("division")),
            gold_cutoff=_num(crow.get("gold_cutoff")),
            silver_cutoff=_num(crow.get("silver_cutoff")),
            bronze_cutoff=_num(crow.get("bronze_cutoff")),
            num_contestants=None if _num(crow.get("num_contestants")) is None else int(_num(crow.get("num_contestants"))),
            problems=tuple(fid[p] for p in problems),
            held=tuple(fid[p] for p in held_here),
            task_columns={fid[p]: c for p, c in task_columns.items()},
            max_scores={fid[p]: held[p].max_points for p in problems if p in held},
            contestants=tuple(contestants),
        ))
        if not held_here:
            log.note(f"{cid}: the benchmark holds none of its tasks")
    return infos


# ============================================================================================
# CLI
# ============================================================================================


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m ibench.tasks import-liveoibench",
        description="Turn the published LiveOIBench release (problems, tests and contest parquet files) into "
                    "ibench task folders plus contests.json, reading the huge tests files page by page.")
    p.add_argument("--problems", type=Path, required=True, help="liveoibench_v1.parquet (one row per task)")
    p.add_argument("--tests", type=Path, required=True, help="folder of tests parquet files (or one file)")
    p.add_argument("--contests", type=Path, help="contest_results.parquet (cut-offs and human rankings)")
    p.add_argument("--out", type=Path, required=True, help="output folder (one sub-folder per task)")
    p.add_argument("--only", nargs="+", metavar="ID", help="import only these problem ids")
    p.add_argument("--grader-batch", choices=("skip", "import"), default="skip",
                   help="batch tasks linked with a grader: 'skip' puts them under _unsupported/ (default); "
                        "'import' writes them as batch tasks with grader/ (needs a loader that links it)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    for label, path in (("--problems", args.problems), ("--contests", args.contests)):
        if path is not None and not path.is_file():
            print(f"error: {label} {path} is not a file")
            return 2
    if not args.tests.exists():
        print(f"error: --tests {args.tests} does not exist")
        return 2
    log = import_liveoibench(args.problems, args.tests, args.out, contests=args.contests,
                             only=set(args.only) if args.only else None, grader_batch=args.grader_batch)
    print(log.render())
    return 0 if log.counts.get("imported", 0) else 1
