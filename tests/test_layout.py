"""The import rules of DESIGN §2: reverie/ imports none of actors/, mining/, serve/ (the CLI only
inside commands), and those three never import each other; the launcher that wires them together
(launcher/) is imported only by entry points (the CLI inside commands, bench/, tests/)."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

PARTS = ("actors", "mining", "serve")
WIRING = "launcher"
LIBRARY_NAMES = {"ray", "lancedb", "umap", "hdbscan", "networkx", "torch", "fastapi", "httpx", "numpy"}


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
            assert not _imports(path, top_level_only=True) & {*PARTS, WIRING}, path
            continue
        assert not _imports(path, top_level_only=False) & {*PARTS, WIRING}, path


def test_the_parts_never_import_each_other() -> None:
    for part in PARTS:
        others = {*PARTS, WIRING} - {part}
        for path in _modules(part):
            assert not _imports(path, top_level_only=False) & others, path


def test_no_module_is_named_after_a_library() -> None:
    for package in ("reverie", *PARTS, WIRING):
        for path in _modules(package):
            assert path.stem not in LIBRARY_NAMES, path
