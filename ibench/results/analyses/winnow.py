"""Code similarity by tokenised winnowing, Dolos's method (Maertens et al., 2022), for C++:

1. **Tokens**: the source is parsed with tree-sitter-cpp and the syntax tree is written as an
   S-expression of node types — ``(``, the node's type, its named children in order, ``)`` — so
   names, literals and layout do not count, structure does.
2. **k-grams**: every run of ``k`` consecutive tokens (default 23, Dolos's) is hashed with a
   rolling polynomial hash of the tokens' own hashes.
3. **Winnowing** (Schleimer, Wilkerson & Aiken, 2003): in every window of ``w`` consecutive
   k-gram hashes (default 17, Dolos's) the minimum is kept (the rightmost on a tie), recorded
   once per position: the file's fingerprints.
4. **Pair similarity**: the fingerprints of each file that the other file shares (by hash),
   over all fingerprints of both: ``(covered_A + covered_B) / (total_A + total_B)`` — Dolos's
   ``Pair.similarity``.

The hashes are ibench's own (not Dolos's numbers), so single fingerprints may differ; the
similarity agrees with Dolos's within the spread its window choice allows (docs/ANALYSES.md)."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Sequence

K = 23
W = 17
_MOD = (1 << 61) - 1
_BASE = 1_000_003


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
        out += ["(", node.type]
        stack.append(None)
        stack.extend(reversed(node.named_children))
    return out


@lru_cache(maxsize=4096)
def _token_hash(token: str) -> int:
    return int.from_bytes(hashlib.blake2b(token.encode(), digest_size=8).digest(), "big") % _MOD


def kgram_hashes(toks: Sequence[str], k: int = K) -> list[int]:
    """The rolling hash of every k consecutive tokens (none for fewer than k tokens)."""
    if len(toks) < k:
        return []
    top = pow(_BASE, k - 1, _MOD)
    hs = [_token_hash(t) for t in toks]
    h = 0
    for x in hs[:k]:
        h = (h * _BASE + x) % _MOD
    out = [h]
    for i in range(k, len(hs)):
        h = ((h - hs[i - k] * top) * _BASE + hs[i]) % _MOD
        out.append(h)
    return out


def winnow(hashes: Sequence[int], w: int = W) -> list[tuple[int, int]]:
    """(hash, k-gram index) of the fingerprints: each window's rightmost minimum, once per index.
    Fewer hashes than a window: the one window there is."""
    if not hashes:
        return []
    w = min(w, len(hashes))
    picked: list[tuple[int, int]] = []
    last = -1
    for start in range(len(hashes) - w + 1):
        window = hashes[start:start + w]
        low = min(window)
        pos = start + max(i for i, h in enumerate(window) if h == low)
        if pos != last:
            picked.append((low, pos))
            last = pos
    return picked


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
