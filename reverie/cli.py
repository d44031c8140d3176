"""The ``reverie`` command line (typer + rich).

This is the one module of ``reverie/`` allowed to import ``actors/``, ``mining/``, ``serve/`` and
the launcher that wires them (``launcher/``), and only inside commands. What a command does beyond
parsing and printing lives in its own module (``launcher.demo`` for ``reverie demo``).
"""

from __future__ import annotations

import logging
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from reverie.errors import NotFoundError, ReverieError
from reverie.settings import Settings

if TYPE_CHECKING:  # the store (lancedb) is imported by the commands that open one, so `reverie mcp` starts fast
    from reverie.client import Client
    from reverie.store import Store

app = typer.Typer(help="Reverie: shared, evidence-backed memory for fleets of LLM agents.", no_args_is_help=True)
store_app = typer.Typer(help="Inspect the local store.", no_args_is_help=True)
keys_app = typer.Typer(help="Edit the API keys file (REVERIE_AUTH__KEYS_FILE, default <data>/keys.json).", no_args_is_help=True)
graph_app = typer.Typer(help="The team knowledge graph of a running service.", no_args_is_help=True)
app.add_typer(store_app, name="store")
app.add_typer(keys_app, name="keys")
app.add_typer(graph_app, name="graph")
privacy_app = typer.Typer(help="Masking of secrets and personal data in a store.", no_args_is_help=True)
app.add_typer(privacy_app, name="privacy")
console = Console()

DataOption = Annotated[Path | None, typer.Option("--data", help="store folder (default: REVERIE_STORE__URI)")]
UrlOption = Annotated[str, typer.Option("--url", envvar="REVERIE_URL", help="the service's URL")]
KeyOption = Annotated[str, typer.Option("--key", envvar="REVERIE_KEY", help="an API key (better: REVERIE_KEY)")]
ProjectOption = Annotated[str | None, typer.Option("--project", help="a project name")]


def with_data(settings: Settings, data: Path | str | None) -> Settings:
    """The settings with the store pointed at ``data`` when given."""
    if data is None:
        return settings
    return settings.model_copy(update={"store": settings.store.model_copy(update={"uri": str(data)})})


PortOption = Annotated[int | None, typer.Option(
    "--port", min=1, max=65535,
    help="serve on this port of 127.0.0.1 (default: a free one); where Serve already runs on the Ray, its port")]


@app.command()
def demo(data: DataOption = None, port: PortOption = None) -> None:
    """The main job end to end: start a local service on a free port (or --port) with a temporary
    store (or --data), run the bundled fleet sample through it over HTTP (capture, consolidation,
    mining, retrieval), print what it did, and shut it down."""
    from launcher.demo import run_demo
    from launcher.local import local_service

    for name in ("ray", "ray.serve"):  # the demo prints its own progress; Ray's start-up chatter stays out
        logging.getLogger(name).setLevel(logging.WARNING)
    settings = Settings()
    with tempfile.TemporaryDirectory(prefix="reverie-demo-") as tmp, ExitStack() as stack:
        settings = with_data(settings, data or Path(tmp) / "store")
        started = time.perf_counter()
        with console.status("starting a local Reverie: Ray, embedding service, agents' directory, mining, HTTP API"):
            service = stack.enter_context(local_service(settings, triggers=False, port=port))
        console.print(f"Reverie is serving {service.url} (store {settings.store.uri}); "
                      f"started in {time.perf_counter() - started:.1f} s", soft_wrap=True)
        run_demo(service, console)
        with console.status("stopping the service"):
            stack.close()
        console.print(f"done in {time.perf_counter() - started:.1f} s; the service is stopped", soft_wrap=True)


def _open_store(settings: Settings) -> Store:
    from reverie.embed import spec_for
    from reverie.store import Store

    return Store.open(settings.store, spec_for(settings.embedding))


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
    _print_stats(_open_store(settings))


