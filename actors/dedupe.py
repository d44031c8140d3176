"""Stage 3: deduplicate candidates — exact text, then within the run, then against the store.

1. exact: the same normalised statement in the same scope is one note (short statements that an
   embedding threshold would miss are merged here);
2. within the run: single linkage over cosine similarity >= ``duplicate_similarity`` (of the
   statements, or of their value-masked forms, so "X, not Y" restates "X"), never joining two
   candidates that contradict each other (same words, other value or polarity), that name different
   addresses or different things by number ("pool 1" / "pool 2"), or where one corrects the other
   (it replaces what the other states: a correction is never merged into its target);
3. against the store: the ``duplicate_k`` nearest live notes of the scope; the most confident one at
   similarity >= ``duplicate_similarity`` that is not apart from the group (as above) absorbs it.

A person's wish worded as a change (tagged a correction, or "from now on", "I moved to" ...) that
names nothing it replaces never merges at the value bar: the phrase it shares with an older wish may
be the very value it drops ("Enough X. Y from today on."), and the resolution stage supersedes the
wish it changes (``actors.resolve``); a restatement near enough for the duplicate bar still merges.

In both 2 and 3, two notes of one type that state the same value (:func:`reverie.statements.same_value`:
a number of two or more digits, else a hyphenated name; one value of one unit, "CUDA 11.8" and
``cuda:11.8.0``, or one version of a named thing, ``Zephyr 3.6.0`` and a boot banner's ``v3.6.0``;
for verified readings, one address, ``StorePath=https://a/sym`` and a nightly job's "Uploading … to
https://a/sym", or one part, ``[nRF5340.cpu]`` and ``"soc": "nRF5340"``, or one tool printing the value
another gives a field of its own name, ``minSdk = 24`` and aapt2's ``sdkVersion:'24'`` — the module a
reading is about being no value of it; or one field of a tool's output with one value,
:func:`reverie.tool_output.agreeing`) are duplicates from the lower
``value_duplicate_similarity``: a tool's outputs of one fact ("Port check db:5433 -> open", "psql
connected on port 5433") are worded too differently for the embedding alone; so are one person's
preferences that keep a phrase (two consecutive content words: "an email summary"), a preference and
a constraint alike (extraction types one wish either way).

A tagged correction that names nothing it replaces and says something new (two content words the
earlier statement does not) is never merged with what was said before it unless that was such a
correction too, in the run or in the store: one that repeats the value it
drops ("Wasn't it X now? it is. Y only for old code.") is near its target in meaning, and
resolution, not dedupe, weighs the two.

Quarantined candidates are only merged with exact copies of themselves, never with other notes.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import numpy as np

from actors.plan import Draft, Member, NoteIndex, note_id_for
from reverie.conflicts import conflict_between, different_things, other_address, other_value, same_address
from reverie.corrections import worded_as_change
from reverie.note_context import module_of
from reverie.records import Candidate, Note
from reverie.restatements import claimed_values, distinctive, prints_within
from reverie.settings import ConsolidationSettings
from reverie.statements import Reading, asserts, part_names, read, replaced, same_phrase, same_value, words_beyond
from reverie.tool_output import agreeing, shares_field

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def deduplicate(members: Sequence[Member], index: NoteIndex, settings: ConsolidationSettings, owner: str) -> list[Draft]:
    """Groups of the run's non-quarantined candidates, each new or merged into an existing note."""
    groups = exact_groups([m for m in members if m.candidate.status != "quarantined"])
    groups = link_within_run(groups, settings.duplicate_similarity, settings.correction_overlap,
                             settings.value_duplicate_similarity)
    return [match_store(group, index, settings, owner) for group in groups]


def quarantine_drafts(members: Sequence[Member], index: NoteIndex, owner: str) -> list[Draft]:
    """Quarantined candidates, merged only with exact copies (in the run or already quarantined)."""
    drafts = []
    for group in exact_groups([m for m in members if m.candidate.status == "quarantined"]):
        lead = group[0].candidate
        note_id = note_id_for(owner, lead.scope, "quarantined", lead.statement)
        drafts.append(Draft(note_id, tuple(group), index.get(note_id)))
    return drafts


