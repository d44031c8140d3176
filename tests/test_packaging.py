"""The distribution lists every package of the project and ships its data files: a wheel built
from this checkout holds every module and data file a non-editable install (a cluster node) needs."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from conftest import ROOT

PACKAGE_ROOTS = ("reverie", "actors", "mining", "serve", "launcher")
DATA_FILES = (
    "reverie/py.typed", "reverie/data/fleet_sample.json", "reverie/data/gitleaks/gitleaks.toml",
    "reverie/data/gitleaks/LICENSE", "serve/config.yaml", "serve/ui/index.html",
    "serve/ui/assets/explorer.js", "serve/ui/assets/vendor/cytoscape-3.35.0.esm.min.mjs",
)


def _listed() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return set(config["tool"]["setuptools"]["packages"])


def _packages_on_disk() -> set[str]:
    found = set()
    for root in PACKAGE_ROOTS:
        for init in (ROOT / root).rglob("__init__.py"):
            found.add(".".join(init.parent.relative_to(ROOT).parts))
    return found


def test_every_package_on_disk_is_listed() -> None:
    assert _packages_on_disk() - _listed() == set(), "add these packages to [tool.setuptools] packages"


def test_the_wheel_holds_every_module_and_data_file(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True, capture_output=True, cwd=tmp_path,
    )
    [wheel] = tmp_path.glob("reverie-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {str(p.relative_to(ROOT)) for root in PACKAGE_ROOTS for p in (ROOT / root).rglob("*.py")}
    assert modules - names == set()
    assert set(DATA_FILES) - names == set()
