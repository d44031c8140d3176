"""Writes tests/data/stores/c905156: a store as the code at commit c905156 wrote it (no event_vectors table)."""
import shutil
import sys
from datetime import UTC, datetime
from pathlib import Path

from reverie.clock import ManualClock
from reverie.embed import spec_for
from reverie.records import Event
from reverie.settings import EmbeddingSettings, StoreSettings
from reverie.store import Store

out = Path(sys.argv[1])
shutil.rmtree(out, ignore_errors=True)
at = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
emb = EmbeddingSettings(provider="hash")
store = Store.open(StoreSettings(uri=str(out)), spec_for(emb), ManualClock(at))
texts = ["The deploy script needs the VPN to reach the registry.", "Ran the migration with --dry-run first; it found a lock.",
         "Invoices are rounded to 2 decimals.", "Staging is reset every Sunday night."]
store.events.append([Event(event_id=f"old-{i}", agent_id="coder-1", session_id="s-old", project="atlas", ts=at,
                           role="user", text=t, ingested_at=at) for i, t in enumerate(texts)])
store.maintenance.compact(force=True)
print(sorted(store.tables.db.list_tables().tables))