def exact_groups(members: Sequence[Member]) -> list[list[Member]]:
    """Members with the same scope and normalised statement, in order of first appearance."""
    groups: dict[tuple[str, str], list[Member]] = {}
    for member in members:
        groups.setdefault(member.key, []).append(member)
    return list(groups.values())


def link_within_run(groups: list[list[Member]], threshold: float, overlap: float = 0.6,
                    value_threshold: float | None = None) -> list[list[Member]]:
    """Single-linkage clusters of groups whose leads are similar (or, from ``value_threshold``, of one
    type and stating the same value) and are never apart."""
    if len(groups) < 2:
        return groups
    leads = np.stack([g[0].vector for g in groups]).astype(np.float32)
    sims = leads @ leads.T
    if all(g[0].slot_vector is not None for g in groups):
        slots = np.stack([g[0].slot_vector for g in groups]).astype(np.float32)  # type: ignore[misc]
        sims = np.maximum(sims, slots @ slots.T)
    statements = [g[0].candidate.statement for g in groups]
    parent = list(range(len(groups)))
    members: dict[int, list[int]] = {i: [i] for i in range(len(groups))}
    scopes = np.array([g[0].candidate.scope for g in groups], dtype=object)
    near = sims >= threshold
    if value_threshold is not None:
        near |= _value_duplicates(groups, sims, value_threshold)
    close = np.triu(near & (scopes[:, None] == scopes[None, :]), k=1)
    rows, cols = np.nonzero(close)
    order = np.lexsort((cols, rows, -sims[rows, cols]))  # most similar first, ties by position
    for i, j in zip(rows[order].tolist(), cols[order].tolist(), strict=True):
        a, b = _root(parent, i), _root(parent, j)
        if a == b or _corrects_older([groups[x] for x in members[a]], [groups[y] for y in members[b]]):
            continue
        if not any(apart(statements[x], statements[y], overlap) for x in members[a] for y in members[b]):
            low, high = min(a, b), max(a, b)
            parent[high] = low
            members[low] = sorted(members[low] + members.pop(high))
    return [[m for i in members[root] for m in groups[i]] for root in sorted(members)]


def _value_duplicates(groups: list[list[Member]], sims: np.ndarray, threshold: float) -> np.ndarray:
    """Pairs at ``threshold`` or above whose leads are of one type and state the same value."""
    found = np.zeros_like(sims, dtype=bool)
    for i, j in zip(*np.nonzero(np.triu(sims >= threshold, k=1)), strict=True):
        a, b = groups[int(i)][0].candidate, groups[int(j)][0].candidate
        if changes_wish(a) or changes_wish(b):
            continue
        found[i, j] = found[j, i] = agree(a.type, a.scope, a.statement, b.type, b.statement,
                                          changing=changes(a.tags, a.statement) or changes(b.tags, b.statement))
    return found


WISHES = frozenset({"preference", "constraint"})


def agree(kind: str, scope: str, statement: str, other_kind: str, other: str, *, changing: bool = False) -> bool:
    """Of one type and stating the same value; a person's preferences also by a phrase they keep ("...
    an email summary", "... in US Pacific time"), and a preference and a constraint too (extraction
    types one wish either way: "My rule for plots: a log scale" / "Curves on a log scale, please")
    unless either is ``changing`` a wish (a correction is typed a constraint: it must never be
    absorbed by the preference it replaces). Two verified readings of a module share its name by being
    about it: that is no value of theirs; they agree on a value, one address or one part."""
    if kind == other_kind:
        mine, theirs = read(statement), read(other)
        same_program = mine.program == theirs.program
        readings = kind == "verified_fact"  # a tool's outputs all name their module; restated rules name it too
        ignored = _scope_names(scope) if readings else frozenset()
        if (same_value(statement, other, ignored) or agreeing(mine.fields, theirs.fields, same_program)
                or _same_unit_value(mine, theirs) or (readings and _one_reading(mine, theirs, statement, other, scope))):
            return True
    wishes = kind == other_kind == "preference" or ({kind, other_kind} == WISHES and not changing)
    return wishes and scope.startswith("personal:") and same_phrase(statement, other)


