"""The parts and the arrows between them (DESIGN §2), read from the imports of every module.

- ``reverie/`` is the shared domain: it imports none of the parts, except its CLI, inside commands;
- ``actors/``, ``mining/`` and ``serve/`` never import each other (nor the wiring);
- ``launcher/`` is the wiring beside the CLI: it may import every part; only entry points (the CLI
  inside commands, ``bench/``, ``tests/``) import it;
- ``bench/`` may import every part; no shipped package imports ``bench/`` (tests may);
- a module's name says what it holds, once: no basename twice among the shipped packages (route
  modules under ``serve/routes/`` and ``__init__``/``__main__`` excepted), none named after a library.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

from conftest import ROOT

PARTS = ("actors", "mining", "serve")
WIRING = "launcher"
BENCH = "bench"
SHIPPED = ("reverie", *PARTS, WIRING)
LIBRARY_NAMES = {"ray", "lancedb", "umap", "hdbscan", "networkx", "torch", "fastapi", "httpx", "numpy"}
UNCOUNTED = {"__init__", "__main__"}


def _imports(path: Path, *, top_level_only: bool) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def _modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def test_reverie_imports_none_of_the_parts_except_the_cli_inside_commands() -> None:
    for path in _modules("reverie"):
        if path.name == "cli.py":
            assert not _imports(path, top_level_only=True) & {*PARTS, WIRING, BENCH}, path
            continue
        assert not _imports(path, top_level_only=False) & {*PARTS, WIRING, BENCH}, path


def test_the_parts_never_import_each_other_nor_the_wiring() -> None:
    for part in PARTS:
        others = {*PARTS, WIRING, BENCH} - {part}
        for path in _modules(part):
            assert not _imports(path, top_level_only=False) & others, path


def test_no_shipped_package_imports_bench() -> None:
    for package in SHIPPED:
        for path in _modules(package):
            assert BENCH not in _imports(path, top_level_only=False), path


def test_the_wiring_may_import_every_part_but_no_benchmark() -> None:
    imported = set().union(*(_imports(p, top_level_only=False) for p in _modules(WIRING)))
    assert {"reverie", *PARTS} <= imported
    assert BENCH not in imported


def test_bench_is_not_shipped_and_its_scenarios_live_there() -> None:
    assert not (ROOT / "reverie" / "eval").exists()
    assert (ROOT / "bench" / "eval" / "metrics.py").exists()


def test_no_module_basename_appears_twice_among_the_shipped_packages() -> None:
    names = Counter(
        path.stem for package in SHIPPED for path in _modules(package)
        if path.stem not in UNCOUNTED and path.parent != ROOT / "serve" / "routes"
    )
    assert [name for name, count in names.items() if count > 1] == []


def test_no_module_is_named_after_a_library() -> None:
    for package in SHIPPED:
        for path in _modules(package):
            assert path.stem not in LIBRARY_NAMES, path


OPTIONAL = {"langgraph": ROOT / "reverie" / "integrations" / "langgraph.py"}  # an extra, imported only by its adapter


def test_optional_extras_are_imported_only_by_their_adapter() -> None:
    for extra, adapter in OPTIONAL.items():
        for package in SHIPPED:
            for path in _modules(package):
                if path != adapter:
                    assert extra not in _imports(path, top_level_only=False), path
        assert extra in _imports(adapter, top_level_only=True)
