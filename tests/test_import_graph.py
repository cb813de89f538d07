"""No import cycles: in the cardgen package, and in each game folder's own Python.

The graph is read from the source (every import statement, also those inside functions, which is
where cycles hide): module A -> module B when A imports B, or imports a name from B's package
that is not itself a submodule. A cycle is a strongly connected component of more than one
module (or a module importing itself).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

GAMES = sorted(p.parent.name for p in (ROOT / "content").glob("*/game.yaml"))


def modules_under(root: Path, prefix: str) -> dict[str, Path]:
    """Module name -> file for every .py file below root (a package's name is its folder's)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join([prefix, *parts]) if parts else prefix] = path
    return out


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package
                    for _ in range(node.level - 1):
                        base = base.rpartition(".")[0]
                    source = f"{base}.{node.module}" if node.module else base
                else:
                    source = node.module or ""
                for alias in node.names:
                    submodule = f"{source}.{alias.name}"
                    targets.append(submodule if submodule in modules else source)
            for target in targets:
                # `import a.b.c` names the deepest module of ours it reaches
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with a cycle in them (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in graph[node]:
                        found.append(sorted(component))
    return found


def test_the_walker_sees_a_cycle_hidden_in_a_function(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("from .a import f\nX = 1\n")
    (tmp_path / "pkg" / "a.py").write_text("def f():\n    from . import X\n    return X\n")
    (tmp_path / "pkg" / "b.py").write_text("from pkg.a import f\n")
    graph = import_graph(modules_under(tmp_path / "pkg", "pkg"))
    assert cycles(graph) == [["pkg", "pkg.a"]]


def test_the_cardgen_package_has_no_import_cycle():
    assert cycles(import_graph(modules_under(ROOT / "cardgen", "cardgen"))) == []


@pytest.mark.parametrize("folder", [*(f"content/{g}" for g in GAMES), "tests/data/tide-runners"])
def test_a_game_folders_python_has_no_import_cycle(folder):
    """A game's Python is one package rooted at its folder (cardgen/gamecode.py)."""
    assert cycles(import_graph(modules_under(ROOT / folder, "game"))) == []
