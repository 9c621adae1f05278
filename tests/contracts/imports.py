"""The import graph of the project's packages, read from the source with `ast` (nothing is run).

An edge is one module importing another, wherever the import statement stands (a
function-level import is still a dependency: it only hides a cycle from the interpreter),
except under `if TYPE_CHECKING:`, which never runs. `from a.b import c` is an edge to the
module `a.b.c` when there is one, else to `a.b`; importing a package's module is not
counted as importing the package's parents (as grimp and import-linter count it).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from pathlib import Path

Graph = dict[str, set[str]]


def modules(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module of `packages` under `root`, by dotted name (a package is its __init__)."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                yield from _imports(child)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        yield from _imports(node)


def _known(name: str, known: dict[str, Path]) -> str | None:
    """`name` if it is a module, else its longest prefix that is one (None outside)."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in known:
            return candidate
    return None


def _targets(module: str, node: ast.Import | ast.ImportFrom, known: dict[str, Path]) -> set[str]:
    if isinstance(node, ast.Import):
        return {t for alias in node.names if (t := _known(alias.name, known))}
    base = node.module or ""
    if node.level:
        package = module.split(".")
        is_package = known[module].name == "__init__.py"
        anchor = package[: len(package) - node.level + (1 if is_package else 0)]
        base = ".".join([*anchor, *([base] if base else [])])
    found = set()
    for alias in node.names:
        target = _known(f"{base}.{alias.name}", known) if alias.name != "*" else None
        if target is None or target == _known(base, known):
            target = _known(base, known)
        if target is not None:
            found.add(target)
    return found


def import_graph(root: Path, packages: Iterable[str]) -> Graph:
    """module → the project modules it imports."""
    known = modules(root, packages)
    graph: Graph = {}
    for module, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        edges = graph.setdefault(module, set())
        for node in _imports(tree):
            edges |= _targets(module, node, known) - {module}
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)
