"""Each privacy corpus generator (tests/data/privacy/make_*corpus.py) writes its committed files byte-identically.

The generators share their value makers (tests/data/privacy/values.py); a change there that draws from the
random generator differently, or a hand edit of a committed ``*.jsonl`` the generator does not know about,
shows up here as a file that no longer regenerates.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "data" / "privacy"

# generator -> the files it writes
WRITES = {
    "make_corpus.py": ["dev.jsonl", "heldout.jsonl"],
    "make_world_corpus.py": ["dev_world.jsonl", "heldout_world.jsonl"],
    **{f"make_world{n}_corpus.py": [f"heldout_world{n}.jsonl"] for n in range(2, 15)},
}


def test_every_corpus_file_has_a_generator() -> None:
    assert sorted(p.name for p in CORPUS.glob("make_*.py")) == sorted(WRITES)
    assert sorted(p.name for p in CORPUS.glob("*.jsonl")) == sorted(f for files in WRITES.values() for f in files)


@pytest.mark.parametrize("generator", sorted(WRITES))
def test_generator_rewrites_its_committed_files(generator: str, tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(CORPUS / generator), "--out", str(tmp_path)], check=True,
                   capture_output=True, timeout=60)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(WRITES[generator])
    for name in WRITES[generator]:
        assert (tmp_path / name).read_bytes() == (CORPUS / name).read_bytes(), f"{generator} no longer writes {name}"
