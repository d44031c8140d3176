"""Which note scopes a reader sees (DESIGN §5), written once: checked on a note in Python
(:meth:`ScopeAccess.admits`) and rendered as the condition the store filters notes with
(:meth:`ScopeAccess.where`); ``tests/test_store_filters.py`` checks that the two agree.

Scopes are ``team``, ``project:<p>``, ``module:<p>/<m>`` (the *shared* scopes of project ``p``) and
``personal:<agent>``. A reader sees ``team``, the shared scopes of its projects and at most one
personal scope; a shared note counts only when its scope names the note's own project.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from reverie.store.where import Clause, all_of, among, any_of, equal, starts

TEAM = "team"
PERSONAL = "personal:"
SHARED_PREFIXES = ("module:", "project:")
ScopeKind = Literal["team", "personal", "project", "module"]
_NAMES_OWN_PROJECT = (
    "project IS NOT NULL AND (scope = concat('project:', project) OR starts_with(scope, concat('module:', project, '/')))"
)


def is_personal(scope: str) -> bool:
    return scope.startswith(PERSONAL)


def scope_project(scope: str) -> str | None:
    """The project a shared scope belongs to (``module:p/m`` and ``project:p``), else ``None``."""
    if scope.startswith("project:"):
        return scope.removeprefix("project:")
    if scope.startswith("module:"):
        return scope.removeprefix("module:").split("/", 1)[0]
    return None


def names_own_project(scope: str, project: str | None) -> bool:
    """Whether a note's scope is not shared, or names the note's own project."""
    owner = scope_project(scope)
    return owner is None or owner == project


@dataclass(frozen=True)
class ScopeAccess:
    """The scopes one reader sees: every note (``everything``, admins), or ``team``, the shared scopes
    of ``projects`` (``None``: of every project) and the personal scope of ``agent`` (if set)."""

    everything: bool = False
    projects: frozenset[str] | None = frozenset()
    agent: str | None = None

    def sees_scope(self, scope: str) -> bool:
        if self.everything or scope == TEAM:
            return True
        if is_personal(scope):
            return self.agent is not None and scope == PERSONAL + self.agent
        return self.projects is None or scope_project(scope) in self.projects

    def admits(self, scope: str, project: str | None) -> bool:
        """Whether a note of ``scope`` and ``project`` is seen (what :meth:`where` keeps)."""
        return self.everything or (self.sees_scope(scope) and names_own_project(scope, project))

    def where(self) -> Clause:
        """The condition on ``notes`` keeping exactly what :meth:`admits` keeps (none for everything)."""
        if self.everything:
            return None
        personal = equal("scope", PERSONAL + self.agent) if self.agent is not None else None
        return any_of(equal("scope", TEAM), personal, self._shared())

    def _shared(self) -> Clause:
        if self.projects is not None and not self.projects:
            return None
        return f"({all_of(among('project', self.projects), _NAMES_OWN_PROJECT)})"


def kind_where(kinds: Sequence[ScopeKind] | None) -> Clause:
    """Notes whose scope is of one of ``kinds``."""
    if kinds is None:
        return None
    return any_of(*(equal("scope", TEAM) if k == TEAM else starts("scope", f"{k}:") for k in sorted(set(kinds)))) or "false"
