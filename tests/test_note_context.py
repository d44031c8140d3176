"""A printed module reading is embedded with its module's name (``reverie.note_context``), by every
writer of a note's vector."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from conftest import make_settings
from reverie.cli import app
from reverie.clock import ManualClock
from reverie.embed import Embedder, HashEmbedder, spec_for
from reverie.note_context import embedding_text
from reverie.records import Note
from reverie.store import NoteWrite, Store

AT = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
WEST = "$ west list zephyr\nzephyr  zephyr  v3.7.0  https://github.com/zephyrproject-rtos/zephyr"
MODULE = "module:larkspur/vac-drive"


@pytest.mark.parametrize(("statement", "scope", "note_type", "text"), [
    (WEST, MODULE, "verified_fact", f"vac-drive: {WEST}"),
    (WEST, MODULE, "lesson", f"vac-drive: {WEST}"),  # a command's output, whatever its type
    ("*** Booting Zephyr OS build v3.5.0 ***", MODULE, "verified_fact", "vac-drive: *** Booting Zephyr OS build v3.5.0 ***"),
    ("Never push to the whole fleet in one go.", MODULE, "constraint", "Never push to the whole fleet in one go."),
    (WEST, "personal:fw-1", "verified_fact", WEST),  # no module to name
    (WEST, "project:larkspur", "verified_fact", WEST),
])
def test_only_printed_module_readings_carry_their_module(statement: str, scope: str, note_type: str, text: str) -> None:
    assert embedding_text(statement, scope, note_type) == text


def test_a_question_naming_the_module_finds_the_reading_before_a_turn_that_only_names_it(minilm: Embedder) -> None:
    """Why (dev5, issue 15): MiniLM weighs a module's name heavily, so a turn that merely names the
    module outranked the printed reading that answers a question about it."""
    question, turn = "Which release of the RTOS does vac-drive compile against?", "Pulling up the vac-drive schematic."
    q, plain, framed, chatter = minilm.embed([question, WEST, embedding_text(WEST, MODULE, "verified_fact"), turn])
    assert float(q @ plain) < float(q @ chatter) < float(q @ framed)


def _note(note_id: str, statement: str, note_type: str) -> Note:
    return Note(note_id=note_id, type=note_type, subject="zephyr", statement=statement, scope=MODULE,  # type: ignore[arg-type]
                project="larkspur", module="vac-drive", evidence=["e1"], created_at=AT, updated_at=AT)


def test_reembed_writes_every_note_vector_from_its_context(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "s")
    store = Store.open(settings.store, spec_for(settings.embedding), ManualClock(AT))
    hashed = HashEmbedder(settings.embedding)
    notes = [_note("n-west", WEST, "verified_fact"), _note("n-rule", "Never push to the whole fleet in one go.", "constraint")]
    store.batches.run("import", [NoteWrite(n, "add", vector=hashed.embed([n.statement])[0]) for n in notes])
    result = CliRunner().invoke(app, ["reembed", "--data", store.uri, "--provider", "hash"])
    assert result.exit_code == 0, result.output
    reopened = Store.open(settings.store, spec_for(settings.embedding), ManualClock(AT))
    stored = {r["note_id"]: np.asarray(r["vector"]) for r in reopened.tables.read("notes").to_pylist()}
    for n in notes:
        expected = hashed.embed([embedding_text(n.statement, n.scope, n.type)])[0]
        assert np.allclose(stored[n.note_id], expected, atol=1e-6), n.note_id
    assert not np.allclose(stored["n-west"], hashed.embed([WEST])[0], atol=1e-3)
