"""API keys: the keys file, who each key is, and the ring the service checks requests against.

The keys file (``REVERIE_AUTH__KEYS_FILE``, default ``<data>/keys.json``) is a JSON object mapping a
key, or ``sha256:<hex digest of the key>``, to ``{"principal", "role", "projects"}`` (DESIGN §6)::

    {"sha256:9f86d0…": {"principal": "coder-1", "role": "agent", "projects": ["atlas"]},
     "rv_plain-key-typed-by-hand": {"principal": "ops", "role": "admin", "projects": ["*"]}}

``reverie keys add`` writes the hashed form and prints the key once; ``reverie keys revoke`` removes
one. The running service stats the file and re-reads it when it changes (at the latest every
``reload_seconds``). Keys are compared as SHA-256 digests with ``hmac.compare_digest`` over every
entry, never logged, and a request is known to the rest of the service only by its principal and a
short key id (the first hex digits of the digest).
"""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import json
import logging
import os
import secrets
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator
from pydantic import ValidationError as PydanticValidationError

from reverie.errors import AuthError, ConfigError, NotFoundError
from reverie.records import ID_PATTERN, NAME_PATTERN, Record
from reverie.settings import Settings

log = logging.getLogger(__name__)

RoleName = Literal["agent", "reviewer", "analyst", "admin"]
ALL_PROJECTS = "*"
HASH_PREFIX = "sha256:"
KEY_PREFIX = "rv_"


class KeyEntry(Record):
    """What one key stands for."""

    principal: str
    role: RoleName
    projects: list[str] = Field(min_length=1)

    @field_validator("principal")
    @classmethod
    def _principal(cls, value: str) -> str:
        if not ID_PATTERN.match(value):
            raise ValueError("a principal is 1-128 letters, digits or . _ : @ -")
        return value

    @field_validator("projects")
    @classmethod
    def _projects(cls, value: list[str]) -> list[str]:
        if ALL_PROJECTS in value and len(value) > 1:
            raise ValueError('"*" stands for every project; list it alone')
        for project in value:
            if project != ALL_PROJECTS and not NAME_PATTERN.match(project):
                raise ValueError("projects are lowercase names (letters, digits, _ or -) or \"*\"")
        return sorted(set(value))


@dataclass(frozen=True)
class Identity:
    """An authenticated caller: the entry of its key and the key's short id (never the key)."""

    key_id: str
    entry: KeyEntry


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def key_id(hex_digest: str) -> str:
    return hex_digest[:12]


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def keys_file_path(settings: Settings) -> Path:
    """The configured keys file, or ``keys.json`` beside a local store."""
    if settings.auth.keys_file is not None:
        return Path(settings.auth.keys_file)
    if "://" in settings.store.uri:
        raise ConfigError(
            f"the store is at {settings.store.uri!r}, so there is no local data folder for the keys "
            "file; set REVERIE_AUTH__KEYS_FILE to a path every node can read"
        )
    return Path(settings.store.uri) / "keys.json"


