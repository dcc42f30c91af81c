"""The import graph of `pbem/`: who may import whom (issue #11, "one public core").

Every module under `pbem/` is parsed with `ast`; every `import` and `from ... import` counts,
at module level and inside functions alike (an import on use is still a dependency). The rules:

1. A ruleset is reached only through the core's registry (import strings): nothing outside
   `pbem/rulesets/<id>/` imports `pbem.rulesets.<id>` or one of its modules. The shared kit,
   `pbem.rulesets.kit`, may be imported by any ruleset.
2. The mail judge, render, the CLI and the demo use the core only through its public API,
   `pbem.core.api` (which also re-exports the core's errors).
3. The core imports neither mail, nor render, nor any ruleset.
4. No import cycle among pbem modules at module level (imports inside functions and under
   `if TYPE_CHECKING:` do not run at import time and are left out of this one).

Tests are not checked: they may reach into anything they test.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "pbem"
PUBLIC_CORE = "pbem.core.api"
CLIENTS = ("pbem.mail", "pbem.render", "pbem.cli", "pbem.demo")  # rule 2: the core's users
SHARED_RULESET_PACKAGES = ("kit",)


@dataclass(frozen=True)
class Edge:
    source: str  # the importing module
    target: str  # the pbem module imported
    line: int
    at_load: bool  # runs when the source is imported (module level, not under TYPE_CHECKING)

    def __str__(self) -> str:
        return f"{self.source} (line {self.line}) imports {self.target}"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


MODULES = all_modules()


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _resolve_base(source: str, is_package: bool, module: str | None, level: int) -> str:
    if level == 0:
        return module or ""
    parts = source.split(".") if is_package else source.split(".")[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)]
    return ".".join(parts + ([module] if module else []))


def edges_of(name: str, path: Path) -> list[Edge]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found: list[Edge] = []

    def add(target: str, node: ast.stmt, at_load: bool) -> None:
        if within(target, "pbem"):
            found.append(Edge(name, target, node.lineno, at_load))

    def visit(node: ast.AST, at_load: bool) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node, at_load)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve_base(name, is_package, node.module, node.level)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                # `from package import module` depends on that module; `from module import name` on the module.
                add(submodule if submodule in MODULES else base, node, at_load)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            at_load = False
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, False)
            for child in node.orelse:
                visit(child, at_load)
            return
        for child in ast.iter_child_nodes(node):
            visit(child, at_load)

    visit(tree, True)
    return found


EDGES = [edge for name, path in MODULES.items() for edge in edges_of(name, path)]


def ruleset_of(name: str) -> str | None:
    """The ruleset package a module belongs to (`pbem.rulesets.<id>`), or None (the kit is shared)."""
    parts = name.split(".")
    if len(parts) >= 3 and parts[:2] == ["pbem", "rulesets"] and parts[2] not in SHARED_RULESET_PACKAGES:
        return ".".join(parts[:3])
    return None


def test_the_graph_is_read() -> None:
    # The parser sees what it should: a plain import, an import on use, and a relative one.
    assert {"pbem.core.api", "pbem.mail.judge", "pbem.render.svg", "pbem.rulesets.kit.tables"} <= set(MODULES)
    judge = {edge.target for edge in EDGES if edge.source == "pbem.mail.judge"}
    assert {"pbem.core.api", "pbem.mail.intake", "pbem.mail.report"} <= judge
    on_use = [edge for edge in EDGES if edge.source == "pbem.cli" and not edge.at_load]
    assert any(edge.target == "pbem.demo" for edge in on_use)


def test_rulesets_are_reached_only_through_the_registry() -> None:
    wrong = sorted({str(edge) for edge in EDGES
                    if (owner := ruleset_of(edge.target)) is not None and not within(edge.source, owner)})
    assert wrong == [], "import a ruleset by the registry's import string, never by name:\n" + "\n".join(wrong)


@pytest.mark.parametrize("client", CLIENTS)
def test_mail_render_cli_and_demo_use_only_the_public_core(client: str) -> None:
    wrong = sorted({str(edge) for edge in EDGES
                    if within(edge.source, client) and within(edge.target, "pbem.core") and edge.target != PUBLIC_CORE})
    assert wrong == [], f"use {PUBLIC_CORE} (add what is missing there):\n" + "\n".join(wrong)


def test_the_core_imports_no_mail_render_or_ruleset() -> None:
    wrong = sorted({str(edge) for edge in EDGES if within(edge.source, "pbem.core")
                    and any(within(edge.target, other) for other in ("pbem.mail", "pbem.render", "pbem.rulesets"))})
    assert wrong == [], "\n".join(wrong)


def cycles(edges: list[Edge]) -> list[list[str]]:
    """One cycle (as a path a -> b -> ... -> a) for each strongly connected group of modules."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        if edge.source != edge.target:
            graph.setdefault(edge.source, set()).add(edge.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def connect(node: str) -> None:  # Tarjan's algorithm (the graph is a few hundred modules)
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            connect(node)
    found = []
    for group in groups:
        start = min(group)
        path, seen = [start], {start}
        while True:  # walk inside the group until a module comes round again
            step = min(t for t in graph[path[-1]] if t in group)
            if step in seen:
                found.append(path[path.index(step):] + [step])
                break
            path.append(step)
            seen.add(step)
    return found


def test_no_import_cycle_at_module_level() -> None:
    found = cycles([edge for edge in EDGES if edge.at_load])
    assert found == [], "import cycles:\n" + "\n".join(" -> ".join(cycle) for cycle in found)


def test_a_cycle_is_reported_with_its_path() -> None:
    made = [Edge("pbem.a", "pbem.b", 1, True), Edge("pbem.b", "pbem.c", 1, True), Edge("pbem.c", "pbem.a", 1, True),
            Edge("pbem.c", "pbem.d", 1, True)]
    assert cycles(made) == [["pbem.a", "pbem.b", "pbem.c", "pbem.a"]]
