"""Category A: semantic source mutants of an accepted C++ solution, parsed with tree-sitter.

Each mutant changes one node of the syntax tree and stays protocol-valid in form (the program
still flushes, reads and answers as before); only its logic is off:

- ``relop``: a relational operator's strictness flipped (``<`` / ``<=``, ``>`` / ``>=``);
- ``eqop``: ``==`` / ``!=`` swapped; ``reply_flip`` when one side is a character or string
  literal, the usual shape of a comparison with a judge reply (``r == '<'``);
- ``const``: an integer literal plus or minus one;
- ``index``: an array index plus or minus one;
- ``loop``: a ``for`` loop's bound moved one step so it ends one iteration early.

Left alone: preprocessor lines, array sizes, template arguments, comparisons with ``-1`` and the
conditions of an ``if`` that only leaves the program (``exit``, ``return`` in main): the refusal
and end-of-input guards, reached only after the judge refused or closed, which never happens to an
accepted solution (mutating them makes mutants no case can tell apart), and the constants
``main`` returns.

tree-sitter (the ``tree-sitter`` and ``tree-sitter-cpp`` wheels on PyPI) is a real, error-tolerant
C++ parser with a maintained grammar; macros and templates of contest code parse as they are
written, and every edit is a byte range of the original text, so a mutant differs from its
solution in exactly one place.
"""

from __future__ import annotations

import difflib
import hashlib
import random
import re
from dataclasses import dataclass

OPERATORS = ("relop", "eqop", "reply_flip", "const", "index", "loop")
_INT = re.compile(r"^(-?)(\d+)([uUlL]*)$")
_SKIP_PARENTS = {"preproc_include", "preproc_def", "preproc_function_def", "preproc_if", "preproc_ifdef",
                 "preproc_call", "array_declarator", "template_argument_list", "preproc_arg"}
_FLIP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}


@dataclass(frozen=True)
class SourceMutant:
    id: str  # "A:<solution>:<op>:<hash>"
    operator: str
    solution: str
    source: str
    line: int
    description: str
    diff: str


def _parser():
    import tree_sitter_cpp
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_cpp.language()))


def _text(src: bytes, node) -> str:
    return src[node.start_byte:node.end_byte].decode("utf-8", errors="replace")


def _skipped(node) -> bool:
    p = node.parent
    while p is not None:
        if p.type in _SKIP_PARENTS or p.type.startswith("preproc_"):
            return True
        p = p.parent
    return False


def _is_minus_one(src: bytes, node) -> bool:
    t = _text(src, node).strip()
    return t in ("-1", '"-1"')


_EXITS = {"exit", "_exit", "_Exit", "quick_exit", "abort"}


def _exits(src: bytes, node) -> bool:
    """A statement that only leaves the program: ``exit(..)``, ``return`` in main, or a block of one."""
    if node is None:
        return False
    if node.type == "compound_statement":
        inner = [c for c in node.named_children if c.type != "comment"]
        return len(inner) == 1 and _exits(src, inner[0])
    if node.type == "return_statement":
        return _in_main(node)
    if node.type == "expression_statement" and node.named_children:
        call = node.named_children[0]
        if call.type == "call_expression":
            fn = call.child_by_field_name("function")
            return fn is not None and _text(src, fn).replace("std::", "") in _EXITS
    return False


def _in_guard(src: bytes, node) -> bool:
    """Inside the condition of an ``if`` whose only consequence is to leave the program: the
    guard that ends the run on the judge's refusal (-1) or on end of input, which no accepted run
    takes. Mutating it gives a mutant no case can tell apart, or one killed for leaving early."""
    p = node.parent
    while p is not None:
        if p.type == "condition_clause" and p.parent is not None and p.parent.type == "if_statement":
            stmt = p.parent
            return stmt.child_by_field_name("alternative") is None and _exits(src, stmt.child_by_field_name("consequence"))
        if p.type in ("compound_statement", "function_definition", "lambda_expression"):
            return False
        p = p.parent
    return False


def _in_main(node) -> bool:
    p = node.parent
    while p is not None:
        if p.type == "function_definition":
            d = p.child_by_field_name("declarator")
            name = d.child_by_field_name("declarator") if d is not None else None
            return name is not None and name.type == "identifier" and name.text == b"main"
        p = p.parent
    return False


@dataclass(frozen=True)
class _Edit:
    operator: str
    start: int
    end: int
    replacement: str
    what: str