def _one_reading(mine: Reading, theirs: Reading, statement: str, other: str, scope: str) -> bool:
    return _one_place_or_part(statement, other, scope) or printed_field_value(mine, theirs, statement, other)


def _one_place_or_part(statement: str, other: str, scope: str) -> bool:
    """Two verified readings printing one address, or naming one part (``[nRF5340.cpu]`` / ``"soc": "nRF5340"``)."""
    return same_address(statement, other) or bool((part_names(statement) & part_names(other)) - _scope_names(scope))


def printed_field_value(first: Reading, second: Reading, a: str, b: str) -> bool:
    """One tool's output prints a value the other's gives a field: ``minSdk = 24`` and aapt2's
    ``sdkVersion:'24'``, a Podfile's ``platform :ios, '15.0'`` and ``IPHONEOS_DEPLOYMENT_TARGET = 15.0``,
    a CI file's ``queue: "linux-cook-64c"`` and a build log's "Running on linux-cook-64c-07" — two tools
    printing one setting under their own names. Only a field's value counts (a distinctive value word:
    two digits, an underscore or two hyphens; no lone digit, no date), and where the other output has
    fields, only theirs: a line number or a time stamp beside them is no value."""
    return _field_value_in(first.fields, second.fields, b) or _field_value_in(second.fields, first.fields, a)


def _field_value_in(fields: dict[str, str], other_fields: dict[str, str], other: str) -> bool:
    printed = "\n".join(other_fields.values()) if other_fields else other
    values = [value for field_value in fields.values() for value in claimed_values(field_value) if distinctive(value)]
    return any(prints_within(printed, value) for value in values)


def _scope_names(scope: str) -> frozenset[str]:
    """The names a scope's notes share by being about it: a module's (``module:p/ota-fetcher``)."""
    module = module_of(scope)
    return frozenset({module.lower()}) if module else frozenset()


def changes_wish(candidate: Candidate | Note) -> bool:
    """A person's wish worded as a change that names nothing it replaces: never a duplicate by a value or
    phrase it shares ("Enough X. Y from today on." is about X as much as Y); resolution finds the wish
    it changes. (A change that names what it replaces is kept apart from the notes that state it by
    :func:`apart`.)"""
    return (candidate.type in WISHES and candidate.scope.startswith("personal:")
            and changes(candidate.tags, candidate.statement) and not replaced(candidate.statement))


def _same_unit_value(mine: Reading, theirs: Reading) -> bool:
    """A value of one unit both state ("CUDA 11.8" / ``FROM nvidia/cuda:11.8.0-...`` /
    ``torch.version.cuda`` printing ``11.8``): one fact however it was printed."""
    return any(mine.values[unit] & theirs.values[unit] for unit in set(mine.values) & set(theirs.values))


def changes(tags: Sequence[str], statement: str) -> bool:
    """Tagged a correction, or worded as a change ("from now on", "no longer", "switch to", ...)."""
    return "correction" in tags or worded_as_change(statement)


def apart(a: str, b: str, overlap: float) -> bool:
    """Never the same note: they contradict, are one text with another value in it (a version, a
    machine type), name different addresses, name different things (or, both a tool's output, print no
    field in common and neither one value of a unit, one address nor one part), or one corrects the other."""
    first, second = read(a), read(b)
    if (different_things(first, second) or conflict_between(first, second) is not None or other_value(a, b)
            or other_address(a, b)):
        return True
    if (first.fields and second.fields and not shares_field(first.fields, second.fields, first.program == second.program)
            and not _one_place_or_part(a, b, "") and not _same_unit_value(first, second)
            and not printed_field_value(first, second, a, b)):
        return True  # two tools' outputs of different fields state different facts (unless one value, place or part)
    return corrects(a, b, overlap) or corrects(b, a, overlap)


def corrects(correction: str, target: str, overlap: float) -> bool:
    """``correction`` says it replaces something that ``target`` states."""
    return any(asserts(target, phrase, overlap) for phrase in replaced(correction))


