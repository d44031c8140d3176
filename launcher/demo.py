"""``reverie demo``: the main job end to end against a running service, over HTTP only.

The caller (the CLI) starts a local service (``launcher.local.local_service``) and hands it in;
everything here goes through :class:`reverie.client.Client`:

1. capture: each agent of the bundled fleet sample gets its own agent key and posts its first
   sessions (secrets and personal data are masked before anything is written; an injection attempt
   is kept as evidence only, quarantined);
2. dream: every agent is consolidated in its own actor (duplicates merge, chatter stays out);
3. capture the later sessions and dream again: corrections now overturn what they correct, and an
   unverified claim against a verified fact becomes an open question;
4. mine every project: lessons seen in three or more sessions of several agents become shared
   patterns in the team knowledge graph (those only a reviewer may approve wait for review);
5. ask: a few questions side by side without memory, with Reverie's memory block, and against
   injecting the agent's whole raw log, with the tokens each costs;

then a summary of what the service did. :func:`run_demo` returns it as a :class:`DemoSummary`.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from reverie.api import CaptureResult, ConsolidationResult, MiningRun, Retrieval
from reverie.capture import CaptureRequest
from reverie.client import Client, wait_until_accepted
from reverie.ports import RunningService
from reverie.sample import fleet_sample
from reverie.tokens import TokenCounter

FIRST_WAVE = 3  # sessions per agent captured before the first consolidation
K = 3  # notes asked for per question


@dataclass(frozen=True)
class Question:
    agent_id: str
    project: str
    text: str
    why: str


QUESTIONS = (
    Question("ops-1", "atlas", "How should I write up the deploy notes?",
             "said twice, in two wordings: one note, two mentions"),
    Question("coder-1", "atlas", "How many decimals do invoice amounts get?",
             "4 decimals, corrected to 2 and verified: the old note is superseded, never returned"),
    Question("tester-1", "atlas", "How long may an auth token stay valid?",
             "an unverified '30 minutes' against a verified 15: an open question, not an overwrite"),
    Question("newcomer-1", "atlas", "I am about to run a schema migration. Anything I should know first?",
             "a teammate with no history: the lesson three agents learned, promoted to the project"),
)
NEWCOMER = "newcomer-1"


@dataclass(frozen=True)
class Asked:
    question: Question
    with_memory: Retrieval
    without_memory: Retrieval
    raw_events: int
    raw_tokens: int


@dataclass
class DemoSummary:
    """What the service did, in numbers (every one read back from the service's answers)."""

    agents: int = 0
    sessions: int = 0
    events: int = 0
    salient: int = 0
    quarantined_events: int = 0
    masked_events: int = 0
    candidates: int = 0
    merged: int = 0  # mentions folded into a note that already said the same
    superseded: int = 0
    open_questions: int = 0
    notes_by_status: dict[str, int] = field(default_factory=dict)
    promoted: int = 0
    for_review: int = 0
    graph_nodes: int = 0
    graph_edges: int = 0
    asked: list[Asked] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def active_notes(self) -> int:
        return self.notes_by_status.get("active", 0)

    @property
    def with_history(self) -> list[Asked]:
        """The questions of agents that have a raw log of their own to compare with."""
        return [a for a in self.asked if a.raw_events]

    @property
    def tokens_with_memory(self) -> float:
        return _mean([a.with_memory.tokens for a in self.with_history])

    @property
    def tokens_raw_log(self) -> float:
        return _mean([a.raw_tokens for a in self.with_history])


class Demo:
    """One run of the demo against ``service``; ``run`` prints as it goes and returns the summary."""

    def __init__(self, service: RunningService, console: Console, requests: Sequence[CaptureRequest] | None = None) -> None:
        self._service = service
        self._console = console
        self._requests = list(requests if requests is not None else fleet_sample())
        self._admin = Client(service.url, service.admin_key)
        self._clients: dict[str, Client] = {}
        self._tokens = TokenCounter()
        self.summary = DemoSummary()

    def run(self) -> DemoSummary:
        first, later = waves(self._requests, FIRST_WAVE)
        with self._progress() as progress:
            self._keys(progress)
            self._capture(progress, first, "capturing each agent's first sessions")
            self._consolidate(progress, "dreaming: consolidating every agent")
            self._capture(progress, later, "capturing the later sessions")
            self._consolidate(progress, "dreaming again")
            self._mine(progress)
            self._ask(progress)
        self._masked()
        self._count_notes()
        return self.summary

    def close(self) -> None:
        for client in (self._admin, *self._clients.values()):
            client.close()

    # --- the steps --------------------------------------------------------------------------------
    @contextmanager
    def _progress(self) -> Iterator[Progress]:
        columns = (SpinnerColumn(), TextColumn("{task.description:<40}"), BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn())
        with Progress(*columns, console=self._console) as progress:
            yield progress

    @contextmanager
    def _step(self, progress: Progress, name: str, total: int, key: str) -> Iterator[TaskID]:
        task = progress.add_task(name, total=total)
        started = time.perf_counter()
        yield task
        self.summary.seconds[key] = self.summary.seconds.get(key, 0.0) + time.perf_counter() - started
        progress.update(task, completed=total)

    def _keys(self, progress: Progress) -> None:
        projects: dict[str, set[str]] = {NEWCOMER: {"atlas"}}
        for request in self._requests:
            projects.setdefault(request.agent_id, set()).add(request.project)
        with self._step(progress, "minting one agent key per agent", len(projects), "keys") as task:
            for agent_id, names in sorted(projects.items()):
                key = self._service.add_key(agent_id, "agent", sorted(names))
                self._clients[agent_id] = Client(self._service.url, key)
                progress.advance(task)
            for client in self._clients.values():
                wait_until_accepted(client)
        self.summary.agents = len(projects) - 1

    def _capture(self, progress: Progress, requests: Sequence[CaptureRequest], name: str) -> None:
        """Each agent posts its sessions in order; the agents post side by side."""
        by_agent: dict[str, list[CaptureRequest]] = {}
        for request in requests:
            by_agent.setdefault(request.agent_id, []).append(request)
        with self._step(progress, name, len(requests), "capture") as task:
            def post(mine: list[CaptureRequest]) -> list[CaptureResult]:
                done = []
                for request in mine:
                    done.append(self._clients[request.agent_id].capture(request))
                    progress.advance(task)
                return done

            with ThreadPoolExecutor(max_workers=max(1, len(by_agent))) as pool:
                results = [r for batch in pool.map(post, by_agent.values()) for r in batch]
        self.summary.sessions += len(results)
        self.summary.events += sum(r.accepted for r in results)
        self.summary.salient += sum(r.salient for r in results)
        self.summary.quarantined_events += sum(r.quarantined for r in results)

    def _consolidate(self, progress: Progress, name: str) -> None:
        agents = sorted({r.agent_id for r in self._requests})
        with self._step(progress, name, len(agents), "consolidation") as task:
            for agent_id in agents:
                self._count_run(self._clients[agent_id].consolidate(agent_id))
                progress.advance(task)

    def _count_run(self, result: ConsolidationResult) -> None:
        stats = result.stats
        self.summary.candidates += int(stats.get("candidates", 0))
        self.summary.superseded += int(stats.get("superseded", 0))
        self.summary.open_questions += int(stats.get("open_questions", 0))

    def _mine(self, progress: Progress) -> None:
        projects = sorted({r.project for r in self._requests})
        with self._step(progress, "mining patterns across agents", len(projects), "mining") as task:
            for project in projects:
                self._count_mining(self._admin.start_mining(project, wait=True))
                progress.advance(task)
        self._count_graph(projects)

    def _count_mining(self, run: MiningRun) -> None:
        self.summary.promoted += len(run.promoted)
        self.summary.for_review += len(run.review)

    def _count_graph(self, projects: Sequence[str]) -> None:
        """Graph rows the mining batches wrote (nodes and edges of the team knowledge graph)."""
        for project in projects:
            for batch in self._admin.batches(project=project).batches:
                if batch.kind == "mining":
                    self.summary.graph_nodes += int(batch.stats.get("nodes", 0))
                    self.summary.graph_edges += int(batch.stats.get("edges", 0))

    def _ask(self, progress: Progress) -> None:
        with self._step(progress, "asking with and without memory", len(QUESTIONS), "retrieval") as task:
            for question in QUESTIONS:
                self.summary.asked.append(self._one(question))
                progress.advance(task)

    def _one(self, question: Question) -> Asked:
        client = self._clients[question.agent_id]
        found = client.retrieve(question.agent_id, question.text, project=question.project, k=K)
        none = client.retrieve(question.agent_id, question.text, project=question.project, memory=False)
        history = [e.text for r in self._requests if r.agent_id == question.agent_id for e in r.events]
        return Asked(question, found, none, len(history), sum(self._tokens.count_many(history)) if history else 0)

    def _masked(self) -> None:
        """Events whose stored text differs from what was posted (a secret or personal datum masked)."""
        posted = {(r.agent_id, e.event_id): e.text for r in self._requests for e in r.events if e.event_id}
        stored = {key: self._admin.event(key[1], key[0]).text for key in posted}
        self.summary.masked_events = sum(1 for key, text in posted.items() if stored[key] != text)

    def _count_notes(self) -> None:
        notes = list(self._admin.iter_notes(limit=1000))
        self.summary.notes_by_status = dict(sorted(Counter(n.status for n in notes).items()))
        self.summary.merged = sum(len(n.evidence) - 1 for n in notes if n.type not in ("pattern", "open_question"))


def waves(requests: Sequence[CaptureRequest], first: int) -> tuple[list[CaptureRequest], list[CaptureRequest]]:
    """Each agent's first ``first`` sessions, then the rest (each in the order given)."""
    seen: Counter[str] = Counter()
    early: list[CaptureRequest] = []
    late: list[CaptureRequest] = []
    for request in requests:
        seen[request.agent_id] += 1
        (early if seen[request.agent_id] <= first else late).append(request)
    return early, late


def run_demo(service: RunningService, console: Console) -> DemoSummary:
    """Run the demo against ``service`` and print what it shows; returns the summary."""
    demo = Demo(service, console)
    try:
        summary = demo.run()
    finally:
        demo.close()
    show(summary, console)
    return summary


# --- what it prints ------------------------------------------------------------------------------------
def show(summary: DemoSummary, console: Console) -> None:
    for asked in summary.asked:
        console.print(_side_by_side(asked))
    console.print(_summary_table(summary))


def _side_by_side(asked: Asked) -> Table:
    q = asked.question
    found = asked.with_memory
    table = Table(title=escape(f"{q.agent_id} asks: {q.text!r}\n({q.why})"), title_justify="left", expand=True)
    table.add_column("no memory", ratio=1)
    table.add_column(f"Reverie: {_count(len(found.notes), 'note')}, {found.tokens} tokens", ratio=5)
    table.add_column(f"raw log: {asked.raw_tokens} tokens", ratio=1)
    lines = [escape(f"[{hit.note.type} · {hit.note.scope} · {_count(len(hit.note.evidence), 'mention')}] {hit.note.statement}")
             for hit in found.notes]
    raw = f"all {asked.raw_events} events of {q.agent_id}" if asked.raw_events else "none of its own"
    table.add_row(f"nothing ({asked.without_memory.tokens} tokens)", "\n".join(lines) or "(nothing found)", raw)
    return table


def _summary_table(s: DemoSummary) -> Table:
    table = Table(title="summary", title_justify="left", show_header=False)
    table.add_column("what")
    table.add_column("how many", justify="right", no_wrap=True)
    rows = [
        ("agents / sessions / events captured", f"{s.agents} / {s.sessions} / {s.events}"),
        ("events with a secret or personal data masked before writing", s.masked_events),
        ("events quarantined (text that tries to instruct)", s.quarantined_events),
        ("raw log lines before -> active notes after", f"{s.events} -> {s.active_notes}"),
        ("notes by status", ", ".join(f"{k} {v}" for k, v in s.notes_by_status.items())),
        ("candidate notes extracted / mentions merged into an existing note", f"{s.candidates} / {s.merged}"),
        ("conflicts resolved: superseded / open questions", f"{s.superseded} / {s.open_questions}"),
        ("patterns promoted / waiting for a reviewer", f"{s.promoted} / {s.for_review}"),
        ("team knowledge graph: nodes / edges written", f"{s.graph_nodes} / {s.graph_edges}"),
        ("tokens per question: Reverie's memory block vs the asker's whole raw log",
         f"{s.tokens_with_memory:.0f} vs {s.tokens_raw_log:.0f}"),
        ("seconds spent: " + ", ".join(s.seconds), " / ".join(f"{v:.1f}" for v in s.seconds.values())),
    ]
    for what, value in rows:
        table.add_row(what, str(value))
    return table


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