@store_app.command("migrate")
def store_migrate(data: DataOption = None) -> None:
    """Bring a store written by an earlier version up to date (run it with the service stopped; running
    it again changes nothing): tables and note columns it lacks are added, every event without a
    vector gets one (embedded once with the configured embedder), every turn of a session consolidated
    before contextual keys existed gets its key, and personal module knowledge
    (constraints, procedures, verified facts of a module) moves to its module scope as one batch that
    `POST /v1/batches/{id}/rollback` undoes."""
    from reverie.embed import make_embedder
    from reverie.store.maintenance import migrate

    settings = with_data(Settings(), data)
    store = _open_store(settings)
    result = migrate(store.tables, store.batches, principal="cli")
    embedder = make_embedder(settings.embedding)
    written = store.vectors.backfill(embedder)
    keyed = store.keys.backfill(embedder, store.now())
    console.print(f"migrated {store.uri}: {written} event vector{'s' if written != 1 else ''} and {keyed} contextual "
                  f"key{'s' if keyed != 1 else ''} written; columns added: "
                  f"{', '.join(result.columns_added) or 'none'}; notes moved to module scope: {len(result.moved)}"
                  + (f" (batch {result.batch_id})" if result.batch_id else ""))


# --- keys ----------------------------------------------------------------------------------------
KeysFileOption = Annotated[
    Path | None, typer.Option("--keys-file", help="the keys file (default: REVERIE_AUTH__KEYS_FILE or <data>/keys.json)"),
]


def _keys_file(keys_file: Path | None, data: Path | None) -> Path:
    from serve.auth.keys import keys_file_path

    return keys_file or keys_file_path(with_data(Settings(), data))


@keys_app.command("add")
def keys_add(
    principal: Annotated[str, typer.Argument(help="who the key stands for (an agent id for agents)")],
    role: Annotated[str, typer.Option("--role", help="agent, reviewer, analyst or admin")] = "agent",
    projects: Annotated[list[str] | None, typer.Option("--project", help="a project it may use (repeat; '*' for all)")] = None,
    keys_file: KeysFileOption = None, data: DataOption = None,
) -> None:
    """Create a key (stored hashed) and print it once: it cannot be shown again."""
    from serve.auth.keys import KeysFile

    path = _keys_file(keys_file, data)
    key = KeysFile(path).add(principal, role, projects or ["*"])  # type: ignore[arg-type]
    console.print(f"added a key for {principal!r} (role {role}, projects {', '.join(projects or ['*'])}) to {path}.")
    console.print("It is shown this once; keep it now:")
    typer.echo(key)


@keys_app.command("revoke")
def keys_revoke(
    which: Annotated[str, typer.Argument(help="the key, its sha256: form, its key id, or a principal (all its keys)")],
    keys_file: KeysFileOption = None, data: DataOption = None,
) -> None:
    """Remove a key (or every key of a principal); a running service refuses it within 5 seconds."""
    from serve.auth.keys import KeysFile

    path = _keys_file(keys_file, data)
    removed = KeysFile(path).revoke(which)
    console.print(f"revoked {removed} key(s) in {path}")


@keys_app.command("list")
def keys_list(keys_file: KeysFileOption = None, data: DataOption = None) -> None:
    """Principals, roles, projects and key ids (never the keys)."""
    from serve.auth.keys import KeysFile, key_id

    table = Table(title=str(_keys_file(keys_file, data)))
    for column in ("key id", "principal", "role", "projects"):
        table.add_column(column)
    for hexed, entry in KeysFile(_keys_file(keys_file, data)).entries().items():
        table.add_row(key_id(hexed), entry.principal, entry.role, ", ".join(entry.projects))
    console.print(table)


# --- the local service ----------------------------------------------------------------------------
@app.command()
def up(
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="port to listen on")] = 8000,
    data: DataOption = None,
    address: Annotated[
        str, typer.Option("--address", help="a Ray cluster to join ('auto' on its head); default: a local Ray"),
    ] = "local",
    http: Annotated[bool, typer.Option("--http/--no-http", help="--no-http: leave the HTTP app to `serve deploy`")] = True,
) -> None:
    """Start Ray, the embedding service, the agents' directory, the mining pool and the HTTP API;
    block until Ctrl-C, then shut everything down."""
    from launcher.local import start_parts
    from serve.app import deploy, start_proxy, url_of
    from serve.lifecycle import ensure_admin_key, joined_ray, stop_http, wait_for_interrupt

    settings = with_data(Settings(), data)
    settings = settings.model_copy(update={"serve": settings.serve.model_copy(update={"host": host, "port": port})})
    key = ensure_admin_key(settings) if http else None
    with joined_ray(settings, address):
        if http:
            start_proxy(settings)
        running = deploy(settings) if http else None  # the replicas start while the actors do
        stop_parts = start_parts(settings)
        try:
            if running is not None:
                running()
                console.print(f"Reverie is serving {url_of(settings)} (store {settings.store.uri}); press Ctrl-C to stop")
            else:
                console.print(f"Reverie's actors run on {address} (store {settings.store.uri}); deploy the HTTP app "
                              "with `serve deploy serve/config.yaml`; press Ctrl-C to stop them")
            if key is not None:
                console.print("first start: created an admin key (shown once, keep it now):")
                typer.echo(key)
            wait_for_interrupt()
            console.print("stopping")
        finally:
            if http:
                stop_http(settings)
            stop_parts()


