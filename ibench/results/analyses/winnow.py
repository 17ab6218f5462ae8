"""Code similarity by tokenised winnowing, Dolos's method (Maertens et al., 2022), for C++:

1. **Tokens**: the source is parsed with tree-sitter-cpp and the syntax tree is written as an
   S-expression of node types — ``(``, the node's type, its named children in order, ``)`` — so
   names, literals, comments and layout do not count, structure does.
2. **k-grams**: every run of ``k`` consecutive tokens (default 23, Dolos's) is hashed with a
   rolling polynomial hash of the tokens' own hashes.
3. **Winnowing** (Schleimer, Wilkerson & Aiken, 2003): in every window of ``w`` consecutive
   k-gram hashes (default 17, Dolos's) the minimum is kept (the rightmost on a tie), recorded
   once per position: the file's fingerprints.
4. **Pair similarity**: the fingerprints of each file that the other file shares (by hash),
   over all fingerprints of both: ``(covered_A + covered_B) / (total_A + total_B)`` — Dolos's
   ``Pair.similarity``.

The hashing uses Dolos's published Rabin-Karp parameters, so that the fingerprints are the same
numbers where the two parsers give the same tree; :mod:`.dolos` measures the agreement on pairs
(docs/ANALYSES.md)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Sequence

K = 23
W = 17
# Rabin-Karp hashing with Dolos's parameters, so that the same tokens give the same numbers: the
# largest 26-bit prime as modulus (a product of two hashes stays exact in a double), a token's
# characters in base 747287 (the largest prime with 127 x base < modulus), the k-grams in base
# 4194301 (the largest 22-bit prime)
_MOD = 33554393
_TOKEN_BASE = 747287
_BASE = 4194301


@lru_cache(maxsize=1)
def _parser() -> Any:
    import tree_sitter_cpp
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_cpp.language()))


def tokens(code: str) -> list[str]:
    """The S-expression tokens of the source's syntax tree (named nodes only, Dolos's walk)."""
    tree = _parser().parse(code.encode("utf-8", "replace"))
    out: list[str] = []
    stack: list[Any] = [tree.root_node]
    while stack:
        node = stack.pop()
        if node is None:
            out.append(")")
            continue
        if "comment" in node.type:  # comments are no part of the structure (Dolos leaves them out too)
            continue
        out += ["(", node.type]
        stack.append(None)
        stack.extend(reversed(node.named_children))
    return out


@lru_cache(maxsize=4096)
def _token_hash(token: str) -> int:
    """A token's polynomial hash over its UTF-16 code units (each added, then the sum scaled)."""
    h = 0
    units = token.encode("utf-16-le")
    for i in range(0, len(units), 2):
        h = ((h + int.from_bytes(units[i:i + 2], "little")) * _TOKEN_BASE) % _MOD
    return h


def kgram_hashes(toks: Sequence[str], k: int = K) -> list[int]:
    """The rolling hash of every k consecutive tokens (none for fewer than k tokens): each step
    scales by the base, adds the new token's hash and takes away the one k tokens back."""
    if len(toks) < k:
        return []
    drop = _MOD - pow(_BASE, k, _MOD)  # adding drop x old == taking away base^k x old
    hs = [_token_hash(t) for t in toks]
    h = 0
    out = []
    for i, x in enumerate(hs):
        h = (_BASE * h + x + drop * (hs[i - k] if i >= k else 0)) % _MOD
        if i >= k - 1:
            out.append(h)
    return out


def winnow(hashes: Sequence[int], w: int = W) -> list[tuple[int, int]]:
    """(hash, k-gram index) of the fingerprints, as Dolos's ``WinnowFilter`` picks them: a ring
    of ``w`` slots starts full of +inf, so the first k-grams are picked from a window still
    filling; then each window's minimum is kept, a new pick whenever the kept position changes
    (the newest k-gram wins a tie when it arrives; a rescan after the minimum leaves the
    window keeps the oldest of equal ones over the newest, and the newer among older ones)."""
    inf = _MOD + 1
    buf = [inf] * w
    pos = 0  # the slot of the newest hash
    low = 0  # the slot of the kept minimum
    slot_index = [-1] * w
    out: list[tuple[int, int]] = []
    for i, h in enumerate(hashes):
        pos = (pos + 1) % w
        buf[pos] = h
        slot_index[pos] = i
        if low == pos:  # the kept minimum just left the window: rescan from the oldest slot
            j = (pos + 1) % w
            while j != pos:
                if buf[j] <= buf[low]:
                    low = j
                j = (j + 1) % w
            out.append((buf[low], slot_index[low]))
        elif buf[pos] <= buf[low]:
            low = pos
            out.append((buf[low], i))
    return out


@dataclass(frozen=True)
class Fingerprints:
    hashes: tuple[int, ...]  # one per fingerprint, in order (a hash may repeat)
    n_tokens: int

    @classmethod
    def of(cls, code: str, k: int = K, w: int = W) -> Fingerprints:
        toks = tokens(code)
        return cls(tuple(h for h, _ in winnow(kgram_hashes(toks, k), w)), len(toks))


def similarity(a: Fingerprints, b: Fingerprints) -> float:
    """Dolos's pair similarity: shared fingerprints' occurrences in both over all of both."""
    total = len(a.hashes) + len(b.hashes)
    if not total:
        return 0.0
    shared = set(a.hashes) & set(b.hashes)
    ca, cb = Counter(a.hashes), Counter(b.hashes)
    covered = sum(ca[h] for h in shared) + sum(cb[h] for h in shared)
    return covered / total


def code_similarity(x: str, y: str, k: int = K, w: int = W) -> float:
    return similarity(Fingerprints.of(x, k, w), Fingerprints.of(y, k, w))