def _root(parent: list[int], i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def match_store(group: list[Member], index: NoteIndex, settings: ConsolidationSettings, owner: str) -> Draft:
    """The group as a draft: merged into an exact or near existing note, or a new note."""
    group = sorted(group, key=_when)
    lead = group[0].candidate
    note_id = note_id_for(owner, lead.scope, lead.type, lead.statement)
    for member in group:
        found = index.exact(member.candidate.scope, member.candidate.statement)
        if found is not None:
            return Draft(found.note_id, tuple(group), found)
    near = _near_duplicate(group, index, settings)
    if near is not None:
        return Draft(near.note_id, tuple(group), near)
    return Draft(note_id, tuple(group), index.get(note_id))


def _near_duplicate(group: list[Member], index: NoteIndex, settings: ConsolidationSettings) -> Note | None:
    statements = [m.candidate.statement for m in group]
    blind = any(changes_wish(m.candidate) for m in group)
    found: list[Note] = []
    lead = group[0].candidate
    corrected = _corrected_before(group)
    for note, similarity in index.nearest(group[0].vector, lead.scope, settings.duplicate_k):
        if (corrected is not None and not _bare_correction(note.tags, note.statement) and _first_seen(note) < corrected
                and any(_says_more(m.candidate.statement, note.statement) for m in group
                        if _bare_correction(m.candidate.tags, m.candidate.statement))):
            continue  # what a correction replaces is never where it is kept (resolution weighs the two)
        alike = max(similarity, _slot_similarity(group[0], note, index)) >= settings.duplicate_similarity
        agreeing = (not blind and similarity >= settings.value_duplicate_similarity
                    and agree(lead.type, lead.scope, lead.statement, note.type, note.statement,
                              changing=any(changes(m.candidate.tags, m.candidate.statement) for m in group)
                              or changes(note.tags, note.statement)))
        if not (alike or agreeing):
            continue
        if not any(apart(note.statement, s, settings.correction_overlap) for s in statements):
            found.append(note)
    if not found:
        return None
    return max(found, key=lambda n: (n.confidence, n.status == "active", n.note_id))


def _corrected_before(group: Sequence[Member]) -> datetime | None:
    """When the group's earliest bare correction was said (None: the group holds none)."""
    times = [_when(m)[0] for m in group if _bare_correction(m.candidate.tags, m.candidate.statement)]
    return min(times) if times else None


def _bare_correction(tags: Sequence[str], statement: str) -> bool:
    """Tagged a correction and naming nothing it replaces ("X, not Y" names Y: :func:`apart` keeps it
    from a note stating Y, and it merges with one stating X)."""
    return "correction" in tags and not replaced(statement)


def _corrects_older(first: list[list[Member]], second: list[list[Member]]) -> bool:
    """One side holds a tagged correction that names nothing it replaces and the other none, all of it
    said before: what such a correction may replace (its old value restated beside the new one,
    "Wasn't it X now? it is. Y only for old code.") is never merged with it; resolution decides
    whether it corrects it."""
    a = [m for g in first for m in g]
    b = [m for g in second for m in g]
    for changing, other in ((a, b), (b, a)):
        corrected = _corrected_before(changing)
        if (corrected is not None and _corrected_before(other) is None and max(_when(m)[0] for m in other) < corrected
                and any(_says_more(m.candidate.statement, other[0].candidate.statement) for m in changing)):
            return True
    return False


def _says_more(correction: str, earlier: str) -> bool:
    """A bare correction that says two content words the earlier statement does not (a restatement
    tagged a correction, "Weekly reports should be formatted as tables." after "Format weekly reports
    as tables.", says nothing new and merges as before)."""
    return len(words_beyond(correction, earlier)) >= 2


def _first_seen(note: Note) -> datetime:
    return note.valid_from or note.created_at or EPOCH


def _slot_similarity(member: Member, note: Note, index: NoteIndex) -> float:
    theirs = index.slot_vector(note.note_id)
    if member.slot_vector is None or theirs is None:
        return -1.0
    return float(member.slot_vector @ theirs)


def _when(member: Member) -> tuple[datetime, str]:
    return member.candidate.observed_at or EPOCH, member.candidate.evidence[0]
