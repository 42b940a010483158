"""The modules' imports: no cycle among what Python runs on import, and one direction for the
pipeline (the loaders never import the service) — read from the source with ``ast``."""

from __future__ import annotations

import ast
from pathlib import Path

import yili_kg.loaders
import yili_kg.service

PACKAGES = (yili_kg.loaders, yili_kg.service)


def _modules() -> dict[str, ast.Module]:
    found = {}
    for package in PACKAGES:
        for folder in package.__path__:  # the installed package's folders (editable or not)
            for path in sorted(Path(folder).rglob("*.py")):  # its stage folders too
                parts = path.relative_to(folder).with_suffix("").parts
                if parts[-1] == "__init__":
                    parts = parts[:-1]
                name = ".".join((package.__name__, *parts))
                found[name] = ast.parse(path.read_text(encoding="utf-8"))
    return found


def _imported(nodes, known: set[str]) -> set[str]:
    """The project's modules that these statements import (``from a import b``: a, or a.b when
    b is a module)."""
    out = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out |= {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
    return out & known


def _top_level(tree: ast.Module) -> list[ast.stmt]:
    """The statements run when a module is imported: its top-level ones (and those of top-level
    try/with blocks), not function bodies nor ``if TYPE_CHECKING:`` blocks."""
    nodes: list[ast.stmt] = []
    for node in tree.body:
        if isinstance(node, (ast.Try, ast.With)):
            nodes.extend(node.body)
        elif not isinstance(node, (ast.If, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            nodes.append(node)
    return nodes


def _on_import(tree: ast.Module, known: set[str]) -> set[str]:
    """What a module imports when it is imported (:func:`_top_level`)."""
    return _imported(_top_level(tree), known)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, or of one importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph[v]:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_itself_back_on_import():
    modules = _modules()
    known = set(modules)
    graph = {name: _on_import(tree, known) for name, tree in modules.items()}
    assert len(graph) > 60  # every module of both packages was read
    assert graph["yili_kg.loaders.build"] >= {"yili_kg.loaders.built", "yili_kg.loaders.corpus"}
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert _cycles(graph) == [["a", "b", "c"], ["e"]]


def test_the_loaders_never_import_the_service():
    modules = _modules()
    known = set(modules)
    reaching_back = {
        name: sorted(m for m in _imported(ast.walk(tree), known) if ".service." in m)
        for name, tree in modules.items()
        if name.startswith("yili_kg.loaders.")
    }
    assert {name: found for name, found in reaching_back.items() if found} == {}


#: the loaders' stage folders in the pipeline's order: a stage reads what the stages before it
#: make, never what a later one makes (the modules directly under loaders/ are the foundations
#: every stage uses — corpus, errors, iris, variants, align, built — and the scheduler: build,
#: stages, reason, subset)
STAGES = ("witnesses", "terms", "text", "annotation", "graph", "publish")


def _stage(module: str) -> int | None:
    parts = module.split(".")
    if parts[:2] == ["yili_kg", "loaders"] and len(parts) > 3 and parts[2] in STAGES:
        return STAGES.index(parts[2])
    return None


def test_a_stage_never_imports_a_later_stage():
    modules = _modules()
    known = set(modules)
    assert {_stage(name) for name in modules} >= set(range(len(STAGES)))  # every folder read
    later = {
        name: sorted(m for m in _imported(ast.walk(tree), known) if (_stage(m) or 0) > stage)
        for name, tree in modules.items()
        if (stage := _stage(name)) is not None
    }
    assert {name: found for name, found in later.items() if found} == {}


def test_the_foundations_import_no_stage():
    modules = _modules()
    known = set(modules)
    foundations = {"corpus", "errors", "iris", "variants", "align", "built"}
    reaching = {
        name: sorted(m for m in _imported(ast.walk(tree), known) if _stage(m) is not None)
        for name, tree in modules.items()
        if name.rsplit(".", 1)[-1] in foundations and name.count(".") == 2
    }
    assert set(reaching) == {f"yili_kg.loaders.{f}" for f in foundations}
    assert {name: found for name, found in reaching.items() if found} == {}


def test_serving_imports_neither_the_pipeline_nor_its_lexicon():
    """What ``yili-kg serve`` imports before its first answer (the CLI, the application and
    every view) holds none of the build's machinery: the scheduler imports the whole pipeline,
    and the search index's writer pypinyin (together a second of a cold start, found on the
    whole book). Read from the source with ``ast``, on import, module by module."""
    modules = _modules()
    known = set(modules)
    start = ["yili_kg.service.cli", "yili_kg.service.app"] + [
        name for name in modules if name.startswith("yili_kg.service.views.")
    ]
    # the modules the app imports inside create_app and _open_state, which the start runs
    start += ["yili_kg.service.precomputed", "yili_kg.service.queries", "yili_kg.service.store"]
    start += ["yili_kg.service.resultcache", "yili_kg.service.caching", "yili_kg.service.front"]
    seen: set[str] = set()
    todo = [name for name in start if name in modules]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo += sorted(_on_import(modules[name], known) - seen)
    pipeline = {"yili_kg.loaders.build", "yili_kg.loaders.publish.searchindex"}
    assert sorted(seen & pipeline) == []
    assert "yili_kg.service.precomputed" in seen  # the walk reached the application's state
    # nor the heavy libraries that only some pages need (imported inside the view that uses
    # them): rdflib (≈ 0.04 s of the start's 0.21 s of CPU on the whole book, 2026-12-04),
    # OpenCC (the search's converter), the checks' and the pipeline's
    libraries = {
        name: sorted(_libraries(modules[name]) & HEAVY) for name in seen if name in modules
    }
    assert {name: found for name, found in libraries.items() if found} == {}
    assert "yili_kg.loaders.iris" not in seen  # it imports rdflib for its Namespace


#: libraries that must not be imported on the way from process start to the first answer
HEAVY = {"rdflib", "opencc", "pyshacl", "owlrl", "pypinyin", "rapidfuzz", "SPARQLWrapper"}


def _libraries(tree: ast.Module) -> set[str]:
    """The top-level names of what a module imports when it is imported (as ``_on_import``
    reads it), the standard library and third-party ones included."""
    out = set()
    for node in _top_level(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            out |= {alias.name.split(".")[0] for alias in node.names}
    return out


def test_the_library_finder_reads_module_level_imports_only():
    tree = ast.parse(
        "import rdflib.term\nfrom opencc import OpenCC\ndef f():\n    import owlrl\n"
        "if TYPE_CHECKING:\n    import pyshacl\n"
    )
    assert _libraries(tree) == {"rdflib", "opencc"}
