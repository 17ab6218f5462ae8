"""The shape of the package, checked: no import circle among ibench's modules (imports at module
level; one made inside a function is deliberate and lazy), and no module so big that it holds
more than one job (issue 18: none over 600 lines)."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "ibench"
MAX_LINES = 600


def module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PKG.rglob("*.py") if ".mypy_cache" not in p.parts}


def top_level_imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The ibench modules ``name`` imports when it is imported (not what its functions import)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def resolve(mod: str) -> str | None:
        while mod and mod not in known:  # `from ibench.x import y` where y is a name in x
            mod = mod.rpartition(".")[0]
        return mod or None

    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            continue
        stmts = [node] + (list(ast.walk(node)) if isinstance(node, (ast.Try, ast.If, ast.With)) else [])
        for stmt in stmts:
            if isinstance(stmt, ast.Import):
                targets = [a.name for a in stmt.names]
            elif isinstance(stmt, ast.ImportFrom):
                base = stmt.module or ""
                if stmt.level:
                    anchor = package.split(".")[: len(package.split(".")) - stmt.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                targets = [f"{base}.{a.name}" for a in stmt.names] + [base]
            else:
                continue
            for t in targets:
                if t.startswith("ibench") and (r := resolve(t)) and r != name:
                    found.add(r)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def import_graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    graph = {}
    for name, path in mods.items():
        # a package's __init__ is imported before any of its modules: an edge from a module to
        # its own package is no circle of the code's making
        graph[name] = {m for m in top_level_imports(name, path, known) if not name.startswith(m + ".")}
    return graph


def test_the_cycle_finder_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_relative_and_absolute_imports():
    graph = import_graph()
    assert "ibench.judge.verdict" in graph["ibench.judge.interactive"] or any(
        m.startswith("ibench.judge") for m in graph["ibench.judge.interactive"])
    assert len(graph) > 50


def test_no_import_circle_among_ibench_modules():
    assert cycles(import_graph()) == []


def test_no_module_over_600_lines():
    big = {name: n for name, p in modules().items() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not big, f"modules over {MAX_LINES} lines (split them by job): {big}"