# --- client commands --------------------------------------------------------------------------------
def _client(url: str, key: str) -> Client:  # reverie.client (httpx) is imported lazily
    from reverie.client import Client

    return Client(url, key)


@app.command()
def retrieve(
    agent_id: Annotated[str, typer.Argument(help="the agent the memory is for")],
    query: Annotated[str, typer.Argument(help="the task or question")],
    url: UrlOption = "http://127.0.0.1:8000", key: KeyOption = "", project: ProjectOption = None,
    k: Annotated[int | None, typer.Option("--k", help="notes at most")] = None,
    budget: Annotated[int | None, typer.Option("--budget", help="token budget")] = None,
    memory: Annotated[bool, typer.Option("--memory/--no-memory", help="--no-memory: the stateless baseline")] = True,
) -> None:
    """Fetch the memory block an agent would get for a task."""
    with _client(url, key) as client:
        found = client.retrieve(agent_id, query, project=project, k=k, token_budget=budget, memory=memory)
    table = Table(title=f"retrieval {found.retrieval_id}: {len(found.notes)} notes, {found.tokens} tokens")
    for column in ("score", "type", "scope", "note", "statement"):
        table.add_column(column)
    for hit in found.notes:
        table.add_row(f"{hit.score:.3f}", hit.note.type, hit.note.scope, hit.note.note_id, hit.note.statement)
    console.print(table)
    if found.context:
        typer.echo(found.context)


@app.command()
def mcp(
    url: UrlOption = "http://127.0.0.1:8000", key: KeyOption = "",
    project: Annotated[
        str | None, typer.Option("--project", envvar="REVERIE_PROJECT", help="the default project of the tools"),
    ] = None,
) -> None:
    """Serve Reverie's MCP tools over stdio for one agent (its key: --key / REVERIE_KEY), talking to a
    running service (--url / REVERIE_URL); an MCP host starts it as a subprocess."""
    import anyio

    from reverie.integrations.mcp_server import serve_stdio

    if not key:
        raise typer.BadParameter("an agent key is needed: set REVERIE_KEY (see `reverie keys add`)", param_hint="--key")
    anyio.run(serve_stdio, url, key, project)


@app.command()
def consolidate(agent_id: Annotated[str, typer.Argument(help="the agent")], url: UrlOption = "http://127.0.0.1:8000",
                key: KeyOption = "") -> None:
    """Consolidate an agent now and wait for the batch."""
    with _client(url, key) as client:
        result = client.consolidate(agent_id)
    console.print(f"batch: {result.batch_id or 'nothing to consolidate'}")
    for name, value in sorted(result.stats.items()):
        console.print(f"  {name}: {value}")


@app.command()
def mine(project: Annotated[str, typer.Argument(help="the project")], url: UrlOption = "http://127.0.0.1:8000",
         key: KeyOption = "", wait: Annotated[bool, typer.Option("--wait", help="wait for the run to end")] = False) -> None:
    """Start a mining run of a project (and wait for it with --wait)."""
    with _client(url, key) as client:
        run = client.start_mining(project, wait=wait)
    console.print(f"run {run.run_id}: {run.status}; promoted {len(run.promoted)}, candidates {len(run.candidates)}, "
                  f"for review {len(run.review)}")