def _edits(src: bytes, root) -> list[_Edit]:
    edits: list[_Edit] = []
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(reversed(node.children))
        if _skipped(node):
            continue
        t = node.type
        if t in ("binary_expression", "number_literal", "subscript_expression") and _in_guard(src, node):
            continue
        if t == "binary_expression":
            op = node.child_by_field_name("operator")
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if op is None or left is None or right is None:
                continue
            sym = _text(src, op)
            if sym in _FLIP and not (_is_minus_one(src, left) or _is_minus_one(src, right)):
                if sym in ("==", "!="):
                    lit = {"char_literal", "string_literal", "raw_string_literal"}
                    kind = "reply_flip" if left.type in lit or right.type in lit else "eqop"
                else:
                    kind = "relop"
                edits.append(_Edit(kind, op.start_byte, op.end_byte, _FLIP[sym],
                                   f"'{_text(src, node)}': {sym} -> {_FLIP[sym]}"))
            parent = node.parent
            if (parent is not None and parent.type == "for_statement"
                    and parent.child_by_field_name("condition") == node and sym in ("<", "<=", "!=", ">", ">=")):
                delta = "- 1" if sym in ("<", "<=", "!=") else "+ 1"
                rt = _text(src, right)
                edits.append(_Edit("loop", right.start_byte, right.end_byte, f"({rt}) {delta}",
                                   f"loop '{_text(src, node)}' ends one step early: {rt} -> ({rt}) {delta}"))
        elif t == "number_literal":
            text = _text(src, node)
            m = _INT.match(text)
            if not m or (len(m.group(2)) > 1 and m.group(2).startswith("0")):
                continue  # hex, octal, floating point, user literals
            parent = node.parent
            if parent is not None and parent.type == "unary_expression":
                parent = parent.parent  # -1 parses as a literal or as unary minus
            if parent is not None and parent.type == "binary_expression":
                sides = [parent.child_by_field_name("left"), parent.child_by_field_name("right")]
                if any(c is not None and _is_minus_one(src, c) for c in sides):
                    continue
            if parent is not None and parent.type == "return_statement" and _in_main(parent):
                continue  # main's exit status: 0 on every path an accepted run takes
            sign, digits, suffix = m.groups()
            value = int(sign + digits)
            for d in (1, -1):
                new = value + d
                rep = f"{new}{suffix}" if new >= 0 else f"({new}{suffix})"
                edits.append(_Edit("const", node.start_byte, node.end_byte, rep, f"constant {text} -> {new}{suffix}"))
        elif t == "subscript_expression":
            idx = node.child_by_field_name("indices") or node.child_by_field_name("index")
            if idx is None:
                continue
            inner = [c for c in idx.children if c.is_named] if idx.type == "subscript_argument_list" else [idx]
            if len(inner) != 1:
                continue
            e = inner[0]
            et = _text(src, e)
            for delta in ("+ 1", "- 1"):
                edits.append(_Edit("index", e.start_byte, e.end_byte, f"({et}) {delta}",
                                   f"index '{_text(src, node)}' -> [{et} {delta}]"))
    return edits


def _diff(old: str, new: str, name: str) -> str:
    lines = difflib.unified_diff(old.splitlines(), new.splitlines(), f"a/{name}", f"b/{name}", n=1, lineterm="")
    return "\n".join(lines)


def mutant_id(solution: str, operator: str, start: int, end: int, replacement: str) -> str:
    h = hashlib.sha256(f"{solution}\0{start}\0{end}\0{replacement}".encode()).hexdigest()[:8]
    return f"A:{solution}:{operator}:{h}"


def source_mutants(solution: str, source: str, limit: int | None = None, seed: str = "") -> list[SourceMutant]:
    """The Category A mutants of one solution: all of them, or ``limit`` chosen deterministically
    (by ``seed``), taking the operators in turn so every kind is represented."""
    src = source.encode("utf-8")
    tree = _parser().parse(src)
    edits = _edits(src, tree.root_node)
    seen: set[tuple[int, int, str]] = set()
    unique = []
    for e in edits:
        key = (e.start, e.end, e.replacement)
        if key not in seen:
            seen.add(key)
            unique.append(e)
    if limit is not None and len(unique) > limit:
        rng = random.Random(f"ibench-probe:{seed}:{solution}")
        by_op: dict[str, list[_Edit]] = {}
        for e in unique:
            by_op.setdefault(e.operator, []).append(e)
        for group in by_op.values():
            rng.shuffle(group)
        # The rarer, more telling operators first in each round.
        order = [op for op in ("reply_flip", "loop", "relop", "eqop", "index", "const") if op in by_op]
        chosen: list[_Edit] = []
        while len(chosen) < limit:
            for op in order:
                if by_op[op] and len(chosen) < limit:
                    chosen.append(by_op[op].pop())
            if not any(by_op[op] for op in order):
                break
        unique = sorted(chosen, key=lambda e: (e.start, e.replacement))
    out = []
    for e in unique:
        new = (src[:e.start] + e.replacement.encode() + src[e.end:]).decode("utf-8", errors="replace")
        line = src[:e.start].count(b"\n") + 1
        out.append(SourceMutant(mutant_id(solution, e.operator, e.start, e.end, e.replacement), e.operator,
                                solution, new, line, f"line {line}: {e.what}", _diff(source, new, solution)))
    return out
