"""The protocol facts of a task card (meta.json ``"probe"``) that Category B mutants are built from.

    "probe": {
      "query": "?",              word that starts a query line ("" or absent: no query word)
      "answer": "!",             word that starts an answer line ("" or absent: none)
      "reply_lines": 1,          lines the interactor answers to one query (default 1)
      "budget": "L(1,2)",        the statement's query limit at the first answer (absent: no budget)
      "sample_query": "? 1",     a query valid in every game, used when none was asked yet (optional)
      "args": [                  argument ranges of one line, each checked at both ends
        {"on": "?", "token": 2, "min": "1", "max": "L(2,1)", "label": "PE"}
      ],
      "strict_lines": false,     the interactor reads line by line: a missing token must be PE
      "equivalent": {"A:ok.cpp:relop:1a2b3c": "why this mutant cannot be told apart"},
      "category_b": "fail"       written by an importer's --probe: the interactor's Category B result
    }

Expressions (``budget``, ``min``, ``max``) are integer arithmetic over what the interactor has
printed before the mutated line: ``L(i, j)`` is the j-th token of the interactor's i-th line,
``P(k, j)`` the j-th token of its k-th latest line (``P(1, j)``: the line just before; all from 1), with ``+ - * / %``, parentheses, ``min``, ``max``, ``clog2`` (ceil log2), ``flog2``
(floor log2) and ``clog3`` (ceil log3). They are checked here and compiled into the mutant as C++.
``on`` is a command word (the first line starting with it) or a number (the solver's n-th line).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

FUNCTIONS = {"L": 2, "P": 2, "clog2": 1, "flog2": 1, "clog3": 1, "min": 2, "max": 2}
LABELS = ("PE", "WA", "QLE", "IDLE")
KEYS = {"query", "answer", "reply_lines", "budget", "sample_query", "args", "strict_lines", "equivalent",
        "category_b"}
ARG_KEYS = {"on", "token", "min", "max", "label"}


class FactError(ValueError):
    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class ArgRange:
    on: str | int
    token: int  # 1-based token index in the line
    min: str | None
    max: str | None
    label: str = "PE"


@dataclass(frozen=True)
class Facts:
    query: str = ""
    answer: str = ""
    reply_lines: int = 1
    budget: str | None = None
    sample_query: str | None = None
    args: tuple[ArgRange, ...] = ()
    strict_lines: bool = False
    equivalent: dict[str, str] = field(default_factory=dict)


def to_cpp(expr: str, where: str) -> str:
    """The C++ form of a facts expression; FactError when it is not one."""
    try:
        tree = ast.parse(expr.strip(), mode="eval")
    except SyntaxError as e:
        raise FactError(where, f"{expr!r} is not an expression ({e.msg})") from None

    def emit(node: ast.AST) -> str:
        if isinstance(node, ast.Expression):
            return emit(node.body)
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return f"{node.value}LL"
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            return f"({'-' if isinstance(node.op, ast.USub) else '+'}{emit(node.operand)})"
        if isinstance(node, ast.BinOp):
            ops = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "/", ast.Mod: "%"}
            op = ops.get(type(node.op))
            if op is None:
                raise FactError(where, f"{expr!r}: operator {type(node.op).__name__} is not allowed")
            return f"({emit(node.left)} {op} {emit(node.right)})"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            name = node.func.id
            if name not in FUNCTIONS:
                raise FactError(where, f"{expr!r}: unknown function {name}; expected one of {', '.join(FUNCTIONS)}")
            if len(node.args) != FUNCTIONS[name]:
                raise FactError(where, f"{expr!r}: {name} takes {FUNCTIONS[name]} arguments")
            if name in ("L", "P") and not all(isinstance(a, ast.Constant) and type(a.value) is int and a.value >= 1
                                       for a in node.args):
                raise FactError(where, f"{expr!r}: {name}(i, j) takes two positive integer constants")
            return f"ibp_{name}({', '.join(emit(a) for a in node.args)})"
        raise FactError(where, f"{expr!r}: {ast.dump(node)[:40]} is not allowed (integers, L(i, j), + - * / %, "
                               "min, max, clog2, flog2, clog3)")

    return emit(tree)


def parse_facts(raw: Any) -> Facts:
    """Facts from a task card's ``probe`` value (None or absent: no facts); FactError names the field."""
    if raw is None:
        return Facts()
    if not isinstance(raw, dict):
        raise FactError("probe", f"{raw!r} is not an object")
    unknown = sorted(set(raw) - KEYS)
    if unknown:
        raise FactError(f"probe.{unknown[0]}", f"unknown key; expected one of {', '.join(sorted(KEYS))}")

    def word(key: str) -> str:
        v = raw.get(key, "")
        if v is None:
            return ""
        if not isinstance(v, str) or (v and (v.split() != [v])):
            raise FactError(f"probe.{key}", f"{v!r} is not a single word")
        return v

    query, answer = word("query"), word("answer")
    reply_lines = raw.get("reply_lines", 1)
    if type(reply_lines) is not int or reply_lines < 0:
        raise FactError("probe.reply_lines", f"{reply_lines!r} is not a count of lines (0 or more)")
    budget = raw.get("budget")
    if budget is not None:
        if not isinstance(budget, str):
            raise FactError("probe.budget", f"{budget!r} is not an expression string")
        to_cpp(budget, "probe.budget")
        if not query:
            raise FactError("probe.budget", "a budget needs the query word (probe.query) to count queries")
    sample = raw.get("sample_query")
    if sample is not None and (not isinstance(sample, str) or not sample.strip() or "\n" in sample):
        raise FactError("probe.sample_query", f"{sample!r} is not one line")
    args = []
    raw_args = raw.get("args", [])
    if not isinstance(raw_args, list):
        raise FactError("probe.args", f"{raw_args!r} is not a list")
    for i, a in enumerate(raw_args):
        where = f"probe.args[{i}]"
        if not isinstance(a, dict):
            raise FactError(where, f"{a!r} is not an object")
        extra = sorted(set(a) - ARG_KEYS)
        if extra:
            raise FactError(f"{where}.{extra[0]}", f"unknown key; expected {', '.join(sorted(ARG_KEYS))}")
        on = a.get("on")
        if not ((isinstance(on, str) and on and on.split() == [on]) or (type(on) is int and on >= 1)):
            raise FactError(f"{where}.on", f"{on!r} is neither a command word nor a line number (from 1)")
        token = a.get("token")
        if type(token) is not int or token < 1:
            raise FactError(f"{where}.token", f"{token!r} is not a token index (from 1)")
        if isinstance(on, str) and token == 1:
            raise FactError(f"{where}.token", "token 1 is the command word itself")
        lo, hi = a.get("min"), a.get("max")
        if lo is None and hi is None:
            raise FactError(where, "needs min, max or both")
        for key, v in (("min", lo), ("max", hi)):
            if v is not None:
                if not isinstance(v, str):
                    raise FactError(f"{where}.{key}", f"{v!r} is not an expression string")
                to_cpp(v, f"{where}.{key}")
        label = a.get("label", "PE")
        if label not in LABELS:
            raise FactError(f"{where}.label", f"{label!r} is not one of {', '.join(LABELS)}")
        args.append(ArgRange(on, token, lo, hi, label))
    strict = raw.get("strict_lines", False)
    if type(strict) is not bool:
        raise FactError("probe.strict_lines", f"{strict!r} is not true or false")
    status = raw.get("category_b")
    if status is not None and status not in ("pass", "fail"):
        raise FactError("probe.category_b", f"{status!r} is not pass or fail (written by --probe on import)")
    eq = raw.get("equivalent", {})
    if not isinstance(eq, dict) or not all(isinstance(k, str) and isinstance(v, str) and v.strip()
                                           for k, v in eq.items()):
        raise FactError("probe.equivalent", "expected an object of mutant id -> non-empty reason")
    return Facts(query, answer, reply_lines, budget, sample, tuple(args), strict, dict(eq))
