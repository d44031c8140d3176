"""What the MCP tools cost: ``recall`` over stdio (``reverie mcp``) and over ``/mcp`` against the same
retrieval asked directly (``POST /v1/retrieve``), in one run, on one local service.

    python -m bench --only mcp --quick     # the harness works (small store, few requests)
    python -m bench --only mcp             # the numbers to quote (add --render)

One local Reverie (Ray, the memory actors, the Serve app, the configured embedder), one agent with
``sessions`` sessions of turns captured over HTTP and ``notes`` agent-authored notes
(``POST /v1/notes``), so every retrieval ranks notes and raw turns. Then ``requests`` distinct
questions, each asked three ways back to back in a rotating order (so neither the cache nor load
favours one): directly with the async HTTP client, as the ``recall`` tool of a ``reverie mcp``
subprocess driven by the official MCP client over stdio, and as the ``recall`` tool at ``/mcp``
(stateless streamable HTTP, one MCP client session). Each way is warmed up first. Latency is measured
at the caller; the overhead is the tool's median minus the direct median.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import anyio
import httpx2
import ray
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from bench.registry import Context, Measure, Outcome, Table, register
from bench.served import service_settings
from launcher.local import local_service
from reverie.client import AsyncClient, Client
from serve.lifecycle import joined_ray

ROOT = Path(__file__).resolve().parents[1]
AGENT = "bench-mcp-agent"
PROJECT = "bench"
TOPICS = ("deploys", "invoices", "the changelog", "database backups", "code review", "the release train",
          "incident calls", "test flakes", "the build cache", "on-call handover")


@dataclass(frozen=True)
class Plan:
    sessions: int
    notes: int
    requests: int
    warmup: int

    @classmethod
    def of(cls, quick: bool) -> Plan:
        return cls(6, 10, 12, 3) if quick else cls(60, 200, 200, 20)


Ask = Callable[[str], Awaitable[None]]


@register("mcp", "recall over MCP (stdio and /mcp) vs POST /v1/retrieve", quick=False)
def mcp_latency(ctx: Context) -> Outcome:
    plan = Plan.of(ctx.quick)
    if not ray.is_initialized():
        ctx.resources.enter_context(joined_ray(ctx.settings))
    with local_service(service_settings(ctx, "mcp"), triggers=False) as service:
        key = service.add_key(AGENT, "agent", [PROJECT])
        _seed(service.url, key, plan)
        timings, problems = anyio.run(_measure, service.url, key, plan)
    return _outcome(timings, problems, plan)


def _seed(url: str, key: str, plan: Plan) -> None:
    with Client(url, key) as client:
        for s in range(plan.sessions):
            topic = TOPICS[s % len(TOPICS)]
            events = [{"role": "user", "text": f"In session {s} we talked about {topic}: step {i} is done by hand."}
                      for i in range(5)]
            client.capture({"agent_id": AGENT, "session_id": f"bench-s{s}", "project": PROJECT, "events": events})
        for n in range(plan.notes):
            topic = TOPICS[n % len(TOPICS)]
            client.write_note({"statement": f"For {topic}, rule {n}: check the dashboard before and after.",
                               "key": f"rule-{n}", "namespace": ["bench", "rules"]})


async def _measure(url: str, key: str, plan: Plan) -> tuple[dict[str, list[float]], list[str]]:
    problems: list[str] = []
    async with AsyncExitStack() as stack:
        direct = await stack.enter_async_context(AsyncClient(url, key))
        stdio = await stack.enter_async_context(_stdio_session(url, key))
        http = await stack.enter_async_context(_http_session(url, key))
        ways: dict[str, Ask] = {
            "POST /v1/retrieve": lambda q: _direct(direct, q),
            "recall over stdio": lambda q: _tool(stdio, q, problems),
            "recall over /mcp": lambda q: _tool(http, q, problems),
        }
        for i in range(plan.warmup):
            for ask in ways.values():
                await ask(f"warm-up question {i} about {TOPICS[i % len(TOPICS)]}")
        timings: dict[str, list[float]] = {name: [] for name in ways}
        names = list(ways)
        for i in range(plan.requests):
            question = f"What did we settle about {TOPICS[i % len(TOPICS)]} (question {i})?"
            for name in names[i % 3:] + names[: i % 3]:
                started = time.perf_counter()
                await ways[name](question)
                timings[name].append((time.perf_counter() - started) * 1000)
    return timings, problems


async def _direct(client: AsyncClient, question: str) -> None:
    await client.retrieve(AGENT, question, project=PROJECT)


async def _tool(session: ClientSession, question: str, problems: list[str]) -> None:
    result = await session.call_tool("recall", {"query": question})
    if result.is_error:
        problems.append(f"recall answered a tool error: {' '.join(getattr(b, 'text', '') for b in result.content)[:200]}")


@asynccontextmanager
async def _stdio_session(url: str, key: str) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "reverie.cli", "mcp"],
                                   env={"REVERIE_URL": url, "REVERIE_KEY": key, "PYTHONPATH": str(ROOT)})
    with open(os.devnull, "w") as quiet:
        async with stdio_client(params, errlog=quiet) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            yield session


@asynccontextmanager
async def _http_session(url: str, key: str) -> AsyncIterator[ClientSession]:
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=120) as http, \
            streamable_http_client(f"{url}/mcp", http_client=http) as (read, write), \
            ClientSession(read, write) as session:
        await session.initialize()
        yield session


def _outcome(timings: dict[str, list[float]], problems: list[str], plan: Plan) -> Outcome:
    base = statistics.median(timings["POST /v1/retrieve"])
    rows = [[name, len(ms), statistics.median(ms), _p95(ms), statistics.median(ms) - base] for name, ms in timings.items()]
    measures = [Measure(f"{name}, median", statistics.median(ms), "ms", "POST /v1/retrieve, median", base)
                for name, ms in timings.items() if name != "POST /v1/retrieve"]
    measures += [Measure(f"{name}, median overhead", statistics.median(ms) - base, "ms")
                 for name, ms in timings.items() if name != "POST /v1/retrieve"]
    notes = [f"one agent: {plan.sessions} sessions of 5 turns, {plan.notes} notes of its own; {plan.requests} distinct "
             f"questions, each asked the three ways in rotating order after {plan.warmup} warm-up rounds; one client at a time"]
    table = Table("recall latency at the caller (ms)", ["way", "requests", "p50", "p95", "p50 overhead"], rows)
    return Outcome(measures=measures, tables=[table], notes=notes, problems=problems)


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