# --- the file ------------------------------------------------------------------------------------
def parse_keys(text: str, source: str) -> dict[str, KeyEntry]:
    """The entries of a keys file keyed by the hex digest of each key."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"the keys file {source} is not valid JSON (line {exc.lineno}); fix or recreate it") from exc
    if not isinstance(raw, dict):
        raise ConfigError(f"the keys file {source} must hold a JSON object mapping keys to entries")
    entries: dict[str, KeyEntry] = {}
    for number, (stored, value) in enumerate(raw.items(), start=1):
        entries[_stored_digest(stored, number, source)] = _entry(value, number, source)
    return entries


def _stored_digest(stored: str, number: int, source: str) -> str:
    if stored.startswith(HASH_PREFIX):
        hexed = stored[len(HASH_PREFIX):].lower()
        if len(hexed) != 64 or any(c not in "0123456789abcdef" for c in hexed):
            raise ConfigError(f"entry {number} of the keys file {source}: a sha256: key needs 64 hex digits")
        return hexed
    if len(stored) < 16:
        raise ConfigError(f"entry {number} of the keys file {source}: a key must be at least 16 characters")
    return digest(stored)


def _entry(value: object, number: int, source: str) -> KeyEntry:
    try:
        return KeyEntry.model_validate(value)
    except PydanticValidationError as exc:
        problem = exc.errors()[0]
        where = ".".join(str(p) for p in problem["loc"]) or "entry"
        raise ConfigError(
            f"entry {number} of the keys file {source}: {where}: {problem['msg']} "
            '(expected {"principal": id, "role": agent|reviewer|analyst|admin, "projects": [...]})'
        ) from exc


class KeysFile:
    """Edits of the keys file: locked against concurrent edits, replaced atomically, mode 0600."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def exists(self) -> bool:
        return self.path.exists()

    def entries(self) -> dict[str, KeyEntry]:
        return parse_keys(self.path.read_text(), str(self.path)) if self.path.exists() else {}

    def add(self, principal: str, role: RoleName, projects: Sequence[str]) -> str:
        """Add a new key (stored hashed) and return it; it is shown to nobody else, ever."""
        entry = KeyEntry(principal=principal, role=role, projects=list(projects))
        key = new_key()
        with self._editing() as raw:
            raw[HASH_PREFIX + digest(key)] = entry.model_dump()
        return key

    def revoke(self, key_or_principal: str) -> int:
        """Remove the entries of a key (given itself, or as ``sha256:…``, or its key id) or of a principal."""
        with self._editing() as raw:
            doomed = [stored for stored, value in raw.items() if _matches(stored, value, key_or_principal)]
            for stored in doomed:
                del raw[stored]
        if not doomed:
            raise NotFoundError("no key or principal in the keys file matches; list them with `reverie keys list`")
        return len(doomed)

    @contextmanager
    def _editing(self) -> Iterator[dict[str, object]]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock_path = self.path.with_name(self.path.name + ".lock")
        with open(lock_path, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            raw: dict[str, object] = json.loads(self.path.read_text()) if self.path.exists() else {}
            parse_keys(json.dumps(raw), str(self.path))  # refuse to edit a broken file
            yield raw
            self._write(raw)

    def _write(self, raw: dict[str, object]) -> None:
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            json.dump(raw, out, indent=2, sort_keys=True)
            out.write("\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, self.path)


def _matches(stored: str, value: object, wanted: str) -> bool:
    hexed = stored[len(HASH_PREFIX):].lower() if stored.startswith(HASH_PREFIX) else digest(stored)
    principal = value.get("principal") if isinstance(value, dict) else None
    return wanted in (stored, principal, HASH_PREFIX + hexed) or (len(wanted) >= 8 and hexed.startswith(wanted)) or (
        wanted.startswith(KEY_PREFIX) and hmac.compare_digest(digest(wanted), hexed)
    )


# --- the ring the service checks -------------------------------------------------------------------
class KeyRing:
    """The keys of the file, re-read when it changes; thread-safe; a broken edit keeps the last good ring."""

    def __init__(self, path: Path, reload_seconds: float) -> None:
        self.path = path
        self._reload_seconds = reload_seconds
        self._lock = threading.Lock()
        self._entries: list[tuple[bytes, KeyEntry]] = []
        self._signature: tuple[int, int, int] | None = None
        self._checked = 0.0
        self._read_at = 0.0
        self._load(initial=True)

    def identify(self, presented: str | None) -> Identity:
        """The identity of a presented key, or AuthError; compares digests in constant time."""
        if not presented:
            raise AuthError("no API key; send 'Authorization: Bearer <key>' (create one with `reverie keys add`)")
        self._refresh()
        wanted = hashlib.sha256(presented.encode()).digest()
        found: KeyEntry | None = None
        for stored, entry in self._entries:
            if hmac.compare_digest(stored, wanted) and found is None:
                found = entry
        if found is None:
            raise AuthError("unknown or revoked API key; check the key or ask an admin for a new one")
        return Identity(key_id(wanted.hex()), found)

    def _refresh(self) -> None:
        now = time.monotonic()
        if now - self._checked < min(1.0, self._reload_seconds):
            return
        with self._lock:
            self._checked = now
            if self._signature != self._stat() or now - self._read_at >= self._reload_seconds:
                self._load(initial=False)

    def _stat(self) -> tuple[int, int, int] | None:
        try:
            info = self.path.stat()
        except FileNotFoundError:
            return None
        return (info.st_mtime_ns, info.st_size, info.st_ino)

    def _load(self, *, initial: bool) -> None:
        signature = self._stat()
        try:
            text = self.path.read_text() if signature is not None else "{}"
            parsed = parse_keys(text, str(self.path))
        except ConfigError as exc:
            if initial:
                raise
            log.warning("keys file not reloaded, keeping the previous keys: %s", exc.message)
            return
        self._entries = [(bytes.fromhex(hexed), entry) for hexed, entry in parsed.items()]
        self._signature = signature
        self._read_at = time.monotonic()
