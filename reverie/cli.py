"""The ``reverie`` command line (typer + rich).

This is the one module of ``reverie/`` allowed to import ``actors/``, ``mining/`` and ``serve/``,
and only inside commands.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from reverie.capture import prepare_events
from reverie.clock import SystemClock
from reverie.embed import spec_for
from reverie.errors import ReverieError
from reverie.privacy import Masker
from reverie.sample import fleet_sample
from reverie.settings import Settings
from reverie.store import Store

app = typer.Typer(help="Reverie: shared, evidence-backed memory for fleets of LLM agents.", no_args_is_help=True)
store_app = typer.Typer(help="Inspect the local store.", no_args_is_help=True)
app.add_typer(store_app, name="store")
console = Console()

DataOption = Annotated[Path | None, typer.Option("--data", help="store folder (default: REVERIE_STORE__URI)")]


def with_data(settings: Settings, data: Path | str | None) -> Settings:
    """The settings with the store pointed at ``data`` when given."""
    if data is None:
        return settings
    return settings.model_copy(update={"store": settings.store.model_copy(update={"uri": str(data)})})


@app.command()
def demo(data: DataOption = None) -> None:
    """Capture the bundled fleet sample into a temporary store (or --data) and show what it holds."""
    settings = Settings()
    with tempfile.TemporaryDirectory(prefix="reverie-demo-") as tmp:
        settings = with_data(settings, data or Path(tmp) / "store")
        store = Store.open(settings.store, spec_for(settings.embedding), SystemClock())
        masked = _capture_sample(store, settings)
        _print_summary(store, masked)


def _capture_sample(store: Store, settings: Settings) -> int:
    masker = Masker(settings.privacy)
    requests = fleet_sample()
    masked = 0
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("capturing sessions", total=len(requests))
        for request in requests:
            events = prepare_events(request, masker, store.clock, settings.capture)
            masked += sum(1 for raw, kept in zip(request.events, events, strict=True) if raw.text != kept.text)
            store.events.append(events)
            progress.advance(task)
    return masked


def _print_summary(store: Store, masked: int) -> None:
    table = Table(title=f"Reverie store at {store.uri}")
    for column in ("agent", "projects", "sessions", "events", "last event"):
        table.add_column(column)
    for agent in store.events.agents():
        table.add_row(agent.agent_id, ", ".join(agent.projects), str(agent.sessions), str(agent.events),
                      f"{agent.last_event_at:%Y-%m-%d %H:%M}" if agent.last_event_at else "-")
    console.print(table)
    console.print(f"events with secrets or personal data masked before writing: {masked}")
    _print_stats(store)


def _print_stats(store: Store) -> None:
    table = Table(title="tables")
    for column in ("table", "rows", "versions", "fragments", "bytes"):
        table.add_column(column, justify="right")
    for row in store.maintenance.stats():
        table.add_row(row.name, str(row.rows), str(row.versions), str(row.fragments), str(row.bytes))
    console.print(table)


@store_app.command("stats")
def store_stats(data: DataOption = None) -> None:
    """Rows, versions, fragments and bytes of every table."""
    settings = with_data(Settings(), data)
    _print_stats(Store.open(settings.store, spec_for(settings.embedding)))


def main() -> None:
    try:
        app()
    except ReverieError as exc:
        console.print(f"[red]error:[/red] {exc.message}")
        raise SystemExit(2) from exc
