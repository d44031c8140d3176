"""The fleet benchmark's ``split`` option: tune on dev, dev2, dev3 or dev4 without running the held-out scenario."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.fleet import splits_wanted
from bench.registry import Context
from reverie.errors import ConfigError
from reverie.settings import Settings


@pytest.mark.parametrize(("mode", "options", "splits"), [
    ("full", {}, ("heldout", "dev")),
    ("quick", {}, ("heldout",)),
    ("full", {"split": "dev"}, ("dev",)),
    ("quick", {"split": "dev"}, ("dev",)),
    ("full", {"split": "dev2"}, ("dev2",)),
    ("quick", {"split": "dev2"}, ("dev2",)),
    ("full", {"split": "dev3"}, ("dev3",)),
    ("quick", {"split": "dev3"}, ("dev3",)),
    ("full", {"split": "dev4"}, ("dev4",)),
    ("quick", {"split": "dev4"}, ("dev4",)),
    ("full", {"split": "heldout"}, ("heldout",)),
    ("full", {"split": "both"}, ("heldout", "dev")),
])
def test_the_split_option_names_the_scenarios(tmp_path: Path, mode: str, options: dict[str, str],
                                              splits: tuple[str, ...]) -> None:
    assert splits_wanted(Context(mode, Settings(), tmp_path, options)) == splits  # type: ignore[arg-type]


def test_an_unknown_split_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="split='test' is not one of .*split=dev to tune"):
        splits_wanted(Context("full", Settings(), tmp_path, {"split": "test"}))
