"""The keys file (DESIGN §6): plain and sha256 keys, `reverie keys add|revoke|list`, the ring the
service checks, reloads, and keys never written or logged in clear."""

from __future__ import annotations

import json
import logging
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reverie.cli import app
from reverie.errors import AuthError, ConfigError, NotFoundError
from serve.auth.keys import HASH_PREFIX, KeyRing, KeysFile, digest, key_id, parse_keys

runner = CliRunner()


def test_plain_and_hashed_keys_parse_to_the_same_digest() -> None:
    plain = parse_keys(json.dumps({"rv_typed-by-hand-0001": {"principal": "ops", "role": "admin", "projects": ["*"]}}), "f")
    hashed = parse_keys(json.dumps({HASH_PREFIX + digest("rv_typed-by-hand-0001"): {"principal": "ops", "role": "admin",
                                                                                    "projects": ["*"]}}), "f")
    assert plain == hashed
    assert list(plain) == [digest("rv_typed-by-hand-0001")]


@pytest.mark.parametrize(("content", "needle"), [
    ("{not json", "not valid JSON"),
    ("[]", "JSON object"),
    (json.dumps({"short": {"principal": "a", "role": "agent", "projects": ["x"]}}), "at least 16"),
    (json.dumps({"sha256:abc": {"principal": "a", "role": "agent", "projects": ["x"]}}), "64 hex"),
    (json.dumps({"rv_long-enough-key-000": {"principal": "a", "role": "boss", "projects": ["x"]}}), "entry 1"),
    (json.dumps({"rv_long-enough-key-000": {"principal": "a", "role": "agent", "projects": ["*", "x"]}}), "alone"),
    (json.dumps({"rv_long-enough-key-000": {"principal": "a", "role": "agent", "projects": []}}), "projects"),
])
def test_a_broken_keys_file_is_a_clear_error(content: str, needle: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_keys(content, "keys.json")
    assert needle in info.value.message
    assert "rv_long-enough-key-000" not in info.value.message


def test_add_stores_only_the_hash_with_private_permissions(tmp_path: Path) -> None:
    keys = KeysFile(tmp_path / "keys.json")
    key = keys.add("coder-1", "agent", ["atlas"])
    text = keys.path.read_text()
    assert key not in text and HASH_PREFIX + digest(key) in text
    assert stat.S_IMODE(keys.path.stat().st_mode) == 0o600
    ring = KeyRing(keys.path, reload_seconds=0)
    identity = ring.identify(key)
    assert (identity.entry.principal, identity.entry.role, identity.entry.projects) == ("coder-1", "agent", ["atlas"])
    assert identity.key_id == key_id(digest(key)) and key not in repr(identity)


def test_revoke_by_key_id_or_principal(tmp_path: Path) -> None:
    keys = KeysFile(tmp_path / "keys.json")
    first, second, other = keys.add("a1", "agent", ["p"]), keys.add("a1", "agent", ["p"]), keys.add("ops", "admin", ["*"])
    assert keys.revoke(first) == 1
    assert keys.revoke(key_id(digest(other))) == 1
    assert keys.revoke("a1") == 1
    assert keys.entries() == {}
    with pytest.raises(NotFoundError):
        keys.revoke(second)


def test_the_ring_follows_the_file_and_keeps_the_last_good_one(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    keys = KeysFile(tmp_path / "keys.json")
    old = keys.add("a1", "agent", ["p"])
    ring = KeyRing(keys.path, reload_seconds=0)
    assert ring.identify(old).entry.principal == "a1"
    new = keys.add("a2", "reviewer", ["p"])
    keys.revoke(old)
    assert ring.identify(new).entry.role == "reviewer"
    with pytest.raises(AuthError):
        ring.identify(old)
    keys.path.write_text(keys.path.read_text()[:-5])  # a half-written edit
    with caplog.at_level(logging.WARNING):
        assert ring.identify(new).entry.principal == "a2"
    assert "keeping the previous keys" in caplog.text and new not in caplog.text
    with pytest.raises(AuthError) as info:
        ring.identify(None)
    assert "Bearer" in info.value.message


def test_cli_keys_add_prints_the_key_once_and_revoke_removes_it(tmp_path: Path) -> None:
    path = tmp_path / "keys.json"
    added = runner.invoke(app, ["keys", "add", "coder-1", "--role", "agent", "--project", "atlas", "--keys-file", str(path)])
    assert added.exit_code == 0, added.output
    key = added.output.strip().splitlines()[-1]
    assert key.startswith("rv_") and key not in path.read_text()
    assert KeyRing(path, 0).identify(key).entry.projects == ["atlas"]
    listed = runner.invoke(app, ["keys", "list", "--keys-file", str(path)])
    assert "coder-1" in listed.output and key not in listed.output and key_id(digest(key)) in listed.output
    revoked = runner.invoke(app, ["keys", "revoke", key, "--keys-file", str(path)])
    assert revoked.exit_code == 0 and "revoked 1" in revoked.output
    assert KeysFile(path).entries() == {}


def test_keys_default_beside_the_data_folder(tmp_path: Path) -> None:
    added = runner.invoke(app, ["keys", "add", "ops", "--role", "admin", "--data", str(tmp_path / "data")])
    assert added.exit_code == 0, added.output
    assert (tmp_path / "data" / "keys.json").exists()
