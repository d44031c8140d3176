"""Who may see and do what (DESIGN §5): the principal of a key, the role table, and visibility.

Every route asks this module, never the request body: ``require(principal, action)`` refuses an
action the role may not take (403), and the ``sees_*`` predicates decide visibility — a note, event,
batch or agent the caller may not see answers 404, exactly like one that does not exist.

The role table (``ROLE_ACTIONS``) is the one place that grants actions:

- agent: capture, retrieve, end its sessions, ask for its own consolidation and status; read its own
  personal notes and the shared notes of its projects, its own events and batches; edit, delete,
  restore its own personal notes.
- analyst: read shared notes of its projects, their evidence events, the graph, the map, batches,
  mining runs and metrics; never personal notes.
- reviewer: everything an analyst may, plus the review queue, edits of shared notes of its projects
  (``team`` notes only for a reviewer of every project), starting mining runs and rolling back
  mining batches of its projects.
- admin: everything, in every project: purge, rollback of any batch, any agent's consolidation,
  export and import.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from reverie.errors import ForbiddenError, NotFoundError
from reverie.records import Batch, Event, Note
from reverie.store.scopes import ScopeAccess, is_personal
from serve.auth.keys import ALL_PROJECTS, Identity, RoleName

Action = Literal[
    "capture", "retrieve", "agent.read", "agent.consolidate", "notes.read", "notes.write",
    "events.read", "batches.read", "batches.rollback", "review", "mining.read", "mining.start",
    "graph.read", "metrics.read", "purge", "export", "import",
]

ROLE_ACTIONS: dict[RoleName, frozenset[Action]] = {
    "agent": frozenset({
        "capture", "retrieve", "agent.read", "agent.consolidate", "notes.read", "notes.write", "events.read",
        "batches.read",
    }),
    "analyst": frozenset({"notes.read", "events.read", "batches.read", "mining.read", "graph.read", "metrics.read"}),
    "reviewer": frozenset({
        "notes.read", "events.read", "batches.read", "mining.read", "graph.read", "metrics.read",
        "notes.write", "review", "mining.start", "batches.rollback",
    }),
    "admin": frozenset({
        "capture", "retrieve", "agent.read", "agent.consolidate", "notes.read", "notes.write",
        "events.read", "batches.read", "batches.rollback", "review", "mining.read", "mining.start",
        "graph.read", "metrics.read", "purge", "export", "import",
    }),
}


@dataclass(frozen=True)
class Principal:
    """The caller, as its key says: never taken from a request body."""

    id: str
    role: RoleName
    projects: frozenset[str]
    key_id: str = ""

    @classmethod
    def of(cls, identity: Identity) -> Principal:
        entry = identity.entry
        return cls(entry.principal, entry.role, frozenset(entry.projects), identity.key_id)

    @property
    def all_projects(self) -> bool:
        return ALL_PROJECTS in self.projects

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"

    def in_project(self, project: str | None) -> bool:
        return self.all_projects or (project is not None and project in self.projects)

    def project_filter(self, wanted: str | None) -> list[str] | None:
        """The projects a listing may cover: ``None`` for all; refuses a project outside the key."""
        if wanted is not None:
            if not self.in_project(wanted):
                raise ForbiddenError(f"this key is not for project {wanted!r}; ask an admin for access", field="project")
            return [wanted]
        return None if self.all_projects else sorted(self.projects)


def may(principal: Principal, action: Action) -> bool:
    return action in ROLE_ACTIONS[principal.role]


def require(principal: Principal, action: Action) -> None:
    if not may(principal, action):
        raise ForbiddenError(f"the {principal.role} role may not {_describe(action)}; use a key with a role that may")


def _describe(action: Action) -> str:
    return {
        "capture": "capture events", "retrieve": "retrieve memory", "agent.read": "read agent status",
        "agent.consolidate": "start consolidation", "notes.read": "read notes", "notes.write": "change notes",
        "events.read": "read evidence events", "batches.read": "read batches", "batches.rollback": "roll back batches",
        "review": "use the review queue", "mining.read": "watch mining runs", "mining.start": "start mining runs",
        "graph.read": "read the graph or the map", "metrics.read": "read metrics", "purge": "purge",
        "export": "export", "import": "import",
    }[action]


def require_self(principal: Principal, agent_id: str) -> None:
    """An agent key acts only as its own agent; admins act as any."""
    if principal.role == "agent" and principal.id != agent_id:
        raise ForbiddenError(
            f"this key belongs to agent {principal.id!r} and may act only as that agent", field="agent_id",
        )


def require_project(principal: Principal, project: str | None) -> None:
    if not principal.in_project(project):
        raise ForbiddenError(f"this key is not for project {project!r}; ask an admin for access", field="project")


# --- visibility --------------------------------------------------------------------------------
# The scope rule itself is ``reverie.store.scopes.ScopeAccess``; this says whose access a key grants.


def note_access(principal: Principal) -> ScopeAccess:
    """The scopes the caller reads: every note for admins; else ``team``, the shared notes of its
    projects and, for an agent, its own personal notes. Filter notes with it (``NoteFilter.visible_to``)."""
    if principal.is_admin:
        return ScopeAccess(everything=True)
    return ScopeAccess(projects=_projects(principal), agent=principal.id if principal.role == "agent" else None)


def retrieval_access(principal: Principal, agent_id: str) -> ScopeAccess:
    """The scopes a retrieval acting as ``agent_id`` reads: those of ``note_access``, but an admin
    sees that agent's personal notes (not everyone's) beside every project's shared notes."""
    acting = principal.is_admin or principal.id == agent_id
    return ScopeAccess(projects=_projects(principal), agent=agent_id if acting else None)


def _projects(principal: Principal) -> frozenset[str] | None:
    return None if principal.all_projects else principal.projects


def sees_note(principal: Principal, note: Note) -> bool:
    return note_access(principal).admits(note.scope, note.project)


def may_change_note(principal: Principal, note: Note) -> bool:
    if principal.is_admin:
        return True
    if principal.role == "agent":
        return note.scope == f"personal:{principal.id}"
    if principal.role != "reviewer" or is_personal(note.scope):
        return False
    if note.scope == "team":  # seen by every project: only a reviewer of every project changes it
        return principal.all_projects
    return sees_note(principal, note)


def visible_note(principal: Principal, note: Note) -> Note:
    """The note if the caller may see it; otherwise the same 404 as an unknown id."""
    if not sees_note(principal, note):
        raise NotFoundError(f"no note {note.note_id!r}; list notes to find its id")
    return note


def sees_event(principal: Principal, event: Event, evidence_of_visible_note: bool) -> bool:
    """Agents see their own events; analysts and reviewers the evidence of shared notes they see, as
    long as the event is of one of their projects (raw events never leave their project, not even as
    the evidence of a ``team`` note)."""
    if principal.is_admin:
        return True
    if principal.role == "agent":
        return event.agent_id == principal.id
    return evidence_of_visible_note and principal.in_project(event.project)


def sees_batch(principal: Principal, batch: Batch) -> bool:
    if principal.is_admin:
        return True
    if principal.role == "agent":
        return batch.agent_id == principal.id
    return batch.project is not None and principal.in_project(batch.project)


def may_roll_back(principal: Principal, batch: Batch) -> bool:
    return principal.is_admin or (principal.role == "reviewer" and batch.kind == "mining" and principal.in_project(batch.project))


def sees_agent(principal: Principal, agent_id: str, projects: Iterable[str]) -> bool:
    """Agents of the caller's projects (teammates included); an agent always sees itself."""
    return principal.is_admin or principal.id == agent_id or any(principal.in_project(p) for p in projects)