@graph_app.command("export")
def graph_export(
    project: Annotated[str, typer.Argument(help="the project")],
    out: Annotated[Path, typer.Option("--out", "-o", help="file to write")],
    fmt: Annotated[str, typer.Option("--format", help="graphml, json (node-link) or png (a picture)")] = "graphml",
    url: UrlOption = "http://127.0.0.1:8000", key: KeyOption = "",
) -> None:
    """Write the project's knowledge graph as GraphML, node-link JSON or a PNG picture."""
    import json

    if fmt not in ("graphml", "json", "png"):
        raise typer.BadParameter("choose graphml, json or png", param_hint="--format")
    with _client(url, key) as client:
        if fmt == "png":
            from launcher.figures import graph_png

            data = graph_png(client.graph(project, current=True, layout=True), f"team graph of {project}")
        else:
            data = (client.graphml(project) if fmt == "graphml" else json.dumps(client.graph(project), indent=2)).encode()
    out.write_bytes(data)
    console.print(f"wrote {out} ({len(data)} bytes)")


@app.command("map")
def map_export(
    project: Annotated[str, typer.Option("--project", help="the project")],
    out: Annotated[Path, typer.Option("--out", "-o", help="PNG file to write")] = Path("map.png"),
    url: UrlOption = "http://127.0.0.1:8000", key: KeyOption = "",
) -> None:
    """Draw the 2-D map of a project's notes (UMAP), coloured by cluster, noise apart, as a PNG."""
    from launcher.figures import map_png

    with _client(url, key) as client:
        points = client.map(project).points
    if not points:
        raise NotFoundError(f"project {project!r} has no map yet; run `reverie mine {project} --wait` first")
    data = map_png(points, f"map of {project}")
    out.write_bytes(data)
    console.print(f"wrote {out} ({len(points)} notes, {len(data)} bytes)")


@app.command("export")
def export_project(
    project: Annotated[str, typer.Argument(help="the project")],
    out: Annotated[Path, typer.Option("--out", "-o", help="archive to write (.zip)")],
    url: UrlOption = "http://127.0.0.1:8000", key: KeyOption = "",
) -> None:
    """Back up a project's notes and graph (a ZIP of Parquet files and a manifest)."""
    with _client(url, key) as client:
        data = client.export(project)
    out.write_bytes(data)
    console.print(f"wrote {out} ({len(data)} bytes)")


@app.command("import")
def import_project(archive: Annotated[Path, typer.Argument(help="an archive written by `reverie export`")],
                   url: UrlOption = "http://127.0.0.1:8000", key: KeyOption = "") -> None:
    """Import a project's notes and graph as one atomic batch."""
    with _client(url, key) as client:
        result = client.import_archive(archive.read_bytes())
    console.print(f"imported {result.notes} notes, {result.graph_nodes} graph nodes and {result.graph_edges} edges "
                  f"into {result.project!r} (batch {result.batch_id}{', re-embedded' if result.reembedded else ''})")


@app.command()
def reembed(
    data: DataOption = None,
    provider: Annotated[str, typer.Option("--provider", help="the new embedder: minilm or hash")] = "minilm",
) -> None:
    """Rewrite every vector of a stopped store with another embedder and record it in the store."""
    from reverie.embed import make_embedder
    from serve.governance.reembed import reembed_store

    settings = with_data(Settings(), data)
    embedding = settings.embedding.model_copy(update={"provider": provider})
    result = reembed_store(settings.store, make_embedder(embedding))
    console.print(f"re-embedded {result.notes} notes, {result.versions} versions and {result.turns} event vectors: "
                  f"{result.old} -> {result.new}")


@privacy_app.command("rescan")
def privacy_rescan(
    data: DataOption = None,
    principal: Annotated[str, typer.Option("--principal", help="who the audit names")] = "admin",
) -> None:
    """Re-mask a stopped store with the current rules, re-embed what changed, drop old versions."""
    from reverie.embed import make_embedder
    from reverie.rescan import rescan

    settings = with_data(Settings(), data)
    store = _open_store(settings)
    result = rescan(store, make_embedder(settings.embedding), settings.privacy, principal=principal)
    counts = ", ".join(f"{name} {n}" for name, n in result.changed.items())
    console.print(f"re-masked {result.total} rows with {result.rules} (batch {result.batch_id}): {counts}")


def main() -> None:
    import httpx

    try:
        app()
    except ReverieError as exc:
        console.print(f"[red]error:[/red] {exc.message}")
        raise SystemExit(2) from exc
    except httpx.TransportError as exc:
        console.print(f"[red]error:[/red] cannot reach the service ({type(exc).__name__}); check --url / REVERIE_URL")
        raise SystemExit(2) from exc


if __name__ == "__main__":
    main()
