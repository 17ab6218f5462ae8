"""Read one flat ``BYTE_ARRAY`` column of a Parquet row group, one page at a time.

pyarrow decodes a whole column chunk of a row group even through ``iter_batches(batch_size=1)``
or a dataset scanner (measured: reading one 433 MB row group that way peaks near 1 GB of Arrow
memory; ``read_table`` near 1.7 GB RSS), so the 6-17 GB row groups of the LiveOIBench tests
files cannot be read that way. :func:`iter_byte_array_column` reads the column itself: page
headers decoded from the Thrift compact protocol; PLAIN and dictionary encodings; any codec
pyarrow can decompress; data pages v1 and v2. Memory is then bounded by the largest page of the
column (compressed plus decompressed) and not by the file or row group. Anything else (nested
types, another encoding or codec) raises :class:`PageReadError`, so that the caller can fall
back to pyarrow.

pyarrow is imported only when a column is read (it is needed for the schema, the column-chunk
metadata and the codecs).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Callable, Generator


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


def _lz4_hadoop(raw: bytes | memoryview, size: int) -> Any:
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
    """What a column read met: pages, the largest page and the largest value (bytes)."""

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


@dataclass(frozen=True)
class ColumnChunk:
    """Where one row group's chunk of a column lies in the file, and how it is stored."""

    start: int  # file offset of its first page (the dictionary page when there is one)
    end: int  # file offset just past its last page
    num_values: int  # values (nulls included) in the chunk
    max_def: int  # the column's maximum definition level (0: no nulls possible)
    codec: str | None  # pyarrow's codec name, "lz4_hadoop" for Parquet's legacy LZ4; None: uncompressed


def locate_column(path: Path, column: str, row_group: int) -> ColumnChunk:
    """The chunk of the flat ``BYTE_ARRAY`` column ``column`` in row group ``row_group``, from the
    file's footer; PageReadError when the column is missing, nested, not a byte array, or
    compressed with a codec this reader cannot undo."""
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
    start = min(starts)
    return ColumnChunk(start=start, end=start + meta.total_compressed_size, num_values=meta.num_values,
                       max_def=desc.max_definition_level, codec=codec)


Decompress = Callable[[bytes | memoryview, int], memoryview]


def _decompressor(codec: str | None) -> Decompress:
    """``decompress(raw, size)`` for the chunk's codec."""
    import pyarrow as pa

    # The system allocator hands a page's memory back at once (Arrow's default pool may cache it).
    pool = pa.system_memory_pool()

    def decompress(raw: bytes | memoryview, size: int) -> memoryview:
        if codec is None:
            return memoryview(raw)
        if codec == "lz4_hadoop":
            return memoryview(_lz4_hadoop(raw, size))
        return memoryview(pa.decompress(raw, decompressed_size=size, codec=codec, memory_pool=pool))

    return decompress


@dataclass
class _Page:
    """One decompressed page: a dictionary page, or a data page with its definition levels."""

    n: int  # values in the page (nulls included)
    encoding: int  # Parquet Encoding of the values
    values: memoryview  # the encoded values (levels stripped)
    defs: list[int] | None = None  # definition levels; None when the column has no nulls
    dictionary: bool = False


def _read_page(fh: BinaryIO, pos: int, chunk: ColumnChunk, decompress: Decompress,
               stats: PageStats) -> tuple[int, _Page | None]:
    """(offset of the next page, the page at ``pos``); None for pages that hold no values
    (index pages and the like). The compressed bytes are dropped on return."""
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
        return pos, _Page(n=dph.get(1, 0), encoding=0, values=decompress(raw, usize), dictionary=True)
    if ptype == 0:  # data page v1: levels inside the compressed block
        dph = header.get(5) or {}
        n = dph.get(1, 0)
        data = decompress(raw, usize)
        del raw
        if chunk.max_def == 0:
            return pos, _Page(n=n, encoding=dph.get(2, 0), values=data)
        ln = int.from_bytes(data[0:4], "little")
        defs = _rle_hybrid(data[4:4 + ln], chunk.max_def.bit_length(), n)
        return pos, _Page(n=n, encoding=dph.get(2, 0), values=data[4 + ln:], defs=defs)
    if ptype == 3:  # data page v2: levels uncompressed in front
        dph = header.get(8) or {}
        n = dph.get(1, 0)
        dl, rl = dph.get(5, 0), dph.get(6, 0)
        compressed = dph.get(7, True)
        mv = memoryview(raw)
        levels = _rle_hybrid(mv[rl:rl + dl], chunk.max_def.bit_length(), n) if chunk.max_def > 0 else None
        body: bytes | memoryview = bytes(mv[rl + dl:]) if compressed and chunk.codec else mv[rl + dl:]
        del mv
        values = decompress(body, usize - rl - dl) if compressed else memoryview(body)
        return pos, _Page(n=n, encoding=dph.get(4, 0), values=values, defs=levels)
    return pos, None


def _page_values(page: _Page, dictionary: list[memoryview], max_def: int, column: str) -> list[memoryview]:
    """The non-null values of a data page, as views into the page (or the dictionary)."""
    present = page.n if page.defs is None else sum(1 for d in page.defs if d == max_def)
    if page.encoding == 0:
        return _plain_byte_arrays(page.values, present)
    if page.encoding in (2, 8):  # PLAIN_DICTIONARY / RLE_DICTIONARY
        width = page.values[0] if present else 0
        idx = _rle_hybrid(page.values[1:], width, present) if present else []
        return [dictionary[i] for i in idx]
    raise PageReadError(f"encoding {page.encoding} of column {column!r} is not supported page-wise")


def _page_rows(page: _Page, dictionary: list[memoryview], max_def: int, column: str,
               stats: PageStats) -> Generator[memoryview | None, None, None]:
    """The rows of a data page: a view per value, None per null."""
    it = iter(_page_values(page, dictionary, max_def, column))
    for k in range(page.n):
        if page.defs is not None and page.defs[k] != max_def:
            yield None
        else:
            v = next(it)
            stats.largest_value = max(stats.largest_value, len(v))
            yield v


def iter_byte_array_column(
    path: Path, column: str, row_group: int, stats: PageStats | None = None
) -> Generator[memoryview | None, None, None]:
    """Values of a flat BYTE_ARRAY (string/binary) column of one row group, in row order, as
    zero-copy views into the current page; None for nulls. Only one page (plus the dictionary
    page, if any) is in memory at a time. A view is valid until the next value is requested."""
    chunk = locate_column(path, column, row_group)
    decompress = _decompressor(chunk.codec)
    stats = stats if stats is not None else PageStats()
    dictionary: list[memoryview] = []
    pos, remaining = chunk.start, chunk.num_values
    with open(path, "rb") as fh:
        while pos < chunk.end and remaining > 0:
            pos, page = _read_page(fh, pos, chunk, decompress, stats)
            if page is None:
                continue
            if page.dictionary:
                dictionary = _plain_byte_arrays(page.values, page.n)
            else:
                yield from _page_rows(page, dictionary, chunk.max_def, column, stats)
                remaining -= page.n
            del page  # release this page before reading the next
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

