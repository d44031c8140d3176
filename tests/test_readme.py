"""README.md keeps up with the code: every setting is in its table, the two commands are shown."""

from __future__ import annotations

import re

from conftest import ROOT
from reverie.settings import Settings


def _env_names() -> set[str]:
    names = set()
    for section, value in Settings():
        for field, _ in value:
            names.add(f"REVERIE_{section.upper()}__{field.upper()}")
    return names


def test_every_setting_is_in_the_readme_table() -> None:
    readme = (ROOT / "README.md").read_text()
    documented = set(re.findall(r"^\| `(REVERIE_[A-Z_]+)` \|", readme, flags=re.MULTILINE))
    assert _env_names() - documented == set(), "add these settings to README.md's table"
    assert documented - _env_names() == set(), "README.md documents settings that do not exist"


def test_the_two_commands_come_first_and_ci_runs_the_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    first_block = readme.split("```bash", 1)[1].split("```", 1)[0]
    assert "make run" in first_block and "make test" in first_block
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^make test$", ci, flags=re.MULTILINE)
